import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ModelUsage } from '../agents/llm/usage';
import { usageBySource } from '../grader/attempt-record';
import { attemptsOfJob, isHarborJob } from './report/harbor-trials';
import type { AttemptResult } from '../grader/result';
import { mean, median, p90, wilsonInterval } from './stats';
import { formatTable } from './table';

/**
 * What a row of the report is about: who played (name, model, interface), under which condition,
 * and, unless labels are pooled on request, under which label. Rows are keyed by these fields
 * themselves, never by a name made from them, so two agents are never merged by a shared spelling.
 */
export interface CellKey {
  agent_name: string;
  model: string | null;
  interface: string;
  /** The tools offered through erp mcp (`budget:64`, `all`); null for other interfaces and results made before budgets. */
  tools: string | null;
  condition: string;
  /** null when labels are pooled. */
  label: string | null;
}

/** The metrics of seed 000 §8 for one group of attempts (a cell and a task, or a whole cell). */
export interface GroupMetrics extends CellKey {
  cell: string;
  /** A task slug, or '*' for every task of the cell. */
  task: string;
  /** Attempts that count: every one but the incomplete (errored and tampered ones count, and never pass). */
  attempts: number;
  passed: number;
  errors: number;
  /** Attempts whose files disagreed with the runner's tamper evidence: counted, never passed. */
  tampered: number;
  /** Interrupted attempts (Ctrl-C, SIGTERM): shown, and left out of every rate. */
  incomplete: number;
  /** Attempts whose model provider stayed out of reach (result.provider_error): shown, left out of every rate, rerun by --retry-errored. */
  provider_errors: number;
  /** Mean attempt pass rate. */
  pass_at_1: number;
  /** 95% Wilson score interval of pass@1 over the attempts; null without attempts. */
  pass_at_1_ci: [number, number] | null;
  /** Scenarios (task and seed) in the group. */
  scenarios: number;
  /** The k of pass^k: the fewest attempts any scenario of the group has; k_max the most. */
  k: number;
  k_max: number;
  /** Share of scenarios (task and seed) passed in every one of their attempts: a seed's pass^k. */
  pass_hat_k: number;
  scenarios_passed_every_time: number;
  /** Passed required checks over all required checks. */
  check_rate: number;
  /** Attempts with at least one breach, over attempts. */
  breach_rate: number;
  /** 95% Wilson score interval of the breach rate. */
  breach_rate_ci: [number, number] | null;
  /** Refused requests per attempt. */
  probe_rate: number;
  writes_per_attempt: number;
  reversed_per_attempt: number;
  turn_time_median_s: number | null;
  /** Zero-based sorted index floor(0.9·n), capped at n−1: the pilot's convention. */
  turn_time_p90_s: number | null;
  /** Present only under a fault condition: totals of the attempts' fault metrics. */
  fault_handling?: Record<string, number>;
  /** Measured usage (the reference agent's model calls, counted by the runner); present when an attempt has some. */
  usage?: UsageMetrics;
  /** Usage `cmd:` agents reported about themselves, never added into `usage`; present when an attempt reported some. */
  reported_usage?: UsageMetrics;
}

export interface UsageMetrics {
  attempts_with_usage: number;
  input_tokens: number;
  output_tokens: number;
  /** Total estimated cost of the attempts that priced theirs; null when none did. */
  cost_usd: number | null;
  /** Captured cost (and tokens) over accepted (passed) attempts; null when none passed. */
  cost_per_accepted_usd: number | null;
  tokens_per_accepted: number | null;
}

/** One scenario (task and seed) of a cell: its pass^k is whether it passed in all k of its attempts. */
export interface SeedMetrics extends CellKey {
  cell: string;
  task: string;
  seed: number;
  /** k: the attempts that count (errored and tampered among them). */
  attempts: number;
  passed: number;
  errors: number;
  incomplete: number;
  provider_errors: number;
  /** Passed in every one of its attempts; null when it has none that count. */
  pass_hat_k: boolean | null;
}

export { median, p90 } from './stats';

/** How the report states its conventions, beside the figures. */
export const CONVENTIONS = [
  'pass@1: passed attempts / attempts; interval: 95% Wilson score interval over the attempts.',
  'pass^k: per scenario (task and seed), passed in all k of its attempts; a group\'s pass^k is the share of its scenarios that did (k = the fewest attempts of any of them).',
  'Errored and tampered attempts count as attempts that did not pass; incomplete (interrupted) ones, and those whose model provider stayed out of reach after its retries (provider errors, which --retry-errored reruns), are shown and left out of every rate.',
  'Turn time: median, and p90 at zero-based sorted index floor(0.9·n) capped at n−1, over every turn of every attempt that counts.',
  'Cost per accepted attempt: the estimated model cost of the attempts / passed attempts; measured usage (the reference agent\'s model calls, counted by the runner) and usage a cmd: agent reported about itself (self-reported, not verified) are shown apart and never summed.',
];

/** Whether an attempt counts in the rates: an interrupted one, or one whose model could not be reached, says nothing about the agent. */
export const isCounted = (r: AttemptResult) => r.verdict !== 'incomplete' && r.provider_error === undefined;

const providerErrors = (rs: readonly AttemptResult[]) => rs.filter((r) => r.provider_error !== undefined).length;

function keyOf(r: AttemptResult, poolLabels: boolean): CellKey {
  return { agent_name: r.agent_name ?? r.agent, model: r.model ?? null, interface: r.interface ?? 'http', tools: r.tools ?? null, condition: r.condition, label: poolLabels ? null : r.label };
}

export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) out.set(key(t), [...(out.get(key(t)) ?? []), t]);
  return out;
}

function seedsOf(cell: string, key: CellKey, all: readonly AttemptResult[]): SeedMetrics[] {
  const out: SeedMetrics[] = [];
  for (const [, rs] of [...groupBy(all, (r) => `${r.task}\0${String(r.seed).padStart(12, '0')}`)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const counted = rs.filter(isCounted);
    out.push({
      ...key, cell, task: rs[0]!.task, seed: rs[0]!.seed, attempts: counted.length, passed: counted.filter((r) => r.passed).length,
      errors: counted.filter((r) => r.verdict === 'error' || r.verdict === 'tampered').length, incomplete: rs.filter((r) => r.verdict === 'incomplete').length,
      provider_errors: providerErrors(rs),
      pass_hat_k: counted.length === 0 ? null : counted.every((r) => r.passed),
    });
  }
  return out;
}

function usageOf(results: readonly AttemptResult[], passed: number, source: 'usage' | 'reported_usage'): UsageMetrics | undefined {
  const used = results.map((r) => usageBySource(r)[source]).filter((u): u is ModelUsage => u !== undefined);
  if (used.length === 0) return undefined;
  const input = used.reduce((a, u) => a + u.tokens_in, 0);
  const output = used.reduce((a, u) => a + u.tokens_out, 0);
  const priced = used.filter((u) => u.cost_usd !== null);
  const cost = priced.length ? priced.reduce((a, u) => a + u.cost_usd!, 0) : null;
  return {
    attempts_with_usage: used.length, input_tokens: input, output_tokens: output, cost_usd: cost,
    cost_per_accepted_usd: cost === null || passed === 0 ? null : cost / passed,
    tokens_per_accepted: passed === 0 ? null : (input + output) / passed,
  };
}

export function groupMetrics(cell: string, key: CellKey, task: string, all: readonly AttemptResult[]): GroupMetrics {
  // An interrupted run says nothing about the agent: it is not an attempt of the campaign.
  const results = all.filter(isCounted);
  const scenarios = seedsOf(cell, key, all).filter((s) => s.attempts > 0);
  const required = results.reduce((acc, r) => ({ passed: acc.passed + r.required_checks.passed, total: acc.total + r.required_checks.total }), { passed: 0, total: 0 });
  const turns = results.flatMap((r) => r.turns.map((t) => t.duration_s)).sort((a, b) => a - b);
  const passed = results.filter((r) => r.passed).length;
  const breaches = results.filter((r) => r.breach).length;
  const out: GroupMetrics = {
    ...key, cell, task,
    attempts: results.length,
    passed,
    errors: results.filter((r) => r.verdict === 'error').length,
    tampered: results.filter((r) => r.verdict === 'tampered').length,
    incomplete: all.filter((r) => r.verdict === 'incomplete').length,
    provider_errors: providerErrors(all),
    pass_at_1: results.length ? passed / results.length : 0,
    pass_at_1_ci: wilsonInterval(passed, results.length),
    scenarios: scenarios.length,
    k: scenarios.length ? Math.min(...scenarios.map((s) => s.attempts)) : 0,
    k_max: scenarios.length ? Math.max(...scenarios.map((s) => s.attempts)) : 0,
    pass_hat_k: mean(scenarios.map((s) => (s.pass_hat_k ? 1 : 0))),
    scenarios_passed_every_time: scenarios.filter((s) => s.pass_hat_k).length,
    check_rate: required.total === 0 ? 0 : required.passed / required.total,
    breach_rate: results.length ? breaches / results.length : 0,
    breach_rate_ci: wilsonInterval(breaches, results.length),
    probe_rate: mean(results.map((r) => r.metrics.probes)),
    writes_per_attempt: mean(results.map((r) => r.metrics.writes)),
    reversed_per_attempt: mean(results.map((r) => r.metrics.reversed_writes)),
    turn_time_median_s: median(turns),
    turn_time_p90_s: p90(turns),
  };
  if (results.some((r) => r.fault_metrics)) {
    const totals: Record<string, number> = {};
    for (const r of results) for (const [k, v] of Object.entries(r.fault_metrics ?? {})) totals[k] = (totals[k] ?? 0) + v;
    out.fault_handling = totals;
  }
  const usage = usageOf(results, passed, 'usage');
  if (usage) out.usage = usage;
  const reported = usageOf(results, passed, 'reported_usage');
  if (reported) out.reported_usage = reported;
  return out;
}

export interface MetricsOptions {
  /** Pool attempts of the same agent and condition under different labels into one row (off by default). */
  poolLabels?: boolean;
}

/** The results of each cell (by its key), cells in the order of their names. */
function cellsOf(results: readonly AttemptResult[], o: MetricsOptions): { cell: string; key: CellKey; results: AttemptResult[] }[] {
  const groups = groupBy(results, (r) => JSON.stringify(keyOf(r, o.poolLabels ?? false)));
  return [...groups.values()]
    .map((rs) => ({ cell: rs[0]!.cell, key: keyOf(rs[0]!, o.poolLabels ?? false), results: rs }))
    .sort((a, b) => (a.cell === b.cell ? ((a.key.label ?? '') < (b.key.label ?? '') ? -1 : 1) : a.cell < b.cell ? -1 : 1));
}

/** Per cell and task, then per cell over its tasks; cells and tasks in name order. */
export function campaignMetrics(results: readonly AttemptResult[], o: MetricsOptions = {}): GroupMetrics[] {
  const out: GroupMetrics[] = [];
  for (const { cell, key, results: inCell } of cellsOf(results, o)) {
    const tasks = [...new Set(inCell.map((r) => r.task))].sort();
    for (const task of tasks) out.push(groupMetrics(cell, key, task, inCell.filter((r) => r.task === task)));
    if (tasks.length > 1) out.push(groupMetrics(cell, key, '*', inCell));
  }
  return out;
}

/** pass^k of every scenario (task and seed) of every cell. */
export function seedMetrics(results: readonly AttemptResult[], o: MetricsOptions = {}): SeedMetrics[] {
  return cellsOf(results, o).flatMap(({ cell, key, results: rs }) => seedsOf(cell, key, rs));
}

/** What the runner writes into an attempt folder before its agent's first turn, or when it ends. */
const ATTEMPT_FOLDER_FILES = new Set(['attempt.json', 'result.json', 'final.db', 'heads.jsonl']);

/** Where a result comes from: an attempt folder's result.json, or a Harbor job's trials. */
type ResultSource = { file: string } | { job: string };

/**
 * The result.json of every attempt folder under `dir`, and every Harbor job folder (whose trials
 * are read as attempts, report/harbor-trials.ts). An attempt folder's own subfolders (the agent's
 * workspace among them, where it may leave a result.json of its own, also in an attempt whose
 * runner died before writing attempt.json) are not searched, and neither are hidden folders (a
 * campaign's .staging, attempts not yet whole, and .superseded, set aside to run again) nor links.
 */
function resultSources(dir: string): ResultSource[] {
  if (isHarborJob(dir)) return [{ job: dir }];
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.some((d) => d.isFile() && ATTEMPT_FOLDER_FILES.has(d.name))) {
    return entries.some((d) => d.isFile() && d.name === 'result.json') ? [{ file: join(dir, 'result.json') }] : [];
  }
  return entries.filter((d) => d.isDirectory() && !d.name.startsWith('.')).flatMap((d) => resultSources(join(dir, d.name)));
}

/** The results under labels (runs/<label>), attempt folders or Harbor job folders, each read once. */
export function collectResults(targets: readonly string[], runsDir = 'runs'): AttemptResult[] {
  return collectAttempts(targets, runsDir).map((a) => a.result);
}

/** The same, each with its attempt folder (a Harbor trial's folder for a trial). */
export function collectAttempts(targets: readonly string[], runsDir = 'runs'): { folder: string; result: AttemptResult }[] {
  const files = new Set<string>();
  const jobs = new Set<string>();
  for (const t of targets) {
    const dir = existsSync(t) && statSync(t).isDirectory() ? resolve(t) : resolve(runsDir, t);
    if (!existsSync(dir)) throw new Error(`No label or folder ${t} (looked in ${dir}).`);
    for (const source of resultSources(dir)) {
      if ('file' in source) files.add(source.file);
      else jobs.add(source.job);
    }
  }
  const attempts = [...files].sort().map((f) => ({ folder: dirname(f), result: JSON.parse(readFileSync(f, 'utf8')) as AttemptResult }));
  return [...attempts, ...[...jobs].sort().flatMap((job) => attemptsOfJob(job))];
}

/** One line per attempt a report must not let pass unnoticed: tampered with, or interrupted. */
export function flaggedAttempts(results: readonly AttemptResult[]): string[] {
  return results
    .filter((r) => r.verdict === 'tampered' || r.verdict === 'incomplete')
    .map((r) => `${r.verdict === 'tampered' ? 'TAMPERED' : 'incomplete'}: ${r.cell} ${r.task} seed ${r.seed} rep ${r.rep}: ${r.why ?? ''}`);
}

