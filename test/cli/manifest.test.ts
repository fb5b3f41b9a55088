import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { freshManifest, manifestText } from '../../src/package-build';

const root = join(__dirname, '..', '..');
const commandsDir = join(root, 'src', 'commands');

function commandFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? commandFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

type Manifest = { commands: Record<string, { flags: Record<string, { description?: string }>; args: Record<string, { description?: string }>; examples?: string[]; summary?: string }> };
const committed = readFileSync(join(root, 'oclif.manifest.json'), 'utf8');
const manifest = JSON.parse(committed) as Manifest;

describe('the committed oclif manifest', () => {
  it('is byte for byte what the build writes from dist/ (run `npm run build` to regenerate it)', async () => {
    expect(committed).toBe(manifestText(await freshManifest(root)));
  });

  it('is written the same way every time: commands in sorted order', async () => {
    const again = manifestText(await freshManifest(root));
    expect(again).toBe(manifestText(await freshManifest(root)));
    expect(Object.keys(manifest.commands)).toEqual(Object.keys(manifest.commands).sort());
  });

  it('lists exactly the commands in src/commands', () => {
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

describe('every command', () => {
  const commands = Object.entries(manifest.commands);

  it('takes --json, but erp mcp, whose stdout is the MCP stream itself', () => {
    expect(commands.filter(([, c]) => !c.flags.json).map(([id]) => id)).toEqual(['mcp']);
  });

  it('has a summary and at least one example', () => {
    expect(commands.filter(([, c]) => !c.summary || !c.examples?.length).map(([id]) => id)).toEqual([]);
  });

  it('describes every flag and argument', () => {
    const bare = commands.flatMap(([id, c]) => [...Object.entries(c.flags), ...Object.entries(c.args)].filter(([, f]) => !f.description).map(([name]) => `${id} ${name}`));
    expect(bare).toEqual([]);
  });
});
