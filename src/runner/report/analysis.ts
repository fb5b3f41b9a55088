import type { AttemptResult } from '../../grader/result';
import { groupBy, isCounted } from '../metrics';

/**
 * What a reader asks of a campaign after its pass rates: which checks fail, how reliability falls
 * with k, whether one agent is better than another on the same scenarios, and how the check rate
 * compares with an agent that does nothing. Interrupted attempts count nowhere, as in every rate.
 */

const counted = (results: readonly AttemptResult[]) => results.filter(isCounted);
const scenarioOf = (r: AttemptResult) => `${r.task}\0${r.seed}`;

const byName = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export interface FailingCheck {
  task: string;
  check: string;
  cites: string[];
  /** Graded attempts of the task that ran the check, and how many it failed. */
  attempts: number;
  failed: number;
}

/** Per task, its checks by how often graded attempts failed them (most first), those that never failed left out. */
export function failingChecks(results: readonly AttemptResult[], perTask = 5): FailingCheck[] {
  const out: FailingCheck[] = [];
  for (const [task, rs] of byName(groupBy(counted(results).filter((r) => r.checks.length > 0), (r) => r.task))) {
    const tally = new Map<string, FailingCheck>();
    for (const r of rs) {
      for (const c of r.checks) {
        const t = tally.get(c.id) ?? { task, check: c.id, cites: c.cites, attempts: 0, failed: 0 };
        t.attempts++;
        if (!c.passed) t.failed++;
        tally.set(c.id, t);
      }
    }
    out.push(...[...tally.values()].filter((t) => t.failed > 0).sort((a, b) => b.failed / b.attempts - a.failed / a.attempts || (a.check < b.check ? -1 : 1)).slice(0, perTask));
  }
  return out;
}

/** C(n, k) as a float; exact enough for the attempt counts of a campaign. */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

export interface PassHatCurve {
  cell: string;
  task: string;
  scenarios: number;
  /** pass^k for k = 1 … K, K the fewest counted attempts of any of its scenarios. */
  curve: number[];
}

/**
 * pass^k for every k up to the fewest attempts of a scenario: per scenario the chance that k
 * attempts drawn from its n all pass, C(c, k) / C(n, k) with c of them passed, averaged over the
 * scenarios. pass^1 is pass@1 weighted by scenario.
 */
export function passHatCurves(results: readonly AttemptResult[]): PassHatCurve[] {
  const out: PassHatCurve[] = [];
  for (const [, rs] of byName(groupBy(counted(results), (r) => `${r.cell}\0${r.label}\0${r.task}`))) {
    const scenarios = [...groupBy(rs, scenarioOf).values()].map((s) => ({ n: s.length, c: s.filter((r) => r.passed).length }));
    const K = Math.min(...scenarios.map((s) => s.n));
    const curve = Array.from({ length: K }, (_, i) => scenarios.reduce((a, s) => a + choose(s.c, i + 1) / choose(s.n, i + 1), 0) / scenarios.length);
    out.push({ cell: rs[0]!.cell, task: rs[0]!.task, scenarios: scenarios.length, curve });
  }
  return out;
}

export interface PairedDifference {
  a: string;
  b: string;
  task: string;
  /** Scenarios (task and seed) both cells attempted. */
  scenarios: number;
  /** Mean over those scenarios of (a's pass rate − b's pass rate) on the scenario. */
  difference: number;
  /** 95% interval of the mean difference (normal, standard error over scenarios); null under two scenarios. */
  ci: [number, number] | null;
}

/**
 * Every pair of cells on the scenarios both attempted, per task and over all tasks: the mean of the
 * per-scenario differences of their pass rates, with its interval. Pairing on the scenario takes
 * out how hard each scenario is, which two unpaired pass rates leave in.
 */
export function pairedDifferences(results: readonly AttemptResult[]): PairedDifference[] {
  const rate = new Map<string, Map<string, number>>();
  for (const [, rs] of groupBy(counted(results), (r) => `${r.cell}\0${scenarioOf(r)}`)) {
    const per = rate.get(rs[0]!.cell) ?? new Map<string, number>();
    per.set(scenarioOf(rs[0]!), rs.filter((r) => r.passed).length / rs.length);
    rate.set(rs[0]!.cell, per);
  }
  const cells = [...rate.keys()].sort();
  const out: PairedDifference[] = [];
  for (let i = 0; i < cells.length; i++) {
    for (let j = i + 1; j < cells.length; j++) {
      const [a, b] = [rate.get(cells[i]!)!, rate.get(cells[j]!)!];
      const shared = [...a.keys()].filter((s) => b.has(s)).sort();
      const tasks = [...new Set(shared.map((s) => s.split('\0')[0]!))].sort();
      for (const task of [...tasks, ...(tasks.length > 1 ? ['*'] : [])]) {
        const ds = shared.filter((s) => task === '*' || s.split('\0')[0] === task).map((s) => a.get(s)! - b.get(s)!);
        const mean = ds.reduce((x, y) => x + y, 0) / ds.length;
        const sd = ds.length > 1 ? Math.sqrt(ds.reduce((x, d) => x + (d - mean) ** 2, 0) / (ds.length - 1)) : 0;
        const half = 1.96 * sd / Math.sqrt(ds.length);
        out.push({ a: cells[i]!, b: cells[j]!, task, scenarios: ds.length, difference: mean, ci: ds.length > 1 ? [Math.max(-1, mean - half), Math.min(1, mean + half)] : null });
      }
    }
  }
  return out;
}

/** The cells that play the null agent (does nothing), whose check rate is the floor partial credit starts from. */
export const isNullAgent = (r: AttemptResult) => r.agent === 'null';

/** Per task, the check rate (required checks passed / run) of the null agent's graded attempts; absent where none ran. */
export function nullCheckRates(results: readonly AttemptResult[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [task, rs] of groupBy(counted(results).filter(isNullAgent), (r) => r.task)) {
    const total = rs.reduce((a, r) => a + r.required_checks.total, 0);
    if (total > 0) out.set(task, rs.reduce((a, r) => a + r.required_checks.passed, 0) / total);
  }
  if (out.size > 0) {
    const all = counted(results).filter(isNullAgent);
    const total = all.reduce((a, r) => a + r.required_checks.total, 0);
    out.set('*', all.reduce((a, r) => a + r.required_checks.passed, 0) / total);
  }
  return out;
}

export interface ReportHeader {
  tasks: string[];
  seeds: number[];
  cells: string[];
  agents: string[];
  models: string[];
  interfaces: string[];
  conditions: string[];
  /** The first and last time an attempt was graded (wall time), or null with none. */
  graded: [string, string] | null;
  /** The task packs' hashes the attempts ran (a pack edited between attempts shows as two). */
  pack_hashes: string[];
}

const sorted = <T>(xs: Iterable<T>) => [...new Set(xs)].sort();

/** What the report covers, named at its top. */
export function reportHeader(results: readonly AttemptResult[]): ReportHeader {
  const graded = results.map((r) => r.graded_at_wall).filter(Boolean).sort();
  return {
    tasks: sorted(results.map((r) => r.task)),
    seeds: [...new Set(results.map((r) => r.seed))].sort((a, b) => a - b),
    cells: sorted(results.map((r) => r.cell)),
    agents: sorted(results.map((r) => r.agent_name ?? r.agent)),
    models: sorted(results.map((r) => r.model ?? 'none')),
    interfaces: sorted(results.map((r) => r.interface ?? 'http')),
    conditions: sorted(results.map((r) => r.condition)),
    graded: graded.length ? [graded[0]!, graded[graded.length - 1]!] : null,
    pack_hashes: sorted(results.map((r) => r.pack_hash.slice(0, 12))),
  };
}

/** The header as lines of text, for every format. */
export function headerLines(h: ReportHeader, codeVersion: string, generated: string): string[] {
  return [
    `bb-erp ${codeVersion}, report written ${generated}${h.graded ? `; attempts graded ${h.graded[0]} to ${h.graded[1]}` : ''}`,
    `tasks: ${h.tasks.join(', ')}; seeds: ${h.seeds.join(', ')}`,
    `agents: ${h.agents.join(', ')}; models: ${h.models.join(', ')}; interfaces: ${h.interfaces.join(', ')}; conditions: ${h.conditions.join(', ')}`,
    `task pack hashes: ${h.pack_hashes.join(', ')}`,
  ];
}
