import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Metafile, Plugin } from 'esbuild';
import { OPERATOR_BUNDLE, OPERATOR_MANIFEST, PACKAGE_LOCK, type ManifestFile, type OperatorManifest } from '../operator-bundle';
import { packageRoot } from '../package-info';

/**
 * Builds dist/erp-operator.cjs (src/operator-bundle.ts loads it) and its manifest, after tsc.
 * Every compiled module of dist/src is in it except those node must load itself, with the
 * packages they use; native and build-time packages stay outside and are required as usual.
 */

/**
 * Modules left to node's loader: the loader's own hooks, the workers' entries that install them
 * (a process's main file, never required), what needs a real dynamic import, and the build's
 * tools, which run from their own files and never under `erp`.
 */
const OUTSIDE = [
  'dist/src/code-cache.js', 'dist/src/operator-bundle.js', 'dist/src/operator-start.js',
  'dist/src/runner/validate-worker.js', 'dist/src/runner/strategy-worker.js', 'dist/src/runner/campaign-worker.js',
  'dist/src/not-found-hook.js',
];
const OUTSIDE_DIRS = ['dist/src/build/'];
/**
 * Packages required as they are: native code, oclif (one instance for its commands), build tools,
 * and the agent side's (the LLM client, the MCP SDK), which only the agent's own processes load.
 */
const EXTERNAL = ['better-sqlite3', '@oclif/*', 'esbuild', 'typescript', 'ts-jest', 'jest', 'openai', '@modelcontextprotocol/*', 'zod', 'zod-to-json-schema'];

function modulesUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...modulesUnder(root, path));
    else if (entry.name.endsWith('.js')) out.push(path);
  }
  return out.sort();
}

/** The compiled modules the bundle serves, as paths under the package root. */
export function bundledModules(root: string): string[] {
  return modulesUnder(root, 'dist/src').filter((path) => !OUTSIDE.includes(path) && !OUTSIDE_DIRS.some((dir) => path.startsWith(dir)));
}

/**
 * A module's __dirname and __filename inside the bundle are its own file's, found from where the
 * bundle is at run time (esbuild would give every module the bundle's).
 */
function ownLocation(root: string): Plugin {
  return {
    name: 'own-location',
    setup(build) {
      build.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!/\b__(dirname|filename)\b/.test(text)) return undefined;
        const path = relative(root, args.path).split(sep).join('/');
        const where = `var __filename = __bbOwn(${JSON.stringify(path)}), __dirname = require("node:path").dirname(__filename);\n`;
        const strict = text.match(/^("use strict";\r?\n)/);
        return { contents: strict ? strict[1] + where + text.slice(strict[1]!.length) : where + text, loader: 'js' };
      });
    },
  };
}

export interface BuiltOperatorBundle {
  modules: number;
  bytes: number;
  metafile: Metafile;
}

/** Builds the bundle and its manifest into `root`'s dist/ (written whole, each by rename). */
export async function buildOperatorBundle(root = packageRoot()): Promise<BuiltOperatorBundle> {
  // require, not import(): a build-time dependency, loaded only here.
  const { build } = require('esbuild') as typeof import('esbuild');
  const modules = bundledModules(root);
  const entry = `module.exports = {\n${modules.map((m) => `  ${JSON.stringify(m)}: () => require(${JSON.stringify(`./${m}`)}),`).join('\n')}\n};\n`;
  const result = await build({
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root, sourcefile: 'operator-entry.js', loader: 'js' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    external: EXTERNAL,
    banner: { js: 'const __bbOwn = (p) => require("node:path").join(__dirname, "..", ...p.split("/"));' },
    plugins: [ownLocation(root)],
    metafile: true,
    write: false,
    outfile: join(root, OPERATOR_BUNDLE),
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const text = Buffer.from(code).toString('utf8');
  // The code cache leaves files that import dynamically to node, uncached (a pattern, so this file is not one of them).
  if (/import\(/.test(text)) throw new Error(`${OPERATOR_BUNDLE} would import dynamically: a module that needs node's loader must stay outside it.`);
  const inputs = Object.keys(result.metafile.inputs).filter((f) => f.startsWith('dist/'));
  const loose = inputs.filter((f) => f.endsWith('.js') && !modules.includes(f));
  if (loose.length) throw new Error(`${OPERATOR_BUNDLE} would hold modules it cannot serve by path: ${loose.join(', ')}.`);
  const files: ManifestFile[] = inputs.sort().map((f) => {
    const s = statSync(join(root, f));
    return [f, s.size, s.mtimeMs];
  });
  let lock: OperatorManifest['lock'] = null;
  try {
    const s = statSync(join(root, PACKAGE_LOCK));
    lock = [s.size, s.mtimeMs];
  } catch {
    // No lock (a package installed without npm): the bundle is current while the lock stays absent.
  }
  const manifest: OperatorManifest = { version: 1, files, lock };
  writeWhole(join(root, OPERATOR_BUNDLE), code);
  writeWhole(join(root, OPERATOR_MANIFEST), JSON.stringify(manifest) + '\n');
  return { modules: modules.length, bytes: code.length, metafile: result.metafile };
}

function writeWhole(file: string, data: string | Uint8Array): void {
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
}

if (require.main === module) {
  buildOperatorBundle().then(
    ({ modules, bytes, metafile }) => process.stdout.write(`${OPERATOR_BUNDLE}: ${modules} modules of dist/src and ${Object.keys(metafile.inputs).filter((f) => f.startsWith('node_modules/')).length} of packages, ${(bytes / 1024).toFixed(0)} KiB\n`),
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
