import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot, packageVersion } from '../../package-info';
import type { TaskPack } from '../../task-pack/load';

/**
 * The programs an exported Harbor task's containers run, each one file built with esbuild from
 * the package's sources (as the client bundles are): the ERP service and the verifier, which need
 * only better-sqlite3 beside them, and a task's oracle step, which holds the pack's code. The
 * export builds them once per export (the oracle once per task) and copies them into each task.
 */
export type HarborProgram = 'erp-service' | 'verifier' | 'oracle';

const ENTRIES: Record<Exclude<HarborProgram, 'oracle'>, string> = {
  'erp-service': 'src/export/harbor/erp-service.ts',
  verifier: 'src/export/harbor/verifier.ts',
};

/** Sources a program may hold: the service never the grader, the oracle never the ERP's server or grader. */
const FORBIDDEN: Record<HarborProgram, readonly string[]> = {
  'erp-service': ['src/grader/grade.ts', 'src/grader/checks'],
  verifier: [],
  oracle: ['src/api/server.ts', 'src/grader/'],
};

export interface BuiltProgram {
  code: Uint8Array;
  /** Package sources inside it, relative to the package root. */
  inputs: string[];
}

/**
 * Every program's entry calls its module's main: inside one bundle `require.main === module` holds
 * for every module, so the bundle defines require.main away and no module's own guard fires.
 */
async function bundle(contents: string): Promise<BuiltProgram> {
  // A build-time dependency, loaded only when exporting.
  const { build } = require('esbuild') as typeof import('esbuild');
  const root = packageRoot();
  const result = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, sourcefile: 'harbor-entry.ts', loader: 'ts' },
    bundle: true, platform: 'node', target: 'node20', format: 'cjs', minify: true, legalComments: 'none',
    metafile: true, write: false, logLevel: 'silent', external: ['better-sqlite3', 'esbuild', 'typescript'],
    define: { BB_ERP_VERSION: JSON.stringify(packageVersion()), 'require.main': 'undefined' },
  });
  return { code: result.outputFiles[0]!.contents, inputs: Object.keys(result.metafile.inputs).sort() };
}

/** An entry that runs `main` of a module with the command line and exits with its code. */
function entry(imports: string, call: string): string {
  return [
    imports,
    `Promise.resolve().then(() => ${call}).then((c) => process.exit(c), (e) => { process.stderr.write(String((e && e.stack) || e) + "\\n"); process.exit(1); });`,
  ].join('\n');
}

function importPath(root: string, file: string): string {
  const rel = relative(root, file);
  return JSON.stringify(rel.startsWith('..') ? file : `./${rel}`);
}

function checkInputs(name: HarborProgram, built: BuiltProgram): BuiltProgram {
  const foreign = built.inputs.filter((f) => FORBIDDEN[name].some((p) => f.startsWith(p)));
  if (foreign.length) throw new Error(`The Harbor ${name} program draws on modules it may not hold: ${foreign.join(', ')}.`);
  return built;
}

export async function buildServiceProgram(name: Exclude<HarborProgram, 'oracle'>): Promise<BuiltProgram> {
  const root = packageRoot();
  return checkInputs(name, await bundle(entry(`import { main } from ${importPath(root, join(root, ENTRIES[name]))};`, 'main(process.argv.slice(2))')));
}

/** The pack's oracle with the step runner: `node oracle.cjs turn.json` plays one turn. */
export async function buildOracleProgram(pack: TaskPack): Promise<BuiltProgram> {
  const root = packageRoot();
  const index = ['index.ts', 'index.js'].map((f) => join(pack.dir, f)).find((f) => existsSync(f));
  if (!index) throw new Error(`${pack.dir} has no index.ts or index.js: the oracle cannot be exported.`);
  const imports = [
    `import * as pack from ${importPath(root, index)};`,
    `import { playOracleStep } from ${importPath(root, join(root, 'src', 'export', 'harbor', 'oracle-step.ts'))};`,
  ].join('\n');
  return checkInputs('oracle', await bundle(entry(imports, 'playOracleStep((pack as any).default ?? (pack as any).task, process.argv[2])')));
}
