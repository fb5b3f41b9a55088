import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Metafile } from 'esbuild';
import { packageRoot } from '../package-info';

/**
 * dist/erp-client.cjs: the agent commands bundled into one file that needs nothing but node. It is
 * the `erp` inside an agent's sandbox, and a contract other tools rely on (the CLI start-time
 * benchmark, an MCP server): keep the path.
 */
export const CLIENT_BUNDLE = join('dist', 'erp-client.cjs');

export function clientBundlePath(): string {
  return join(packageRoot(), CLIENT_BUNDLE);
}

/** Source folders the bundle may draw from: the client alone, never the ERP, the tasks or the grader. */
export const CLIENT_SOURCES = ['src/client/'];

/**
 * Bundles src/client/main.ts with esbuild (a build-time dependency, loaded only here). Returns the
 * metafile, whose inputs name every module inside; `write: false` builds without writing.
 */
export async function buildClientBundle(options: { outFile?: string; write?: boolean } = {}): Promise<{ metafile: Metafile; bytes: number }> {
  // require, not import(): a build-time dependency, loaded only when bundling (and jest runs CommonJS).
  const { build } = require('esbuild') as typeof import('esbuild');
  const root = packageRoot();
  const outFile = options.outFile ?? join(root, CLIENT_BUNDLE);
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/client/main.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    legalComments: 'none',
    metafile: true,
    write: false,
    outfile: outFile,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  if (options.write ?? true) {
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, code);
    chmodSync(outFile, 0o644);
  }
  return { metafile: result.metafile, bytes: code.length };
}

/** Inputs of a bundle outside the client's sources: empty when the bundle holds the client only. */
export function foreignInputs(metafile: Metafile): string[] {
  return Object.keys(metafile.inputs).filter((f) => !CLIENT_SOURCES.some((dir) => f.startsWith(dir))).sort();
}

if (require.main === module) {
  buildClientBundle().then(
    ({ metafile, bytes }) => {
      const foreign = foreignInputs(metafile);
      if (foreign.length) throw new Error(`The client bundle draws on modules outside ${CLIENT_SOURCES.join(', ')}: ${foreign.join(', ')}.`);
      process.stdout.write(`${CLIENT_BUNDLE}: ${Object.keys(metafile.inputs).length} modules, ${(bytes / 1024).toFixed(0)} KiB\n`);
    },
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
