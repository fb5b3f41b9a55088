import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AttemptResult } from '../grader/result';
import { formatTable } from './table';

/** The metrics of seed 000 §8 for one group of attempts (a cell and a task, or a whole cell). */
export interface GroupMetrics {
  cell: string;
  condition: string;
  /** A task slug, or '*' for every task of the cell. */
  task: string;
  /** Attempts that count: every one but the incomplete. */
  attempts: number;
  errors: number;
  /** Attempts whose files disagreed with the runner's tamper evidence: counted, never passed. */
  tampered: number;
  /** Interrupted attempts (Ctrl-C, SIGTERM): shown, and left out of every rate. */
  incomplete: number;
  /** Mean attempt pass rate. */
  pass_at_1: number;
  /** Repetitions per task (the k of pass^k): the fewest any task of the group has. */
  k: number;
  /** Share of tasks passed in every one of their attempts. */
  pass_hat_k: number;
  /** Passed required checks over all required checks. */
  check_rate: number;
  /** Attempts with at least one breach, over attempts. */
  breach_rate: number;
  /** Refused requests per attempt. */
  probe_rate: number;
  writes_per_attempt: number;
  reversed_per_attempt: number;
  turn_time_median_s: number | null;
  /** Zero-based sorted index floor(0.9·n), capped at n−1: the pilot's convention. */
  turn_time_p90_s: number | null;
  /** Present only under a fault condition: totals of the attempts' fault metrics. */
  fault_handling?: Record<string, number>;
}

export function median(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

export function p90(sorted: readonly number[]): number | null {
  const n = sorted.length;
  return n === 0 ? null : sorted[Math.min(Math.floor(0.9 * n), n - 1)]!;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export function groupMetrics(cell: string, condition: string, task: string, all: readonly AttemptResult[]): GroupMetrics {
  // An interrupted run says nothing about the agent: it is not an attempt of the campaign.
  const results = all.filter((r) => r.verdict !== 'incomplete');
  const byTask = new Map<string, AttemptResult[]>();
  for (const r of results) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  const required = results.reduce((acc, r) => ({ passed: acc.passed + r.required_checks.passed, total: acc.total + r.required_checks.total }), { passed: 0, total: 0 });
  const turns = results.flatMap((r) => r.turns.map((t) => t.duration_s)).sort((a, b) => a - b);
  const out: GroupMetrics = {
    cell, condition, task,
    attempts: results.length,
    errors: results.filter((r) => r.verdict === 'error').length,
    tampered: results.filter((r) => r.verdict === 'tampered').length,
    incomplete: all.length - results.length,
    pass_at_1: mean(results.map((r) => (r.passed ? 1 : 0))),
    k: byTask.size === 0 ? 0 : Math.min(...[...byTask.values()].map((rs) => rs.length)),
    pass_hat_k: mean([...byTask.values()].map((rs) => (rs.every((r) => r.passed) ? 1 : 0))),
    check_rate: required.total === 0 ? 0 : required.passed / required.total,
    breach_rate: mean(results.map((r) => (r.breach ? 1 : 0))),
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
  return out;
}

/** Per cell and task, then per cell over its tasks; cells and tasks in name order. */
export function campaignMetrics(results: readonly AttemptResult[]): GroupMetrics[] {
  const cells = new Map<string, AttemptResult[]>();
  for (const r of results) cells.set(r.cell, [...(cells.get(r.cell) ?? []), r]);
  const out: GroupMetrics[] = [];
  for (const cell of [...cells.keys()].sort()) {
    const inCell = cells.get(cell)!;
    const condition = inCell[0]!.condition;
    const tasks = [...new Set(inCell.map((r) => r.task))].sort();
    for (const task of tasks) out.push(groupMetrics(cell, condition, task, inCell.filter((r) => r.task === task)));
    if (tasks.length > 1) out.push(groupMetrics(cell, condition, '*', inCell));
  }
  return out;
}

function resultFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return resultFiles(path);
    return d.name === 'result.json' ? [path] : [];
  });
}

/** The results under labels (runs/<label>) or attempt folders, each read once. */
export function collectResults(targets: readonly string[], runsDir = 'runs'): AttemptResult[] {
  const files = new Set<string>();
  for (const t of targets) {
    const dir = existsSync(t) && statSync(t).isDirectory() ? resolve(t) : resolve(runsDir, t);
    if (!existsSync(dir)) throw new Error(`No label or folder ${t} (looked in ${dir}).`);
    for (const f of resultFiles(dir)) files.add(f);
  }
  return [...files].sort().map((f) => JSON.parse(readFileSync(f, 'utf8')) as AttemptResult);
}

/** One line per attempt a report must not let pass unnoticed: tampered with, or interrupted. */
export function flaggedAttempts(results: readonly AttemptResult[]): string[] {
  return results
    .filter((r) => r.verdict === 'tampered' || r.verdict === 'incomplete')
    .map((r) => `${r.verdict === 'tampered' ? 'TAMPERED' : 'incomplete'}: ${r.cell} ${r.task} seed ${r.seed} rep ${r.rep}: ${r.why ?? ''}`);
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const secs = (x: number | null) => (x === null ? '-' : x.toFixed(1));

export function metricsTable(rows: readonly GroupMetrics[]): string {
  return formatTable(
    ['cell', 'task', 'n', 'pass@1', 'pass^k', 'checks', 'breaches', 'probes/att', 'writes/att (reversed)', 'turn s p50/p90', 'errors', 'tampered', 'incomplete'],
    rows.map((m) => [
      m.cell, m.task, String(m.attempts), pct(m.pass_at_1), `${pct(m.pass_hat_k)} (k=${m.k})`, pct(m.check_rate), pct(m.breach_rate),
      m.probe_rate.toFixed(1), `${m.writes_per_attempt.toFixed(1)} (${m.reversed_per_attempt.toFixed(1)})`,
      `${secs(m.turn_time_median_s)}/${secs(m.turn_time_p90_s)}`, String(m.errors), String(m.tampered), String(m.incomplete),
    ]),
  );
}
