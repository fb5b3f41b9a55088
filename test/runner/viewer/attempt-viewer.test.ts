import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { benchRun } from '../../../src/runner/bench-run';
import { attemptView, type AttemptView } from '../../../src/runner/viewer/attempt-view';
import { writeAttemptHtml } from '../../../src/runner/viewer/html';
import { tableAsOf } from '../../../src/runner/viewer/time-travel';
import { launchChromium, openPage } from '../../support/browser';
import { fakeModel } from '../../support/fake-model';
import { FIXTURE_TASKS } from '../../support/packs';

/** An attempt that fails one check: the negative control that names a manager as delegate. */
const root = mkdtempSync(join(tmpdir(), 'bb-erp-viewer-'));
let dir: string;
let view: AttemptView;
let browser: Browser;
let page: Page;
let requests: string[];
let errors: string[];
const file = join(root, 'attempt.html');

beforeAll(async () => {
  const out = await benchRun({ task: 'leave-cover', tasksDir: FIXTURE_TASKS, agent: 'neg:manager-as-delegate', runsDir: join(root, 'runs'), scenarioDir: join(root, 'scenario') });
  dir = out.attempts[0]!.dir;
  view = attemptView(dir);
  writeAttemptHtml(view, file);
  browser = await launchChromium();
  ({ page, requests, errors } = await openPage(browser, file, 'body[data-rendered="yes"]'));
}, 90_000);
afterAll(async () => browser?.close());

describe('the attempt viewer of a failed attempt', () => {
  it('lists every API call after the start state in order, the agent\'s by turn', () => {
    expect(view.calls.map((c) => c.seq)).toEqual([...view.calls.map((c) => c.seq)].sort((a, b) => a - b));
    expect(view.calls[0]!.seq).toBe(view.record.start_seq + 1);
    expect(view.calls.filter((c) => c.turn !== null).every((c) => c.actor === 'olga.park')).toBe(true);
    expect(new Set(view.calls.map((c) => c.turn))).toEqual(new Set([null, 1, 2]));
  });

  it('gives the failed check its differing rows, agent beside reference, each with the events behind it', () => {
    const check = view.checks.find((c) => c.id === 'leave-values')!;
    expect(check.passed).toBe(false);
    const row = check.differing!.find((d) => d.kind === 'changed')!;
    expect(row.agent!.delegate).not.toBe(row.expected!.delegate);
    expect(row.event_ids.length).toBeGreaterThan(0);
    for (const id of row.event_ids) expect(view.calls.map((c) => c.seq)).toContain(id);
  });

  it('replays the projections through every event: the first state is the start, the last the agent\'s final rows', () => {
    const leaves = view.projections.find((p) => p.name === 'leaves')!;
    expect(view.states[0]!.seq).toBe(view.record.start_seq);
    const sorted = (rows: readonly Record<string, string>[]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(view.states.at(-1)!.tables.leaves!.rows)).toEqual(sorted(leaves.agent!.rows));
    expect(view.states[0]!.tables.leaves!.rows.length).toBeLessThan(leaves.agent!.rows.length);
  });

  it('shows any read-model table as it stood after any event', () => {
    const before = tableAsOf(join(dir, 'final.db'), 'delegations', view.record.start_seq);
    const after = tableAsOf(join(dir, 'final.db'), 'delegations', Number.MAX_SAFE_INTEGER);
    expect(after.rows.length).toBeGreaterThan(before.rows.length);
    expect(() => tableAsOf(join(dir, 'final.db'), 'no_such_table', 1)).toThrow(/No read-model table no_such_table/);
  });

  it('matches the attempt\'s writes against the oracle\'s by business key: the wrong delegate is in the attempt alone', () => {
    expect(view.diff!.both.length).toBeGreaterThan(0);
    expect(view.diff!.onlyAttempt.some((w) => w.action === 'leave.schedule')).toBe(true);
    expect(view.diff!.onlyOracle.some((w) => w.action === 'leave.schedule')).toBe(true);
  });
});

describe('the attempt viewer opened in headless Chromium', () => {
  it('needs no network and runs without errors', () => {
    expect(readFileSync(file, 'utf8')).not.toMatch(/<script[^>]+src=/);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('plots one dot per API call', async () => {
    expect(await page.locator('figure[data-plot="calls"] svg g[aria-label="dot"] circle').count()).toBe(view.calls.length);
  });

  it('shows each turn with its prompt and output, and each check with links to the events behind its rows', async () => {
    expect(await page.locator('details.turn').count()).toBe(2);
    expect(await page.locator('details.turn[data-turn="1"] pre').first().textContent()).toContain('Request from Maya Chen');
    const links = page.locator('[data-check="leave-values"] table.differing a');
    expect(await links.count()).toBeGreaterThan(0);
    const target = (await links.first().getAttribute('href'))!;
    expect(await page.locator(`tr${target}`).count()).toBe(1);
  });

  it('travels in time: the slider at the start shows the start state, at the end the final rows', async () => {
    await page.selectOption('#tt-table', 'leaves');
    const at = async (value: string) => {
      await page.locator('#tt-event').evaluate((el, v) => { (el as unknown as { value: string }).value = v; el.dispatchEvent(new Event('input')); }, value);
      return Number(await page.locator('#tt-view').getAttribute('data-rows'));
    };
    expect(await at('0')).toBe(view.states[0]!.tables.leaves!.rows.length);
    expect(await at(String(view.calls.length))).toBe(view.projections.find((p) => p.name === 'leaves')!.agent!.rows.length);
  });

  it('lists the writes only the attempt made', async () => {
    expect(await page.locator('[data-diff="attempt"] li').count()).toBe(view.diff!.onlyAttempt.length);
  });
});

describe('the attempt viewer of a reference LLM agent\'s attempt', () => {
  let llmView: AttemptView;
  let llmPage: Page;
  let llmErrors: string[];

  beforeAll(async () => {
    // Given an attempt of the llm agent whose model asks who it is, then calls a tool wrongly, then answers
    const model = await fakeModel({ 1: [{ name: 'get_whoami', arguments: {} }, { name: 'leave_schedule', arguments: { user: 'nobody' } }], 2: [] });
    try {
      const out = await benchRun({ task: 'leave-cover', tasksDir: FIXTURE_TASKS, agent: 'llm:scripted-model', label: 'viewer', runsDir: join(root, 'llm-runs'), scenarioDir: join(root, 'scenario'), llm: { baseUrl: model.url, maxSteps: 6, priceIn: 3, priceOut: 15 } });
      llmView = attemptView(out.attempts[0]!.dir);
    } finally {
      model.server.close();
    }
    // When its page is opened
    const llmFile = join(root, 'llm-attempt.html');
    writeAttemptHtml(llmView, llmFile);
    ({ page: llmPage, errors: llmErrors } = await openPage(browser, llmFile, 'body[data-rendered="yes"]'));
  }, 120_000);

  it('reads each turn\'s transcript as a conversation: the system message, each model call with its tool calls and results, the end', () => {
    const turn1 = llmView.turns[0]!.conversation!;
    expect(turn1.api).toBe('chat');
    expect(turn1.system).toContain('<handbook uri=');
    expect(turn1.entries.map((e) => e.kind)).toEqual(['model', 'model', 'model', 'end']);
    const [whoami, schedule, answer] = turn1.entries as Extract<(typeof turn1.entries)[number], { kind: 'model' }>[];
    expect(whoami!.tools).toEqual([expect.objectContaining({ name: 'get_whoami', isError: false, result: expect.stringContaining('olga.park') })]);
    expect(schedule!.tools).toEqual([expect.objectContaining({ name: 'leave_schedule', arguments: { user: 'nobody' }, isError: true })]);
    expect(answer).toMatchObject({ text: 'Done.', tools: [], tokensIn: 1000, tokensOut: 50 });
  });

  it('shows the conversation, not JSON lines: the system message and each tool call folded, the model\'s text in view', async () => {
    expect(llmErrors).toEqual([]);
    const turn = llmPage.locator('details.turn[data-turn="1"]');
    expect(await turn.locator('.conversation .model-call').count()).toBe(3);
    expect(await turn.locator('details.system-message').getAttribute('open')).toBeNull();
    expect(await turn.locator('details.system-message pre').isVisible()).toBe(false);
    const whoami = turn.locator('details.tool-call[data-tool="get_whoami"]');
    expect(await whoami.getAttribute('open')).toBeNull();
    expect(await whoami.locator('.tool-result').isVisible()).toBe(false);
    await whoami.locator('summary').click();
    expect(await whoami.locator('.tool-result').isVisible()).toBe(true);
    expect(await whoami.locator('.tool-result').textContent()).toContain('olga.park');
    expect(await turn.locator('details.tool-call.error[data-tool="leave_schedule"]').count()).toBe(1);
    expect(await turn.locator('.model-call[data-step="3"] .model-text').textContent()).toBe('Done.');
    expect(await turn.locator('.end').getAttribute('data-reason')).toBe('answered');
    expect(await turn.locator('details.raw').getAttribute('open')).toBeNull();
    expect(await turn.locator('.conversation').textContent()).not.toContain('"type":"model_call"');
  });
});
