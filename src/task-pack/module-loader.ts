import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { packageRoot } from '../package-info';
import { missingImport } from './shared-code';
import { PackError } from './yaml-file';
import type { TaskCode } from './code';
import type { TaskPack } from './load';

/**
 * Loads a pack's index module. From dist/, a pack under tasks/ is the compiled dist/tasks/<slug>/index.js;
 * a pack elsewhere (test/fixtures/tasks, an author's folder) is transpiled on require with the
 * TypeScript compiler when it is installed. Under ts-jest the runtime transforms .ts itself.
 */
export function loadPackCode(pack: TaskPack): TaskCode {
  const file = packModuleFile(pack);
  let mod: { default?: TaskCode; task?: TaskCode };
  try {
    mod = require(file) as typeof mod;
  } catch (err) {
    throw new PackError(file, '', `cannot be loaded: ${missingImport(err) ?? (err as Error).message.split('\n')[0]}`);
  }
  const code = mod.default ?? mod.task;
  if (!code || typeof code.generate !== 'function' || typeof code.oracle !== 'function' || typeof code.negatives !== 'object') {
    throw new PackError(file, 'default export', 'must be a TaskCode: { generate, oracle, negatives }');
  }
  const declared = [...Object.keys(pack.spec.negative_controls), ...Object.values(pack.spec.fault_profiles).flatMap((p) => Object.keys(p.negative_controls))];
  for (const neg of declared) {
    if (typeof code.negatives[neg.slice(4)] !== 'function') throw new PackError(file, `negatives.${neg.slice(4)}`, `task.yaml declares ${neg} but the module has no such policy`);
  }
  const positives = code.positives ?? {};
  for (const pos of Object.keys(pack.spec.positive_controls)) {
    if (typeof positives[pos.slice(4)] !== 'function') throw new PackError(file, `positives.${pos.slice(4)}`, `task.yaml declares ${pos} but the module has no such policy`);
  }
  for (const name of Object.keys(positives)) {
    if (!(`pos:${name}` in pack.spec.positive_controls)) throw new PackError(file, `positives.${name}`, `the module has a positive control ${name} that task.yaml's positive_controls does not declare (what it varies, and why it is valid)`);
  }
  return code;
}

function runningFromSource(): boolean {
  return __filename.endsWith('.ts');
}

function packModuleFile(pack: TaskPack): string {
  const root = packageRoot();
  const rel = relative(root, pack.dir);
  if (!runningFromSource() && !rel.startsWith('..') && rel.split(sep)[0] === 'tasks') {
    const compiled = join(root, 'dist', rel, 'index.js');
    if (existsSync(compiled)) return compiled;
  }
  const ts = join(pack.dir, 'index.ts');
  if (existsSync(ts)) {
    if (!runningFromSource()) registerTypeScript(ts);
    return ts;
  }
  const js = join(pack.dir, 'index.js');
  if (existsSync(js)) return js;
  throw new PackError(join(pack.dir, 'index.ts'), '', 'the pack has no index.ts or index.js');
}

let registered = false;

function registerTypeScript(forFile: string): void {
  if (registered || require.extensions['.ts']) return;
  let ts: typeof import('typescript');
  try {
    ts = require('typescript') as typeof import('typescript');
  } catch {
    throw new PackError(forFile, '', 'is TypeScript and the typescript package is not installed: compile the pack or install dev dependencies');
  }
  require.extensions['.ts'] = (module, filename) => {
    const out = ts.transpileModule(readFileSync(filename, 'utf8'), {
      fileName: filename,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false },
    });
    (module as unknown as { _compile(code: string, file: string): void })._compile(out.outputText, filename);
  };
  registered = true;
}
