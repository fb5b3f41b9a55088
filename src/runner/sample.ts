import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { packageRoot } from '../package-info';
import { defaultTasksDir, loadPack } from '../task-pack/load';
import { importedFromOutside } from '../task-pack/fingerprint';
import { REFERENCE_AGENT, RUN_SCRIPT, sampleReadme } from './sample-files';
import { BUNDLES, bundlePath, type BundleName } from './client-bundle';
import { generateScenario } from './scenario';
import { strategyFamilies } from './strategies';

export interface SampleOptions {
  out: string;
  tasksDir?: string;
  /** Where scenarios are generated or found (default scenarios/). */
  scenariosDir?: string;
  seed?: number;
  log?: (line: string) => void;
}

export interface SampleReport {
  out: string;
  tasks: string[];
  modules: string[];
}

/** Only what a package needs at run time: better-sqlite3 without its sources, and without the installer it depends on. */
const TRIM: Record<string, { keep: string[]; dependencies: string[] }> = {
  'better-sqlite3': { keep: ['package.json', 'lib', 'build/Release/better_sqlite3.node', 'LICENSE'], dependencies: ['bindings'] },
};

/** The production dependencies of the package (or the packages named), transitively, as folders under its node_modules (optional ones when installed). */
export function runtimeModules(root = packageRoot(), names?: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string, optional: boolean) => {
    for (let dir = from; ; dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) {
        if (found.has(candidate)) return;
        found.add(candidate);
        const pkg = JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
        const optionals = new Set(Object.keys(pkg.optionalDependencies ?? {}));
        const deps = TRIM[name]?.dependencies ?? [...Object.keys(pkg.dependencies ?? {}), ...optionals];
        for (const dep of deps) visit(dep, candidate, optionals.has(dep));
        return;
      }
      if (dirname(dir) === dir) {
        if (optional) return;
        throw new Error(`Cannot find the module ${name} needed at run time (from ${from}).`);
      }
    }
  };
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const dep of names ?? Object.keys(pkg.dependencies)) visit(dep, root, false);
  return [...found].sort();
}

/** Copies a module folder of runtimeModules into `out`/node_modules, trimmed to what it needs at run time. */
export function copyModule(root: string, dir: string, out: string): void {
  const path = relative(join(root, 'node_modules'), dir);
  const target = join(out, 'node_modules', path);
  const trim = TRIM[path.split('/node_modules/').pop()!];
  if (!trim) {
    // Nested modules are copied as modules of their own, when something needs them.
    cpSync(dir, target, { recursive: true, dereference: true, filter: (src) => !src.startsWith(join(dir, 'node_modules')) });
    return;
  }
  for (const part of trim.keep) if (existsSync(join(dir, part))) cpSync(join(dir, part), join(target, part), { recursive: true, dereference: true });
}

/**
 * `erp bench sample`: a folder that runs with Node alone. One seed-1 scenario of every family with a
 * strategy matrix, the compiled ERP, grader and runner, the task packs (sources, handbooks, YAML), the
 * runtime dependencies with better-sqlite3's compiled addon, a run script and the reference agent as
 * a process. Needs a built package (dist/).
 */
export async function writeSample(o: SampleOptions): Promise<SampleReport> {
  const root = packageRoot();
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'src', 'runner', 'attempt.js'))) throw new Error(`${dist} is not built: run npm run build first.`);
  const out = resolve(o.out);
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty.`);
  mkdirSync(out, { recursive: true });
  const tasksDir = resolve(o.tasksDir ?? defaultTasksDir());
  const seed = o.seed ?? 1;
  const families = strategyFamilies(tasksDir);

  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(out, 'package.json'), JSON.stringify({ name: pkg.name, version: pkg.version, private: true, license: pkg.license, bin: pkg.bin, oclif: pkg.oclif }, null, 2) + '\n');
  cpSync(join(root, 'bin'), join(out, 'bin'), { recursive: true });
  cpSync(join(root, 'oclif.manifest.json'), join(out, 'oclif.manifest.json'));
  cpSync(join(dist, 'src'), join(out, 'dist', 'src'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  for (const name of Object.keys(BUNDLES) as BundleName[]) cpSync(bundlePath(name), join(out, BUNDLES[name].file));

  const shared = new Set<string>();
  for (const f of families) {
    const pack = loadPack(f.task, tasksDir);
    o.log?.(`${f.task}: scenario for seed ${seed}`);
    const scenario = await generateScenario(pack, { seed, out: resolve(o.scenariosDir ?? 'scenarios', f.task, `seed-${seed}`), log: o.log });
    cpSync(scenario.dir, join(out, 'scenarios', f.task, `seed-${seed}`), { recursive: true, filter: (src) => !relative(scenario.dir, src).startsWith(join('reference', 'oracle-run')) });
    cpSync(pack.dir, join(out, 'tasks', f.task), { recursive: true });
    cpSync(join(dist, 'tasks', f.task), join(out, 'dist', 'tasks', f.task), { recursive: true, filter: (src) => !src.endsWith('.map') });
    for (const file of [...pack.policies.sources, ...importedFromOutside(pack.dir)]) if (relative(pack.dir, file).startsWith('..')) shared.add(file);
  }
  for (const file of [...shared].sort()) {
    const rel = relative(tasksDir, file);
    cpSync(file, join(out, 'tasks', rel));
    const compiled = join(dist, 'tasks', rel.replace(/\.ts$/, '.js'));
    if (file.endsWith('.ts') && existsSync(compiled)) cpSync(compiled, join(out, 'dist', 'tasks', rel.replace(/\.ts$/, '.js')));
  }

  const modules = runtimeModules(root);
  for (const dir of modules) copyModule(root, dir, out);
  writeFileSync(join(out, 'run.js'), RUN_SCRIPT);
  mkdirSync(join(out, 'agents'), { recursive: true });
  writeFileSync(join(out, 'agents', 'reference.js'), REFERENCE_AGENT);
  for (const f of ['run.js', 'agents/reference.js', 'bin/run.js']) chmodSync(join(out, f), 0o755);
  writeFileSync(join(out, 'README.md'), sampleReadme(families.map((f) => ({ ...f, title: loadPack(f.task, tasksDir).spec.title }))));
  rmSync(join(out, 'runs'), { recursive: true, force: true });
  return { out, tasks: families.map((f) => f.task), modules: modules.map((m) => relative(join(root, 'node_modules'), m)) };
}
