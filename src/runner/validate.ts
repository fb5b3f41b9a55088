import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { checkPackHandbook, lintPack } from '../handbook';
import { packCoverage, type CoverageTable } from '../handbook/coverage';
import type { Truth } from '../task-pack/code';
import { mutantOutcomesOf, outcomesOf, readTruth, scenarioDirOf } from './coverage';
import { defaultTasksDir, loadPack, resolvePackDir } from '../task-pack/load';
import { pool, runWorker } from './pool';
import { validateUnit, type ControlRow, type UnitOptions } from './validate-unit';

export interface ValidateOptions {
  /** Task slugs (default: every pack in the tasks folder). */
  tasks?: string[];
  tasksDir?: string;
  seeds?: number[];
  strict?: boolean;
  /** Worker processes (default: the machine's cores). */
  jobs?: number;
  /** Default runs/validate. */
  runsDir?: string;
  /** Default scenarios/. */
  scenariosDir?: string;
  /** A fault profile every task names in its fault_profiles (seed 000 §7.1). */
  faults?: string;
  /** Keep the databases of attempts whose controls held (by default removed: about 80 MB an attempt). */
  keepDatabases?: boolean;
  log?: (line: string) => void;
}

export interface ValidateReport {
  ok: boolean;
  rows: ControlRow[];
  /** Each task's clause-coverage table over the seeds validated, with how its negative controls came out. */
  coverage: CoverageTable[];
}

export function listTasks(tasksDir: string): string[] {
  if (!existsSync(tasksDir)) return [];
  return readdirSync(tasksDir, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(tasksDir, d.name, 'task.yaml'))).map((d) => d.name).sort();
}

/** Positive controls a pack must ship under --strict, besides the oracle and the generic ones built from it. */
export const MIN_POSITIVES = 3;

/** Handbook check and lint (and under --strict, the count of positive controls): the controls that do not depend on a seed. */
export function packRows(task: string, tasksDir: string, strict: boolean): { rows: ControlRow[]; loaded: boolean } {
  const row = (control: string, expected: string, got: string, ok: boolean): ControlRow => ({ task, seed: null, control, expected, got, ok });
  let pack;
  try {
    pack = loadPack(task, tasksDir);
  } catch (err) {
    return { rows: [row('load', 'a valid pack', (err as Error).message, false)], loaded: false };
  }
  const diff = checkPackHandbook(pack);
  const stale = [...diff.missing, ...diff.extra, ...diff.differing];
  const lint = lintPack(pack);
  const lintOk = lint.ok && (!strict || lint.unenforced.length === 0);
  const lintGot = [...lint.errors, ...(strict && lint.unenforced.length ? [`clauses nothing enforces: ${lint.unenforced.join(', ')}`] : [])].join('; ') || 'passes';
  const positives = Object.keys(pack.spec.positive_controls);
  return {
    rows: [
      row('handbook check', 'matches policies.yaml', diff.ok ? 'matches' : `stale: ${stale.join(', ')}`, diff.ok),
      row('handbook lint', strict ? 'passes, every clause enforced' : 'passes', lintGot, lintOk),
      ...(strict ? [row('positive controls', `at least ${MIN_POSITIVES} of the pack's own besides the oracle`, positives.length ? `${positives.length}: ${positives.join(', ')}` : 'none', positives.length >= MIN_POSITIVES)] : []),
    ],
    loaded: true,
  };
}

/** From built JavaScript, units run in worker processes; from TypeScript sources (tests), in this one. */
const canFork = __filename.endsWith('.js');

function runInWorker(options: Omit<UnitOptions, 'log'>): Promise<ControlRow[]> {
  return runWorker<ControlRow[]>(join(__dirname, 'validate-worker.js'), options);
}

/**
 * `erp bench validate` (seed 000 §11): for each task, handbook check and lint; for each task and
 * seed, the oracle passes twice to the same final state, the null agent fails, and each negative
 * control fails the checks it names. Units run in parallel worker processes.
 */
export async function validate(o: ValidateOptions = {}): Promise<ValidateReport> {
  const tasksDirOf = resolve(o.tasksDir ?? defaultTasksDir());
  const tasks = o.tasks ?? listTasks(tasksDirOf);
  if (tasks.length === 0) throw new Error(`No task packs in ${tasksDirOf}: nothing to validate.`);
  const seeds = o.seeds ?? [0];
  const strict = o.strict ?? false;
  const rows: ControlRow[] = [];
  const units: Omit<UnitOptions, 'log'>[] = [];
  for (const named of tasks) {
    // A pack's own folder (tasks/payment-run, ./my-pack) is its slug in the folder that holds it.
    const packDir = resolvePackDir(named, tasksDirOf);
    const [task, tasksDir] = packDir === resolve(named) ? [basename(packDir), dirname(packDir)] : [named, tasksDirOf];
    const checked = packRows(task, tasksDir, strict);
    rows.push(...checked.rows);
    if (!checked.loaded) continue;
    for (const seed of seeds) {
      units.push({
        task, tasksDir, seed, strict, ...(o.faults ? { faults: o.faults } : {}), ...(o.keepDatabases ? { keepDatabases: true } : {}),
        runsDir: resolve(o.runsDir ?? join('runs', 'validate'), o.faults ? `${task}+${o.faults}` : task, `seed-${seed}`),
        scenarioDir: scenarioDirOf(o.scenariosDir, task, seed),
      });
    }
  }
  const jobs = canFork ? (o.jobs ?? availableParallelism()) : 1;
  const unitRows = await pool(units, jobs, async (unit) => {
    try {
      return jobs > 1 ? await runInWorker(unit) : await validateUnit({ ...unit, log: o.log });
    } catch (err) {
      return [{ task: unit.task, seed: unit.seed, control: 'run', expected: 'the controls run', got: (err as Error).message, ok: false }];
    }
  });
  rows.push(...unitRows.flat());
  const coverage: CoverageTable[] = [];
  for (const task of [...new Set(units.map((u) => u.task))]) {
    const mine = units.filter((u) => u.task === task);
    const pack = loadPack(task, mine[0]!.tasksDir);
    const truths = new Map<number, Truth>();
    for (const u of mine) {
      const truth = readTruth(u.scenarioDir);
      if (truth) truths.set(u.seed, truth);
    }
    const table = packCoverage(pack, { truths, outcomes: outcomesOf(rows, pack.slug), mutants: mutantOutcomesOf(rows, pack.slug) });
    coverage.push(table);
    // Seed 000 §11.3 taken whole: under --strict every clause must be checked, broken alone by a control that fails as declared, and exercised.
    if (strict) rows.push({ task: pack.slug, seed: null, control: 'clause coverage', expected: 'every clause checked, broken alone, exercised', got: table.ok ? `${table.clauses.length} clauses covered` : table.problems.join('; '), ok: table.ok });
  }
  return { ok: rows.every((r) => r.ok), rows, coverage };
}
