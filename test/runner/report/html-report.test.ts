import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { AttemptResult } from '../../../src/grader/result';
import { reportFrom, writeCsv, writeMarkdown } from '../../../src/runner/report/build';
import { writeHtml } from '../../../src/runner/report/html';
import { launchChromium, openPage } from '../../support/browser';

/** A campaign's result files as a report reads them: two agents × two tasks × two seeds × two reps. */
const root = mkdtempSync(join(tmpdir(), 'bb-erp-html-report-'));
function write(r: Partial<AttemptResult> & Pick<AttemptResult, 'cell' | 'task' | 'seed' | 'rep'>): void {
  const result: AttemptResult = {
    agent: 'x', agent_name: r.cell.split('~')[0]!, model: null, interface: 'cli', condition: 'clean', label: `pilot/${r.cell}`, verdict: 'pass', status: 'graded', passed: true, breach: false,
    required_checks: { passed: 4, total: 4 }, checks: [], metrics: { probes: 1, writes: 3, reversed_writes: 0 },
    turns: [{ index: 1, date: '2026-10-06', duration_s: 10 + r.rep, exit_code: 0, signal: null, timed_out: false }, { index: 2, date: '2026-10-08', duration_s: 20 + r.seed, exit_code: 0, signal: null, timed_out: false }],
    final_hash: '', pack_hash: '', graded_at_wall: '', ...r,
  };
  const dir = join(root, 'runs', 'pilot', r.cell, r.task, `seed-${r.seed}`, `rep-${r.rep}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
}
for (const task of ['task-a', 'task-b']) {
  for (const seed of [0, 1]) {
    for (const rep of [1, 2]) {
      // The oracle passes every time; the harness fails task-b seed 1 once, with a breach, and reports its usage.
      write({ cell: 'oracle~http', task, seed, rep });
      const fails = task === 'task-b' && seed === 1 && rep === 2;
      write({ cell: 'harness@m1~cli', model: 'm1', task, seed, rep, passed: !fails, verdict: fails ? 'fail' : 'pass', breach: fails, usage: { model_calls: 1, tokens_in: 1000, tokens_out: 100, cost_usd: 0.02 } });
    }
  }
}
// An interrupted attempt: counted as incomplete, drawn nowhere.
write({ cell: 'harness@m1~cli', model: 'm1', task: 'task-a', seed: 0, rep: 3, verdict: 'incomplete', status: 'incomplete', passed: false });

const page_file = join(root, 'report.html');
let browser: Browser;
let page: Page;
let requests: string[];
let errors: string[];
beforeAll(async () => {
  const { report, results, folderOf } = reportFrom([join(root, 'runs', 'pilot')], undefined);
  writeHtml(report, results, page_file, folderOf);
  browser = await launchChromium();
  ({ page, requests, errors } = await openPage(browser, page_file, 'body[data-rendered="yes"]'));
}, 60_000);
afterAll(async () => browser?.close());

const marks = (plot: string, mark: string, element: string) => page.locator(`figure[data-plot="${plot}"] svg g[aria-label="${mark}"] ${element}`).count();

describe('the HTML report opened in headless Chromium', () => {
  it('is one self-contained file: no request leaves it, and no script fails', () => {
    expect(readFileSync(page_file, 'utf8')).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('draws pass rate and breach rate per task and agent: a dot and an interval for each', async () => {
    for (const plot of ['pass-rate', 'breach-rate']) {
      expect(await marks(plot, 'dot', 'circle')).toBe(4);
      expect(await marks(plot, 'rule', 'line')).toBe(4);
    }
  });

  it('draws cost against pass rate for the agent that reported usage', async () => {
    expect(await marks('cost', 'dot', 'circle')).toBe(1);
    expect(await page.locator('figure[data-plot="cost"] svg g[aria-label="text"] text').allTextContents()).toEqual(['harness@m1~cli']);
  });

  it('draws every turn of every attempt that counts, with each agent\'s median and p90', async () => {
    // 2 agents × 8 attempts × 2 turns; the interrupted attempt is left out.
    expect(await marks('turn-time', 'tick', 'line')).toBe(32);
    expect(await marks('turn-time', 'dot', 'path')).toBe(4);
  });

  it('draws the per-seed pass^k heat map: one cell per agent, task and seed, red where a seed missed once', async () => {
    expect(await marks('pass-hat-k', 'cell', 'rect')).toBe(8);
    const labels = await page.locator('figure[data-plot="pass-hat-k"] svg g[aria-label="text"] text').allTextContents();
    expect(labels.filter((l) => l === '2/2')).toHaveLength(7);
    expect(labels.filter((l) => l === '1/2')).toHaveLength(1);
    const fills = await page.locator('figure[data-plot="pass-hat-k"] svg g[aria-label="cell"] rect').evaluateAll((rs) => rs.map((r) => r.getAttribute('fill')));
    expect(fills.filter((f) => f === '#d83933')).toHaveLength(1);
  });

  it('shows the tables and the interrupted attempt under them', async () => {
    expect(await page.locator('h2').allTextContents()).toEqual(expect.arrayContaining(['Per cell and task', 'pass^k per seed', "Model usage (measured: the reference agent's model calls, counted by the runner)", 'Flagged attempts']));
    expect(await page.locator('.flagged li').allTextContents()).toEqual([expect.stringMatching(/^incomplete: harness@m1~cli task-a seed 0 rep 3/)]);
  });
});

describe('what the report answers next', () => {
  it('names what it covers at its top: tasks, seeds, agents and models, interfaces, conditions', async () => {
    const header = (await page.locator('header p').allTextContents()).join('\n');
    expect(header).toMatch(/^bb-erp \S+, report written \d{4}-/);
    expect(header).toContain('tasks: task-a, task-b; seeds: 0, 1');
    expect(header).toContain('agents: harness@m1, oracle; models: m1, none; interfaces: cli; conditions: clean');
  });

  it('links every cell and task to each of its attempts, each link reaching that attempt\'s result', async () => {
    const rows = page.locator('#attempt-links tbody tr');
    expect(await rows.count()).toBe(4);
    const hrefs = await page.locator('#attempt-links a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(hrefs).toHaveLength(17);
    for (const h of hrefs) expect(JSON.parse(readFileSync(join(root, h), 'utf8')).cell).toMatch(/~/);
    expect(await page.locator('#attempt-links tr', { hasText: 'harness@m1~cli' }).filter({ hasText: 'task-b' }).locator('a', { hasText: 'seed 1 rep 2: fail' }).count()).toBe(1);
  });

  it('shows pass^k for k = 1 to K, and the paired difference between the two agents on the same scenarios', async () => {
    const h2 = await page.locator('h2').allTextContents();
    expect(h2).toEqual(expect.arrayContaining([expect.stringMatching(/^pass\^k for k = 1 to K/), 'Paired difference in pass rate between cells on the same scenarios', 'Attempts, per cell and task']));
    const pair = await page.locator('table', { has: page.locator('th', { hasText: 'a − b' }) }).locator('tr', { hasText: 'task-b' }).first().textContent();
    // On task-b the harness passed 3 of 4 against the oracle's 4 of 4: -25 points over its 2 seeds (one at -50, one at 0).
    expect(pair).toContain('-25.0 pts');
  });
});

describe('the same report as CSV and Markdown', () => {
  it('exports the same tables: the seed the harness missed once is one row in each', () => {
    const { report } = reportFrom([join(root, 'runs', 'pilot')], undefined);
    writeCsv(report, join(root, 'csv'));
    writeMarkdown(report, join(root, 'report.md'));
    const csv = readFileSync(join(root, 'csv', 'pass-hat-k-per-seed.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('cell,agent,model,interface,tools,condition,label,task,seed,k,passed,pass^k,errors,incomplete,provider errors');
    expect(csv).toContain('harness@m1~cli,harness@m1,m1,cli,,clean,pilot/harness@m1~cli,task-b,1,2,1,0,0,0,0');
    expect(readFileSync(join(root, 'report.md'), 'utf8')).toContain('| harness@m1~cli | harness@m1 | m1 | cli | - | clean | pilot/harness@m1~cli | task-b | 1 | 2 | 1 | no | 0 | 0 | 0 |');
    const summary = readFileSync(join(root, 'csv', 'per-cell-and-task.csv'), 'utf8');
    expect(summary.split('\n')[0]).toContain('pass@1,pass@1 ci low,pass@1 ci high,pass^k,k');
    // cost, cost and tokens per attempt, then per pass.
    expect(readFileSync(join(root, 'csv', 'model-usage.csv'), 'utf8')).toContain('harness@m1~cli,pilot/harness@m1~cli,task-a,4,4,4000,400,0.08,0.02,1100,0.02,1100');
  });
});
