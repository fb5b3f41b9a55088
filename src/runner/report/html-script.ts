/**
 * The report page's own script: it reads the data block and draws each plot with Observable Plot
 * (inlined beside it with d3, so the page needs no network). Plain browser JavaScript.
 */
export const REPORT_PAGE_SCRIPT = String.raw`
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const width = Math.min(960, document.body.clientWidth - 32);
  const place = (id, chart) => document.querySelector('figure[data-plot="' + id + '"] .chart').append(chart);
  const empty = (id, text) => { document.querySelector('figure[data-plot="' + id + '"] .chart').textContent = text; };
  const rowHeight = Math.max(1, new Set(data.rates.map((r) => r.who)).size);

  function rates(id, value, lo, hi, label) {
    if (data.rates.length === 0) return empty(id, 'No attempts.');
    place(id, Plot.plot({
      width, marginLeft: 200, marginRight: 140, height: 60 + data.tasks.length * (rowHeight * 28 + 20),
      x: { domain: [0, 1], label, tickFormat: '%', grid: true },
      y: { label: null }, fy: { label: null },
      marks: [
        Plot.ruleY(data.rates, { x1: lo, x2: hi, y: 'who', fy: 'task', stroke: 'who', strokeWidth: 3, strokeOpacity: 0.5 }),
        Plot.dot(data.rates, { x: value, y: 'who', fy: 'task', fill: 'who', r: 5, title: (d) => d.who + ' ' + d.task + ': ' + Math.round(d[value] * 1000) / 10 + '% of ' + d.n }),
        Plot.frame({ strokeOpacity: 0.1 }),
      ],
    }));
  }
  rates('pass-rate', 'pass', 'pass_lo', 'pass_hi', 'pass@1 with its 95% Wilson interval');
  rates('breach-rate', 'breach', 'breach_lo', 'breach_hi', 'breach rate with its 95% Wilson interval');

  const priced = data.cells.filter((c) => c.cost_per_accepted !== null);
  if (priced.length === 0) empty('cost', data.cells.some((c) => c.cost !== null)
    ? 'Cost per accepted attempt is undefined: no attempt that reported a cost passed (cost per attempt is in the usage tables).'
    : 'No attempt reported a model cost.');
  else place('cost', Plot.plot({
    width, height: 320, grid: true,
    x: { label: 'estimated model cost per accepted attempt (USD): filled measured, hollow self-reported', zero: true }, y: { label: 'pass@1', domain: [0, 1], tickFormat: '%' },
    marks: [
      Plot.dot(priced.filter((c) => c.source === 'measured'), { x: 'cost_per_accepted', y: 'pass', fill: 'who', r: 6, title: (d) => d.who }),
      Plot.dot(priced.filter((c) => c.source !== 'measured'), { x: 'cost_per_accepted', y: 'pass', stroke: 'who', fill: 'none', r: 6, title: (d) => d.who }),
      Plot.text(priced, { x: 'cost_per_accepted', y: 'pass', text: 'who', dy: -12 }),
    ],
  }));

  if (data.turns.length === 0) empty('turn-time', 'No turns.');
  else place('turn-time', Plot.plot({
    width, marginLeft: 200, height: 60 + data.cells.length * 36,
    x: { label: 'turn wall time (s); dots: median and p90', grid: true, zero: true }, y: { label: null },
    marks: [
      Plot.tickX(data.turns, { x: 'seconds', y: 'who', stroke: 'who', strokeOpacity: 0.6 }),
      Plot.dot(data.turnStats, { x: 'seconds', y: 'who', symbol: 'stat', fill: 'black', r: 4, title: (d) => d.who + ' ' + d.stat + ': ' + d.seconds + ' s' }),
    ],
  }));

  if (data.seeds.length === 0) empty('pass-hat-k', 'No scenarios.');
  else place('pass-hat-k', Plot.plot({
    width, marginLeft: 200, height: 80 + rowHeight * 32, padding: 0.05,
    x: { label: 'seed', type: 'band' }, y: { label: null }, fx: { label: null },
    color: { domain: ['passed every time', 'not every time', 'no attempt counts'], range: ['#2e8540', '#d83933', '#bbbbbb'], legend: true },
    marks: [
      Plot.cell(data.seeds, { x: 'seed', y: 'who', fx: 'task', fill: 'state', title: (d) => d.who + ' ' + d.task + ' seed ' + d.seed + ': ' + d.passed + '/' + d.k }),
      Plot.text(data.seeds, { x: 'seed', y: 'who', fx: 'task', text: (d) => d.passed + '/' + d.k, fill: 'white' }),
    ],
  }));
  document.body.dataset.rendered = 'yes';
})();
`;
