import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultTasksDir, loadPack } from '../task-pack/load';
import { loadPackCode } from '../task-pack/module-loader';
import { chanceOfPasses } from './chance';
import { pool, runWorker } from './pool';
import { runStrategyUnit, type StrategyCell, type StrategyKind, type StrategyUnitOptions } from './strategy-unit';
import { formatTable } from './table';
import { listTasks } from './validate';

export interface StrategiesOptions {
  /** Family names; undefined or ['all'] for every family a pack declares. */
  families?: string[];
  seeds: number[];
  tasksDir?: string;
  jobs?: number;
  /** Default runs/strategies. */
  runsDir?: string;
  /** Default scenarios/. */
  scenariosDir?: string;
  log?: (line: string) => void;
}

export interface StrategyTotals {
  kind: StrategyKind;
  strategy: string;
  runs: number;
  passed: number;
  /** The mean share of checks the strategy satisfied, over its runs. */
  mean_share: number;
}

export interface StrategiesReport {
  families: { family: string; task: string }[];
  seeds: number[];
  cells: StrategyCell[];
  totals: StrategyTotals[];
  blind: { runs: number; passed: number; expected: number; upper95: number };
  /** Every way the matrix fell short of seed 004's: a valid strategy failing, a failing one passing, blind beating chance. */
  problems: string[];
  ok: boolean;
}

/** The packs that declare a strategy matrix, by family. */
export function strategyFamilies(tasksDir = defaultTasksDir()): { family: string; task: string }[] {
  const out: { family: string; task: string }[] = [];
  for (const task of listTasks(tasksDir)) {
    const code = loadPackCode(loadPack(task, tasksDir));
    if (code.matrix) out.push({ family: code.matrix.family, task });
  }
  return out.sort((a, b) => (a.family < b.family ? -1 : 1));
}

const canFork = __filename.endsWith('.js');
const share = (c: StrategyCell) => (c.checks_total === 0 ? 0 : c.checks_passed / c.checks_total);

export function totalsOf(cells: readonly StrategyCell[]): StrategyTotals[] {
  const groups = new Map<string, StrategyCell[]>();
  for (const c of cells) groups.set(`${c.kind}\u0000${c.strategy}`, [...(groups.get(`${c.kind}\u0000${c.strategy}`) ?? []), c]);
  const order: StrategyKind[] = ['reference', 'alternative', 'failing', 'regression', 'blind'];
  return [...groups.values()].map((g) => ({
    kind: g[0]!.kind, strategy: g[0]!.strategy, runs: g.length, passed: g.filter((c) => c.passed).length, mean_share: g.reduce((s, c) => s + share(c), 0) / g.length,
  })).sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}

/** What falls short: valid strategies must pass every run, failing and regression ones fail every run, blind stay within chance. */
export function problemsOf(cells: readonly StrategyCell[], blind: StrategiesReport['blind']): string[] {
  const out: string[] = [];
  for (const c of cells) {
    const where = `${c.family} seed ${c.seed}: ${c.strategy}`;
    if (c.verdict === 'error') out.push(`${where} could not be graded (${c.error ?? 'error'})`);
    else if (c.unfinished) out.push(`${where} did not finish: ${c.unfinished}`);
    else if ((c.kind === 'reference' || c.kind === 'alternative') && !c.passed) out.push(`${where} failed ${c.failed_checks.join(', ')}`);
    else if ((c.kind === 'failing' || c.kind === 'regression') && c.passed) out.push(`${where} passed`);
  }
  if (blind.passed > blind.upper95) out.push(`blind passed ${blind.passed} of ${blind.runs}, more than chance allows (at most ${blind.upper95} at 95%)`);
  return out;
}

/**
 * `erp bench strategies` (seed 004's validation matrix): for each family and seed, the reference, the
 * alternative valid solutions, the failing strategies, the regression strategies and the blind one.
 * Units (a family on a seed) run in worker processes when built.
 */
export async function strategies(o: StrategiesOptions): Promise<StrategiesReport> {
  const tasksDir = resolve(o.tasksDir ?? defaultTasksDir());
  const known = strategyFamilies(tasksDir);
  const wanted = !o.families || o.families.includes('all') ? known.map((f) => f.family) : o.families;
  const unknown = wanted.filter((w) => !known.some((k) => k.family === w));
  if (unknown.length) throw new Error(`No family ${unknown.join(', ')} (families: ${known.map((k) => k.family).join(', ') || 'none'}).`);
  const families = known.filter((k) => wanted.includes(k.family));
  const units: Omit<StrategyUnitOptions, 'log'>[] = families.flatMap((f) => o.seeds.map((seed) => ({
    task: f.task, tasksDir, seed,
    runsDir: resolve(o.runsDir ?? join('runs', 'strategies'), f.task, `seed-${seed}`),
    scenarioDir: resolve(o.scenariosDir ?? 'scenarios', f.task, `seed-${seed}`),
  })));
  const jobs = canFork ? (o.jobs ?? availableParallelism()) : 1;
  const results = await pool(units, jobs, (unit) => (jobs > 1
    ? runWorker<StrategyCell[]>(join(__dirname, 'strategy-worker.js'), unit)
    : runStrategyUnit({ ...unit, log: o.log })));
  const cells = results.flat();
  const blindCells = cells.filter((c) => c.kind === 'blind');
  const chance = chanceOfPasses(blindCells.map((c) => c.chance ?? 0));
  const blind = { runs: blindCells.length, passed: blindCells.filter((c) => c.passed).length, expected: chance.expected, upper95: chance.upper };
  const problems = problemsOf(cells, blind);
  return { families, seeds: o.seeds, cells, totals: totalsOf(cells), blind, problems, ok: problems.length === 0 };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

function cellText(c: StrategyCell | undefined): string {
  if (!c) return '';
  if (c.verdict === 'error') return 'ERROR';
  if (c.unfinished) return 'BROKEN';
  if (c.kind === 'reference' || c.kind === 'alternative') return c.passed ? 'pass' : `FAIL ${pct(share(c))}`;
  if (c.kind === 'blind') return c.passed ? 'pass (chance)' : `fail ${pct(share(c))}`;
  return c.passed ? 'PASSED' : `fail ${pct(share(c))}`;
}

/** The matrix as seed 004 prints it: per family a grid of strategies by seed, then the totals. */
export function formatStrategies(r: StrategiesReport): string {
  const out: string[] = [];
  for (const f of r.families) {
    const mine = r.cells.filter((c) => c.family === f.family);
    const rows = [...new Map(mine.map((c) => [`${c.kind}\u0000${c.strategy}`, c])).values()];
    out.push(`${f.family} (${f.task})`);
    out.push(formatTable(['strategy', 'kind', ...r.seeds.map((s) => `seed ${s}`)], rows.map((row) => [
      row.strategy, row.kind, ...r.seeds.map((s) => cellText(mine.find((c) => c.seed === s && c.kind === row.kind && c.strategy === row.strategy))),
    ])));
  }
  const runs = (kind: StrategyKind) => r.cells.filter((c) => c.kind === kind);
  const passedOf = (kind: StrategyKind) => `${runs(kind).filter((c) => c.passed).length}/${runs(kind).length}`;
  out.push('Totals');
  out.push(formatTable(['strategy', 'kind', 'result'], [
    ['reference', 'reference', `${passedOf('reference')} passed`],
    ['alternatives', 'alternative', `${passedOf('alternative')} passed`],
    ...r.totals.filter((t) => t.kind === 'failing' || t.kind === 'regression').map((t) => [
      t.strategy, t.kind, `${t.runs - t.passed}/${t.runs} failed; ${pct(t.mean_share)} of checks still satisfied on average`,
    ]),
    ['blind (queue position)', 'blind', `${r.blind.passed}/${r.blind.runs} passed by chance; chance predicts ${r.blind.expected.toFixed(1)} (at most ${r.blind.upper95} at 95%)`],
  ]));
  out.push(r.ok ? 'the matrix holds' : `${r.problems.length} problem(s):\n${r.problems.map((p) => `  - ${p}`).join('\n')}`);
  return out.join('\n');
}
