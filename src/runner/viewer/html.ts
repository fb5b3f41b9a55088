import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ModelUsage } from '../../agents/llm/usage';
import { usageBySource } from '../../grader/attempt-record';
import type { Table } from '../../grader/csv';
import type { AttemptResult } from '../../grader/result';
import { escapeHtml as h, plottingLibraries, scriptSafe } from '../report/html';
import type { AttemptView, TurnView } from './attempt-view';
import type { ConversationEntry, ConversationView } from './conversation';
import type { KeyedWrite } from './stream-diff';

function table(t: Table | null, empty = 'none'): string {
  if (!t) return `<p class="none">${empty}</p>`;
  const head = t.columns.map((c) => `<th>${h(c)}</th>`).join('');
  const rows = t.rows.map((r) => `<tr>${t.columns.map((c) => `<td>${h(r[c] ?? '')}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

const kv = (o: Record<string, string> | undefined) => (o ? h(Object.entries(o).map(([k, v]) => `${k}=${v}`).join(', ')) : '');
const eventLinks = (ids: readonly number[]) => ids.map((id) => `<a href="#ev-${id}">${id}</a>`).join(' ');

function checksHtml(v: AttemptView): string {
  return v.checks.map((c) => {
    const differing = c.differing?.length
      ? `<table class="differing"><thead><tr><th>kind</th><th>key</th><th>agent</th><th>reference</th><th>columns</th><th>events behind it</th></tr></thead><tbody>${c.differing.map((d) => `<tr><td>${d.kind}</td><td>${kv(d.key)}</td><td>${kv(d.agent)}</td><td>${kv(d.expected)}</td><td>${h((d.columns ?? []).join(', '))}</td><td>${eventLinks(d.event_ids)}</td></tr>`).join('')}</tbody></table>`
      : '';
    const findings = c.findings?.length ? `<ul>${c.findings.map((f) => `<li>${h(JSON.stringify(f))}</li>`).join('')}</ul>` : '';
    return `<div class="check ${c.passed ? 'pass' : 'fail'}" data-check="${h(c.id)}"><h3>${c.passed ? 'PASS' : 'FAIL'} ${h(c.id)} <small>${h(c.type)}${c.required ? '' : ' (optional)'}${c.breach ? ' BREACH' : ''} · cites ${h(c.cites.join(', '))}</small></h3><p>${h(c.detail)}</p>${differing}${findings}</div>`;
  }).join('\n');
}

function callsHtml(v: AttemptView): string {
  const rows = v.calls.map((c) => `<tr id="ev-${c.seq}" class="${c.probe ? 'probe' : ''}"><td>${c.seq}</td><td>${c.turn ?? ''}</td><td>${c.businessDate}</td><td>${h(c.actor)}</td><td>${c.kind}</td><td>${h(c.method)} ${h(c.path)}</td><td>${h(c.action)}</td><td>${c.outcome}${c.errorCode ? ` (${h(c.errorCode)})` : ''}</td><td>${c.probe ? 'probe' : ''}</td></tr>`).join('\n');
  return `<table class="calls"><thead><tr><th>event</th><th>turn</th><th>date</th><th>actor</th><th>kind</th><th>request</th><th>action</th><th>outcome</th><th></th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

function diffHtml(v: AttemptView): string {
  if (!v.diff) return '<p class="none">The scenario has no oracle stream (reference/events.jsonl).</p>';
  const list = (ws: readonly KeyedWrite[]) =>
    ws.length ? `<ul>${ws.map((w) => `<li><a href="#ev-${w.seq}">${w.seq}</a> ${h(w.actor)}: <code>${h(w.key)}</code></li>`).join('')}</ul>` : '<p class="none">none</p>';
  return `<p>${v.diff.both.length} business keys written by both.</p><h3>Only in the attempt</h3><div data-diff="attempt">${list(v.diff.onlyAttempt)}</div><h3>Only in the oracle's run</h3><div data-diff="oracle">${v.diff.onlyOracle.length ? `<ul>${v.diff.onlyOracle.map((w) => `<li>oracle event ${w.seq} ${h(w.actor)}: <code>${h(w.key)}</code></li>`).join('')}</ul>` : '<p class="none">none</p>'}</div>`;
}

const VIEWER_SCRIPT = String.raw`
(function () {
  const data = JSON.parse(document.getElementById('viewer-data').textContent);
  const chart = document.querySelector('figure[data-plot="calls"] .chart');
  chart.append(Plot.plot({
    width: Math.min(960, document.body.clientWidth - 32), marginLeft: 140, height: 80 + new Set(data.calls.map((c) => c.actor)).size * 30,
    x: { label: 'event' }, y: { label: null }, color: { legend: true },
    marks: [Plot.dot(data.calls, { x: 'seq', y: 'actor', fill: (c) => (c.probe ? 'probe' : c.kind + ' ' + c.outcome), r: 3, title: (c) => c.seq + ' ' + c.method + ' ' + c.path + ' ' + c.outcome })],
  }));
  const states = data.states;
  const slider = document.getElementById('tt-event');
  const pick = document.getElementById('tt-table');
  const out = document.getElementById('tt-view');
  const label = document.getElementById('tt-label');
  const seqs = data.calls.map((c) => c.seq);
  slider.min = 0; slider.max = seqs.length; slider.value = seqs.length;
  function render() {
    const i = Number(slider.value);
    const seq = i === 0 ? data.startSeq : seqs[i - 1];
    const state = states.filter((s) => s.seq <= seq).pop();
    const t = state.tables[pick.value];
    label.textContent = i === 0 ? 'the start state (event ' + data.startSeq + ')' : 'after event ' + seq + ' (' + data.calls[i - 1].method + ' ' + data.calls[i - 1].path + ')';
    out.replaceChildren();
    const tbl = document.createElement('table');
    const head = tbl.createTHead().insertRow();
    for (const c of t.columns) head.insertCell().outerHTML = '<th>' + c.replace(/[&<>]/g, (x) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' }[x])) + '</th>';
    const body = tbl.createTBody();
    for (const r of t.rows) { const row = body.insertRow(); for (const c of t.columns) row.insertCell().textContent = r[c]; }
    out.append(tbl);
    out.dataset.rows = String(t.rows.length);
    out.dataset.seq = String(seq);
  }
  slider.addEventListener('input', render);
  pick.addEventListener('change', render);
  render();
  document.body.dataset.rendered = 'yes';
})();
`;

/** The attempt's model usage, each source labelled: measured by the runner, or the agent's word about itself. */
function usageHtml(r: AttemptResult): string {
  const line = (u: ModelUsage) => `${u.model_calls} model calls · ${u.tokens_in} tokens in · ${u.tokens_out} out · ${u.cost_usd === null ? 'no price' : `$${u.cost_usd.toFixed(4)}`}`;
  const { usage, reported_usage: reported } = usageBySource(r);
  return [
    usage ? `<p class="usage" data-source="measured">Model usage, measured (the reference agent's model calls, counted by the runner): ${line(usage)}</p>` : '',
    reported ? `<p class="usage" data-source="self-reported">Model usage, self-reported (what the agent printed about itself, not measured): ${line(reported)}</p>` : '',
  ].join('');
}

function entryHtml(e: ConversationEntry): string {
  if (e.kind === 'retry') return `<p class="retry" data-retry="${e.retry}">Provider failure at step ${e.step}: ${e.status === null ? 'no connection' : `HTTP ${e.status}`}: ${h(e.message)} · retry ${e.retry} after ${e.waitMs} ms</p>`;
  if (e.kind === 'end') {
    const error = e.error ? `: ${e.error.status === null ? '' : `HTTP ${e.error.status}: `}${h(e.error.message)}` : '';
    return `<p class="end ${e.reason === 'provider_error' ? 'provider-error' : ''}" data-reason="${h(e.reason)}">Turn ended: ${h(e.reason.replace('_', ' '))} after ${e.steps} model call${e.steps === 1 ? '' : 's'}${error}</p>`;
  }
  const tokens = `${e.tokensIn} tokens in${e.tokensCached === null ? '' : ` (${e.tokensCached} cached)`} · ${e.tokensOut} out · ${e.costUsd === null ? 'no price' : `$${e.costUsd.toFixed(6)}`}`;
  const tools = e.tools.map((t) => {
    const args = JSON.stringify(t.arguments, null, 2);
    const brief = JSON.stringify(t.arguments) ?? '';
    return `<details class="tool-call${t.isError ? ' error' : ''}" data-tool="${h(t.name)}"><summary><code>${h(t.name)}(${h(brief.length > 80 ? `${brief.slice(0, 79)}…` : brief)})</code> ${t.isError ? '→ error' : '→ ok'}</summary><h5>Arguments</h5><pre>${h(args ?? '')}</pre><h5>Result</h5><pre class="tool-result">${h(t.result)}</pre></details>`;
  }).join('');
  return `<div class="model-call" data-step="${e.step}"><p class="meta">Model call ${e.step} · ${h(e.model)} · ${tokens}${e.finish ? ` · ${h(e.finish)}` : ''}</p>${e.text ? `<div class="model-text">${h(e.text)}</div>` : ''}${tools}</div>`;
}

function conversationHtml(c: ConversationView): string {
  const system = c.system === null ? '' : `<details class="system-message"><summary>System message${c.api ? ` (${h(c.api)} API)` : ''}, ${c.system.length} characters</summary><pre>${h(c.system)}</pre></details>`;
  return `<div class="conversation">${system}${c.entries.map(entryHtml).join('')}</div>`;
}

function turnHtml(t: TurnView): string {
  const output = t.conversation
    ? `<h4>Conversation</h4>${conversationHtml(t.conversation)}<details class="raw"><summary>Transcript as written (JSON lines)</summary><pre>${h(t.stdout)}</pre></details>`
    : `<h4>Agent output</h4><pre>${h(t.stdout) || '<span class="none">(nothing on stdout)</span>'}</pre>`;
  return `<details class="turn" data-turn="${t.index}" open><summary>Turn ${t.index} · ${t.date} · ${t.exit} after ${t.duration_s.toFixed(1)} s</summary><h4>Prompt</h4><pre>${h(t.prompt)}</pre>${output}${t.stderr ? `<h4>stderr</h4><pre>${h(t.stderr)}</pre>` : ''}</details>`;
}

/** The attempt viewer: one self-contained page. */
export function attemptHtml(v: AttemptView): string {
  const r = v.result;
  const verdictLine = `${r.verdict.toUpperCase()}${r.breach ? ' (breach)' : ''} · required checks ${r.required_checks.passed}/${r.required_checks.total}${r.error ? ` · ${h(r.error)}` : ''}${r.why ? ` · ${h(r.why)}` : ''}`;
  const turns = v.turns.map(turnHtml).join('\n');
  const projections = v.projections.map((p) => `<h3>${h(p.name)}</h3><div class="side"><div><h4>agent</h4>${table(p.agent)}</div><div><h4>reference</h4>${table(p.reference)}</div></div>`).join('\n');
  const options = v.projections.map((p) => `<option>${h(p.name)}</option>`).join('');
  const data = { calls: v.calls, states: v.states, startSeq: v.record.start_seq };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${h(`${r.task} seed ${r.seed} rep ${r.rep} ${r.cell}`)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
table { border-collapse: collapse; font-size: 12px; margin: 4px 0; } th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
pre { background: #f6f6f6; padding: 8px; white-space: pre-wrap; max-height: 400px; overflow: auto; }
.check.fail h3 { color: #a00; } .check.pass h3 { color: #2e7d32; } .probe { background: #fff3e0; } .none { color: #888; }
.side { display: flex; gap: 24px; flex-wrap: wrap; } tr:target { outline: 2px solid #1565c0; }
.model-call { border-left: 3px solid #1565c0; padding: 2px 8px; margin: 8px 0; } .model-call .meta { color: #555; font-size: 12px; margin: 0; }
.model-text { white-space: pre-wrap; margin: 4px 0; } .tool-call { margin: 2px 0 2px 12px; } .tool-call.error > summary { color: #a00; }
.retry, .provider-error { color: #a00; } .end { font-style: italic; }
</style></head>
<body>
<h1>${h(r.task)} · seed ${r.seed} · rep ${r.rep} · ${h(r.cell)}</h1>
<p class="verdict">${verdictLine}</p>
<p>agent ${h(r.agent_name)}${r.model ? ` · model ${h(r.model)}` : ''} · interface ${h(r.interface)}${r.tools ? ` (tools ${h(r.tools)})` : ''} · condition ${h(r.condition)} · ${r.metrics.probes} probes · ${r.metrics.writes} writes (${r.metrics.reversed_writes} reversed)</p>
${usageHtml(r)}
<figure data-plot="calls"><figcaption>API calls in order, by actor and outcome</figcaption><div class="chart"></div></figure>
<h2>Turns</h2>
${turns}
<h2>Checks</h2>
${checksHtml(v)}
<h2>Projections: agent beside reference</h2>
${projections}
<h2>Time travel</h2>
<p>The task's projections as they stood after any event: <select id="tt-table">${options}</select> <input id="tt-event" type="range" step="1"> <span id="tt-label"></span></p>
<div id="tt-view"></div>
<p>Any read-model table at any event: <code>erp bench show ${h(v.dir)} --table TABLE --until EVENT</code>.</p>
<h2>Attempt against the oracle, by business key</h2>
${diffHtml(v)}
<h2>API calls</h2>
${callsHtml(v)}
<script type="application/json" id="viewer-data">${scriptSafe(JSON.stringify(data))}</script>
<script>${scriptSafe(plottingLibraries())}</script>
<script>${scriptSafe(VIEWER_SCRIPT)}</script>
</body></html>
`;
}

export function writeAttemptHtml(v: AttemptView, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, attemptHtml(v));
}
