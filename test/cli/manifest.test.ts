import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');
const commandsDir = join(root, 'src', 'commands');

function commandFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? commandFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('the committed oclif manifest', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { flags: Record<string, unknown>; args: Record<string, unknown> }> };

  it('lists exactly the commands in src/commands (run `npm run build` to regenerate it)', () => {
    const ids = commandFiles(commandsDir).map((f) => relative(commandsDir, f).replace(/\.ts$/, '').split('/').join(':')).sort();
    expect(Object.keys(manifest.commands).sort()).toEqual(ids);
  });

  it('has the flags and arguments each command declares', () => {
    for (const file of commandFiles(commandsDir)) {
      const id = relative(commandsDir, file).replace(/\.ts$/, '').split('/').join(':');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const cls = require(file).default as { flags?: Record<string, unknown>; args?: Record<string, unknown>; enableJsonFlag?: boolean };
      const declared = Object.keys(cls.flags ?? {}).concat(cls.enableJsonFlag ? ['json'] : []).sort();
      expect({ id, flags: Object.keys(manifest.commands[id]!.flags).sort() }).toEqual({ id, flags: declared });
      expect({ id, args: Object.keys(manifest.commands[id]!.args).sort() }).toEqual({ id, args: Object.keys(cls.args ?? {}).sort() });
    }
  });
});
