import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { AttemptResult } from '../../grader/result';
import { median, p90 } from '../stats';
import type { GroupMetrics } from '../metrics';
import type { Report } from './build';
import { REPORT_PAGE_SCRIPT } from './html-script';

/** The plotting library and its d3, inlined so that the page draws with no network. */
export function plottingLibraries(): string {
  // Neither package exports its browser build (or its manifest) as a subpath: look where Node looks for packages.
  const file = (pkg: string, path: string) => {
    const found = (require.resolve.paths(pkg) ?? []).map((d) => join(d, pkg, path)).find((f) => existsSync(f));
    if (!found) throw new Error(`The report's plotting library is missing (${pkg}/${path}): run npm ci.`);
    return found;
  };
  return [file('d3', 'dist/d3.min.js'), file('@observablehq/plot', 'dist/plot.umd.min.js')].map((f) => readFileSync(f, 'utf8')).join('\n;\n');
}

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Text safe inside a <script> element. */
export const scriptSafe = (s: string) => s.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

/** A row's name on the plots: its cell, with its label when two labels share the cell. */
function namer(groups: readonly GroupMetrics[]): (g: { cell: string; label: string | null }) => string {
  const labels = new Map<string, Set<string | null>>();
  for (const g of groups) labels.set(g.cell, (labels.get(g.cell) ?? new Set()).add(g.label));
  return (g) => ((labels.get(g.cell)?.size ?? 0) > 1 ? `${g.cell} (${g.label})` : g.cell);
}

/** What the page's plots draw: one entry per mark, so a test can count them. */
export function plotData(report: Report, results: readonly AttemptResult[]) {
  const who = namer(report.groups);
  const perTask = report.groups.filter((g) => g.task !== '*');
  const perCell = report.groups.filter((g) => g.task === '*' || !report.groups.some((o) => o.task === '*' && o.cell === g.cell && o.label === g.label));
  const counted = results.filter((r) => r.verdict !== 'incomplete');
  const rowOf = (r: AttemptResult) => who({ cell: r.cell, label: report.groups.find((g) => g.cell === r.cell && (g.label === null || g.label === r.label))?.label ?? null });
  const turns = counted.flatMap((r) => r.turns.map((t) => ({ who: rowOf(r), task: r.task, seconds: t.duration_s })));
  const byWho = new Map<string, number[]>();
  for (const t of turns) byWho.set(t.who, [...(byWho.get(t.who) ?? []), t.seconds]);
  const turnStats = [...byWho].flatMap(([w, xs]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return [{ who: w, stat: 'median', seconds: median(sorted) }, { who: w, stat: 'p90', seconds: p90(sorted) }];
  });
  return {
    tasks: [...new Set(perTask.map((g) => g.task))].sort(),
    rates: perTask.map((g) => ({
      who: who(g), task: g.task, n: g.attempts, pass: g.pass_at_1, pass_lo: g.pass_at_1_ci?.[0] ?? 0, pass_hi: g.pass_at_1_ci?.[1] ?? 0,
      breach: g.breach_rate, breach_lo: g.breach_rate_ci?.[0] ?? 0, breach_hi: g.breach_rate_ci?.[1] ?? 0,
    })),
    cells: perCell.flatMap((g) => [
      { who: who(g), source: 'measured', pass: g.pass_at_1, cost: g.usage?.cost_usd ?? null, cost_per_accepted: g.usage?.cost_per_accepted_usd ?? null },
      { who: `${who(g)} (self-reported)`, source: 'self-reported', pass: g.pass_at_1, cost: g.reported_usage?.cost_usd ?? null, cost_per_accepted: g.reported_usage?.cost_per_accepted_usd ?? null },
    ]),
    turns,
    turnStats,
    seeds: report.seeds.map((s) => ({
      who: who(s), task: s.task, seed: s.seed, k: s.attempts, passed: s.passed,
      state: s.pass_hat_k === null ? 'no attempt counts' : s.pass_hat_k ? 'passed every time' : 'not every time',
    })),
  };
}

function tableHtml(t: Report['tables'][number]): string {
  const head = t.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = t.texts.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<h2>${escapeHtml(t.title)}</h2>\n<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table></div>`;
}

const FIGURES: [id: string, title: string][] = [
  ['pass-rate', 'Pass rate per task and agent (pass@1, 95% Wilson interval)'],
  ['breach-rate', 'Breach rate per task and agent (95% Wilson interval)'],
  ['cost', 'Model cost per accepted attempt against pass rate'],
  ['turn-time', 'Turn time distribution per agent'],
  ['pass-hat-k', 'pass^k per seed: passed in every attempt of the scenario'],
];

/** One self-contained HTML page: the plots (Observable Plot, inlined), the tables, the flagged attempts and the conventions. */
/**
 * Every cell and task with a link to each of its attempts (the attempt folder's result.json,
 * relative to the page), so that a figure leads to the attempts behind it.
 */
function attemptLinks(report: Report, results: readonly AttemptResult[], attempts: AttemptFolders): string {
  const rows = report.groups.filter((g) => g.task !== '*').map((g) => {
    const mine = results.filter((r) => r.cell === g.cell && r.task === g.task && (g.label === null || r.label === g.label) && attempts.folderOf.has(r));
    const links = mine.map((r) => `<a href="${escapeHtml(join(attempts.relativeTo(attempts.folderOf.get(r)!), 'result.json'))}">seed ${r.seed} rep ${r.rep}: ${escapeHtml(r.verdict)}</a>`).join(' · ');
    return `<tr><td>${escapeHtml(g.cell)}</td><td>${escapeHtml(g.task)}</td><td>${links || '-'}</td></tr>`;
  });
  return `<h2>Attempts, per cell and task</h2>\n<div class="scroll"><table id="attempt-links"><thead><tr><th>cell</th><th>task</th><th>attempts</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}

/** Where each result's attempt folder is, and how the page names a folder (a path relative to it). */
export interface AttemptFolders {
  folderOf: ReadonlyMap<AttemptResult, string>;
  relativeTo: (folder: string) => string;
}

export function reportHtml(report: Report, results: readonly AttemptResult[], title = 'bb-erp campaign report', attempts?: AttemptFolders): string {
  const figures = FIGURES.map(([id, caption]) => `<figure data-plot="${id}"><figcaption>${escapeHtml(caption)}</figcaption><div class="chart"></div></figure>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
figure { margin: 24px 0; } figcaption { font-weight: 600; margin-bottom: 8px; }
table { border-collapse: collapse; font-size: 12px; } th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; white-space: nowrap; }
.scroll { overflow-x: auto; } .flagged { color: #a00; }
</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
<header>${report.header_lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p>${report.attempts} attempts read.</p></header>
${figures}
${report.tables.map(tableHtml).join('\n')}
${attempts ? attemptLinks(report, results, attempts) : ''}
${report.flagged.length ? `<h2>Flagged attempts</h2><ul class="flagged">${report.flagged.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>` : ''}
<h2>Conventions</h2><ul>${report.conventions.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ul>
<script type="application/json" id="report-data">${scriptSafe(JSON.stringify(plotData(report, results)))}</script>
<script>${scriptSafe(plottingLibraries())}</script>
<script>${scriptSafe(REPORT_PAGE_SCRIPT)}</script>
</body></html>
`;
}

export function writeHtml(report: Report, results: readonly AttemptResult[], file: string, folderOf?: ReadonlyMap<AttemptResult, string>): void {
  mkdirSync(dirname(file), { recursive: true });
  const page = dirname(resolve(file));
  writeFileSync(file, reportHtml(report, results, undefined, folderOf ? { folderOf, relativeTo: (folder) => relative(page, folder) || '.' } : undefined));
}
