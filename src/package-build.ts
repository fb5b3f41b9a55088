import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Plugin } from '@oclif/core';
import { packageRoot } from './package-info';
import { writeSourceStamp } from './runner/code-version';

/**
 * The oclif manifest of the package's compiled commands, as `oclif manifest` builds it, with the
 * commands in sorted order: oclif loads them concurrently, so its own order varies from run to run.
 */
export async function freshManifest(root = packageRoot()): Promise<Record<string, unknown>> {
  const plugin = new Plugin({ root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, respectNoCacheDefault: true });
  await plugin.load();
  const manifest = plugin.manifest as unknown as { commands: Record<string, unknown> };
  const commands = Object.fromEntries(Object.keys(manifest.commands).sort().map((id) => [id, manifest.commands[id]]));
  return { ...manifest, commands };
}

export function manifestText(manifest: object): string {
  return JSON.stringify(manifest, null, 2) + '\n';
}

/**
 * `npm run build`, after tsc: the source stamp beside dist/ and a deterministic oclif.manifest.json.
 * `--stamp-only` (npm test) writes the stamp alone: the test that the committed manifest is fresh
 * must not be passed by rewriting it.
 */
async function main(): Promise<void> {
  const root = packageRoot();
  writeSourceStamp(join(root, 'dist'), join(root, 'src'));
  if (process.argv.includes('--stamp-only')) return;
  const file = join(root, 'oclif.manifest.json');
  writeFileSync(file, manifestText(await freshManifest(root)));
  process.stdout.write(`wrote ${file}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
