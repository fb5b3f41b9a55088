import { formatTable } from '../table';
import type { GroupMetrics, SeedMetrics } from '../metrics';
import type { FailingCheck, PairedDifference, PassHatCurve } from './analysis';

/** A column: its heading, its raw value (CSV, JSON) and its text (the terminal and Markdown tables). */
interface Column<T> {
  name: string;
  value: (row: T) => string | number | null;
  text?: (row: T) => string;
  /** A column of one kind of table alone: CSV keeps an interval's two ends apart, text shows them together. */
  only?: 'csv' | 'text';
}

/** One table of the report, the same in every format. */
export interface ReportTable {
  title: string;
  /** The text and Markdown columns. */
  header: string[];
  csvHeader: string[];
  /** Raw values, for CSV. */
  values: (string | number | null)[][];
  /** Formatted, for text and Markdown. */
  texts: string[][];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (x: number | null, places = 1) => (x === null ? '-' : x.toFixed(places));
const interval = (ci: [number, number] | null) => (ci === null ? '-' : `${pct(ci[0])}–${pct(ci[1])}`);
const round = (x: number | null, places = 4) => (x === null ? null : Number(x.toFixed(places)));

function table<T>(title: string, columns: readonly Column<T>[], rows: readonly T[]): ReportTable {
  const csv = columns.filter((c) => c.only !== 'text');
  const text = columns.filter((c) => c.only !== 'csv');
  return {
    title,
    header: text.map((c) => c.name),
    csvHeader: csv.map((c) => c.name),
    values: rows.map((r) => csv.map((c) => c.value(r))),
    texts: rows.map((r) => text.map((c) => (c.text ? c.text(r) : String(c.value(r) ?? '-')))),
  };
}

const who: Column<GroupMetrics | SeedMetrics>[] = [
  { name: 'cell', value: (m) => m.cell },
  { name: 'agent', value: (m) => m.agent_name },
  { name: 'model', value: (m) => m.model },
  { name: 'interface', value: (m) => m.interface },
  { name: 'tools', value: (m) => m.tools },
  { name: 'condition', value: (m) => m.condition },
  { name: 'label', value: (m) => m.label },
];

/** The summary's columns; `nullRates`, the null agent's check rate per task, goes beside each cell's own. */
const summaryColumns = (nullRates: ReadonlyMap<string, number>): Column<GroupMetrics>[] => [
  ...who,
  { name: 'task', value: (m) => m.task },
  { name: 'n', value: (m) => m.attempts },
  { name: 'pass@1', value: (m) => round(m.pass_at_1), text: (m) => pct(m.pass_at_1) },
  { name: 'pass@1 95% CI', value: () => null, text: (m) => interval(m.pass_at_1_ci), only: 'text' },
  { name: 'pass@1 ci low', value: (m) => round(m.pass_at_1_ci?.[0] ?? null), only: 'csv' },
  { name: 'pass@1 ci high', value: (m) => round(m.pass_at_1_ci?.[1] ?? null), only: 'csv' },
  { name: 'pass^k', value: (m) => round(m.pass_hat_k), text: (m) => `${pct(m.pass_hat_k)} (${m.scenarios_passed_every_time}/${m.scenarios})` },
  { name: 'k', value: (m) => m.k, text: (m) => (m.k === m.k_max ? String(m.k) : `${m.k}-${m.k_max}`) },
  { name: 'checks', value: (m) => round(m.check_rate), text: (m) => pct(m.check_rate) },
  { name: 'null checks', value: (m) => round(nullRates.get(m.task) ?? null), text: (m) => (nullRates.has(m.task) ? pct(nullRates.get(m.task)!) : '-') },
  { name: 'breaches', value: (m) => round(m.breach_rate), text: (m) => pct(m.breach_rate) },
  { name: 'breaches ci low', value: (m) => round(m.breach_rate_ci?.[0] ?? null), only: 'csv' },
  { name: 'breaches ci high', value: (m) => round(m.breach_rate_ci?.[1] ?? null), only: 'csv' },
  { name: 'probes/att', value: (m) => round(m.probe_rate), text: (m) => num(m.probe_rate) },
  { name: 'writes/att', value: (m) => round(m.writes_per_attempt), text: (m) => num(m.writes_per_attempt) },
  { name: 'reversed/att', value: (m) => round(m.reversed_per_attempt), text: (m) => num(m.reversed_per_attempt) },
  { name: 'turn p50 s', value: (m) => round(m.turn_time_median_s, 3), text: (m) => num(m.turn_time_median_s) },
  { name: 'turn p90 s', value: (m) => round(m.turn_time_p90_s, 3), text: (m) => num(m.turn_time_p90_s) },
  { name: 'errors', value: (m) => m.errors },
  { name: 'tampered', value: (m) => m.tampered },
  { name: 'incomplete', value: (m) => m.incomplete },
  { name: 'provider errors', value: (m) => m.provider_errors },
];

const seedColumns: Column<SeedMetrics>[] = [
  ...who,
  { name: 'task', value: (m) => m.task },
  { name: 'seed', value: (m) => m.seed },
  { name: 'k', value: (m) => m.attempts },
  { name: 'passed', value: (m) => m.passed },
  { name: 'pass^k', value: (m) => (m.pass_hat_k === null ? null : m.pass_hat_k ? 1 : 0), text: (m) => (m.pass_hat_k === null ? '-' : m.pass_hat_k ? 'yes' : 'no') },
  { name: 'errors', value: (m) => m.errors },
  { name: 'incomplete', value: (m) => m.incomplete },
  { name: 'provider errors', value: (m) => m.provider_errors },
];

const FAULT_FIGURES = ['faults_injected', 'writes_committed_behind_failure', 'faulted_requests_resent', 'resent_with_same_key', 'duplicates_found'];
const faultColumns: Column<GroupMetrics>[] = [
  { name: 'cell', value: (m) => m.cell },
  { name: 'label', value: (m) => m.label },
  { name: 'task', value: (m) => m.task },
  { name: 'n', value: (m) => m.attempts },
  ...FAULT_FIGURES.map((f): Column<GroupMetrics> => ({ name: f.replace(/_/g, ' '), value: (m) => m.fault_handling?.[f] ?? 0 })),
];

const usageColumns = (source: 'usage' | 'reported_usage'): Column<GroupMetrics>[] => [
  { name: 'cell', value: (m) => m.cell },
  { name: 'label', value: (m) => m.label },
  { name: 'task', value: (m) => m.task },
  { name: 'n', value: (m) => m.attempts },
  { name: 'with usage', value: (m) => m[source]!.attempts_with_usage },
  { name: 'tokens in', value: (m) => m[source]!.input_tokens },
  { name: 'tokens out', value: (m) => m[source]!.output_tokens },
  { name: 'cost usd', value: (m) => round(m[source]!.cost_usd), text: (m) => num(m[source]!.cost_usd, 4) },
  { name: 'cost/attempt usd', value: (m) => perAttempt(m, m[source]!.cost_usd), text: (m) => num(perAttempt(m, m[source]!.cost_usd), 4) },
  { name: 'tokens/attempt', value: (m) => perAttempt(m, m[source]!.input_tokens + m[source]!.output_tokens), text: (m) => num(perAttempt(m, m[source]!.input_tokens + m[source]!.output_tokens), 0) },
  { name: 'cost/pass usd', value: (m) => round(m[source]!.cost_per_accepted_usd), text: (m) => (m.passed === 0 ? NO_PASS : num(m[source]!.cost_per_accepted_usd, 4)) },
  { name: 'tokens/pass', value: (m) => round(m[source]!.tokens_per_accepted, 1), text: (m) => (m.passed === 0 ? NO_PASS : num(m[source]!.tokens_per_accepted, 0)) },
];

/** Per pass is a division by the passes: with none it has no value, which the report says rather than showing a blank. */
const NO_PASS = 'undefined: no pass';
const perAttempt = (m: GroupMetrics, total: number | null) => (total === null || m.attempts === 0 ? null : round(total / m.attempts, 4));

const failingColumns: Column<FailingCheck>[] = [
  { name: 'task', value: (f) => f.task },
  { name: 'check', value: (f) => f.check },
  { name: 'cites', value: (f) => f.cites.join(' ') },
  { name: 'failed', value: (f) => f.failed },
  { name: 'of graded', value: (f) => f.attempts },
  { name: 'fail rate', value: (f) => round(f.failed / f.attempts), text: (f) => pct(f.failed / f.attempts) },
];

const curveColumns = (K: number): Column<PassHatCurve>[] => [
  { name: 'cell', value: (c) => c.cell },
  { name: 'task', value: (c) => c.task },
  { name: 'scenarios', value: (c) => c.scenarios },
  ...Array.from({ length: K }, (_, i): Column<PassHatCurve> => ({ name: `pass^${i + 1}`, value: (c) => round(c.curve[i] ?? null), text: (c) => (c.curve[i] === undefined ? '-' : pct(c.curve[i]!)) })),
];

const signed = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`;
const pairColumns: Column<PairedDifference>[] = [
  { name: 'a', value: (d) => d.a },
  { name: 'b', value: (d) => d.b },
  { name: 'task', value: (d) => d.task },
  { name: 'scenarios', value: (d) => d.scenarios },
  { name: 'a − b', value: (d) => round(d.difference), text: (d) => signed(d.difference) },
  { name: '95% CI', value: () => null, text: (d) => (d.ci ? `${signed(d.ci[0])} to ${signed(d.ci[1])}` : '- (one scenario)'), only: 'text' },
  { name: 'ci low', value: (d) => round(d.ci?.[0] ?? null), only: 'csv' },
  { name: 'ci high', value: (d) => round(d.ci?.[1] ?? null), only: 'csv' },
];

/** What the report adds to the per-cell figures: see ./analysis. */
export interface ReportAnalyses {
  failing: readonly FailingCheck[];
  curves: readonly PassHatCurve[];
  pairs: readonly PairedDifference[];
  nullRates: ReadonlyMap<string, number>;
}

/** The report's tables: the summary per cell and task, pass^k per seed, fault handling and usage when there are any. */
export function reportTables(groups: readonly GroupMetrics[], seeds: readonly SeedMetrics[], analyses: ReportAnalyses = { failing: [], curves: [], pairs: [], nullRates: new Map() }): ReportTable[] {
  const out = [table('Per cell and task', summaryColumns(analyses.nullRates), groups), table('pass^k per seed', seedColumns, seeds)];
  const K = Math.max(0, ...analyses.curves.map((c) => c.curve.length));
  if (K > 0) out.push(table('pass^k for k = 1 to K (per scenario C(passed, k) / C(attempts, k), averaged)', curveColumns(K), analyses.curves));
  if (analyses.failing.length) out.push(table('Checks that fail most, per task', failingColumns, analyses.failing));
  if (analyses.pairs.length) out.push(table('Paired difference in pass rate between cells on the same scenarios', pairColumns, analyses.pairs));
  const faulted = groups.filter((g) => g.fault_handling);
  if (faulted.length) out.push(table('Fault handling (seed 000 §7.1)', faultColumns, faulted));
  const measured = groups.filter((g) => g.usage);
  if (measured.length) out.push(table('Model usage (measured: the reference agent\'s model calls, counted by the runner)', usageColumns('usage'), measured));
  const reported = groups.filter((g) => g.reported_usage);
  if (reported.length) out.push(table('Model usage self-reported (what cmd: agents printed about themselves, not measured)', usageColumns('reported_usage'), reported));
  return out;
}

/** The columns a terminal table leaves out when every row has the same value (the cell already says who). */
const TEXT_OMITS = new Set(['agent', 'model', 'interface', 'tools', 'condition']);

export function textReport(tables: readonly ReportTable[]): string {
  return tables.map((t) => {
    const keep = t.header.map((h, i) => !TEXT_OMITS.has(h) && !(h === 'label' && t.texts.every((r) => r[i] === '-'))).map((k, i) => (k ? i : -1)).filter((i) => i >= 0);
    return `${t.title}\n${formatTable(keep.map((i) => t.header[i]!), t.texts.map((r) => keep.map((i) => r[i]!)))}`;
  }).join('\n');
}

const mdCell = (s: string) => s.replace(/\|/g, '\\|');

export function markdownReport(tables: readonly ReportTable[], notes: readonly string[], header: readonly string[] = []): string {
  const parts = tables.map((t) => [`## ${t.title}`, '', `| ${t.header.map(mdCell).join(' | ')} |`, `| ${t.header.map(() => '---').join(' | ')} |`, ...t.texts.map((r) => `| ${r.map(mdCell).join(' | ')} |`), ''].join('\n'));
  return ['# Campaign report', '', ...header.map((h) => `${h}  `), ...(header.length ? [''] : []), ...parts, '## Conventions', '', ...notes.map((n) => `- ${n}`), ''].join('\n');
}

const csvField = (v: string | number | null) => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One CSV per table, named by `fileName(title)`. */
export function csvTables(tables: readonly ReportTable[]): { name: string; text: string }[] {
  return tables.map((t) => ({
    name: t.title.toLowerCase().replace(/\(.*?\)/g, '').replace(/\^/g, '-hat-').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') + '.csv',
    text: [t.csvHeader, ...t.values].map((r) => r.map(csvField).join(',')).join('\n') + '\n',
  }));
}
