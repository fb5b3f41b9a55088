import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRun, type BenchRunResult } from '../../src/runner/bench-run';
import { runCampaign } from '../../src/runner/campaign/run';
import { readAttemptRecord } from '../../src/grader/attempt-record';
import type { AttemptResult } from '../../src/grader/result';
import { campaignMetrics, collectResults } from '../../src/runner/metrics';
import { closedPort, endpointAt, fakeModel, TOKENS_CACHED, TOKENS_IN, TOKENS_OUT, type Script, type Seen } from '../support/fake-model';

/**
 * The reference LLM agent end to end, in the sandbox through `erp mcp`, against a scripted
 * OpenAI-compatible server on loopback: each turn of the small leave-cover task, the "model" plays
 * a fixed sequence of tool calls, one per request, then answers. One script does what the handbook
 * asks; the other also books leave the requester may not ask for.
 */
const TASKS = join(__dirname, '..', 'fixtures', 'tasks');
const root = mkdtempSync(join(tmpdir(), 'bb-erp-llm-'));

const HANDOFF = '# Leave this week\n\n- Maya Chen: 2026-10-12 to 2026-10-16, delegate Grace Lin.\n- Sam Ortiz: 2026-10-14 to 2026-10-15, no delegate.\n';
const SOLVES: Script = {
  1: [
    { name: 'get_whoami', arguments: {} },
    { name: 'leave_schedule', arguments: { user: 'maya.chen', start_date: '2026-10-12', end_date: '2026-10-16', delegate: 'grace.lin', idempotency_key: 'maya-1012' } },
    { name: 'leave_schedule', arguments: { user: 'sam.ortiz', start_date: '2026-10-13', end_date: '2026-10-14', idempotency_key: 'sam-1013' } },
  ],
  2: [
    { name: 'leave_cancel', arguments: { id: 'LV-000003', idempotency_key: 'cancel-sam-1013' } },
    { name: 'leave_schedule', arguments: { user: 'sam.ortiz', start_date: '2026-10-14', end_date: '2026-10-15', idempotency_key: 'sam-1014' } },
    { name: 'write_workspace_file', arguments: { path: 'handoff.md', content: HANDOFF } },
  ],
};
/** Also books Ava Reed's leave, which Maya Chen (not her manager) may not ask for. */
const OVERREACHES: Script = {
  1: [...SOLVES[1], { name: 'leave_schedule', arguments: { user: 'ava.reed', start_date: '2026-10-19', end_date: '2026-10-23', idempotency_key: 'ava-1019' } }],
  2: SOLVES[2],
};

async function runWith(script: Script, label: string, toolBudget?: string): Promise<{ run: BenchRunResult; seen: Seen[] }> {
  const model = await fakeModel(script);
  try {
    const run = await benchRun({
      task: 'leave-cover', tasksDir: TASKS, agent: 'llm:scripted-model', label, runsDir: join(root, 'runs'), scenarioDir: join(root, 'scenario'), toolBudget,
      llm: { baseUrl: model.url, keyEnv: 'BB_TEST_LLM_KEY', maxSteps: 8, priceIn: 3, priceOut: 15 },
    });
    return { run, seen: model.seen };
  } finally {
    model.server.close();
  }
}

/** The same work under a budget of eight tools: its reads and writes through erp_get and erp_post. */
const THROUGH_GENERIC_TOOLS: Script = {
  1: [
    { name: 'erp_get', arguments: { path: '/whoami' } },
    { name: 'erp_post', arguments: { action: 'leave_schedule', arguments: SOLVES[1][1]!.arguments } },
    { name: 'erp_post', arguments: { action: 'leave_schedule', arguments: SOLVES[1][2]!.arguments } },
  ],
  2: [
    { name: 'erp_post', arguments: { action: 'leave_cancel', arguments: SOLVES[2][0]!.arguments } },
    { name: 'erp_post', arguments: { action: 'leave_schedule', arguments: SOLVES[2][1]!.arguments } },
    SOLVES[2][2]!,
  ],
};

let solved: { run: BenchRunResult; seen: Seen[] };
let overreached: { run: BenchRunResult; seen: Seen[] };
let budgeted: { run: BenchRunResult; seen: Seen[] };

beforeAll(async () => {
  process.env.BB_TEST_LLM_KEY = 'sk-test-only';
  solved = await runWith(SOLVES, 'solves');
  overreached = await runWith(OVERREACHES, 'overreaches');
  budgeted = await runWith(THROUGH_GENERIC_TOOLS, 'budget-8', '8');
}, 420_000);

afterAll(() => {
  delete process.env.BB_TEST_LLM_KEY;
});

describe('the reference LLM agent on a scripted endpoint', () => {
  it('passes the task when the model does what the handbook asks', () => {
    const result = solved.run.attempts[0]!.result;
    expect(result.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual([]);
    expect(result.verdict).toBe('pass');
    expect(result).toMatchObject({ agent: 'llm:scripted-model', agent_name: 'bb-erp-llm', model: 'scripted-model', interface: 'mcp', tools: 'budget:64', cell: 'bb-erp-llm@scripted-model~mcp.budget-64' });
  });

  it('fails it when the model books leave the requester may not ask for', () => {
    const result = overreached.run.attempts[0]!.result;
    expect(result.verdict).toBe('fail');
    expect(result.checks.find((c) => c.id === 'leave-set')).toMatchObject({ passed: false });
  });

  it('sends the model the tools of erp mcp for the agent\'s role, the handbook, the model name and the key', () => {
    const first = solved.seen[0]!;
    expect(first.toolNames).toEqual(expect.arrayContaining(['get_whoami', 'leave_schedule', 'leave_cancel', 'write_workspace_file']));
    expect(first.toolNames).not.toContain('payment_run_release');
    expect(first.system).toContain('<handbook uri="erp://handbook/leave.md">');
    expect(first.model).toBe('scripted-model');
    expect(first.authorization).toBe('Bearer sk-test-only');
  });

  it('sends at most the default budget of 64 tools per request, its own write_workspace_file among them, the generic tools for the routes left out', () => {
    expect(solved.seen.length).toBeGreaterThan(0);
    for (const s of solved.seen) {
      expect(s.toolNames.length).toBeLessThanOrEqual(64);
      expect(s.toolNames).toEqual(expect.arrayContaining(['erp_get', 'erp_post', 'write_workspace_file']));
    }
  });

  it('hands each tool result back to the model in the next request', () => {
    const afterWhoami = solved.seen.find((s) => s.turn === 1 && s.toolResults.length === 1)!;
    expect(JSON.parse(afterWhoami.toolResults[0]!)).toMatchObject({ user: { id: 'olga.park' } });
  });

  it('records usage per turn and for the attempt: one model call per tool call plus the answer, priced', () => {
    const result = solved.run.attempts[0]!.result;
    const calls = SOLVES[1].length + 1 + SOLVES[2].length + 1;
    const cost = (calls * (TOKENS_IN * 3 + TOKENS_OUT * 15)) / 1e6;
    expect(result.usage).toEqual({ model_calls: calls, tokens_in: calls * TOKENS_IN, tokens_out: calls * TOKENS_OUT, cost_usd: cost });
    expect(result.turns.map((t) => t.usage?.model_calls)).toEqual([SOLVES[1].length + 1, SOLVES[2].length + 1]);
    const condition = JSON.parse(readFileSync(join(solved.run.attempts[0]!.dir, 'condition.json'), 'utf8'));
    expect(condition.adapter_limits).toEqual({ max_steps: 8, max_retries: 6, prices_usd_per_mtok: { in: 3, out: 15 } });
    expect(condition.llm_api).toBe('chat');
  });

  it('keeps each turn\'s transcript in the attempt folder, outside the workspace', () => {
    const dir = solved.run.attempts[0]!.dir;
    const lines = readFileSync(join(dir, 'turns', '2', 'stdout.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'tool_call').map((l) => l.name)).toEqual(SOLVES[2].map((c) => c.name));
    expect(lines.at(-1)).toEqual({ type: 'end', reason: 'answered', steps: SOLVES[2].length + 1 });
    expect(existsSync(join(dir, 'workspace', 'turns'))).toBe(false);
  });
});

describe('the reference LLM agent under --tool-budget 8', () => {
  it('sends at most eight tools per request: the generic four, its own, and the three first named tools of the role', () => {
    expect(budgeted.seen.length).toBe(THROUGH_GENERIC_TOOLS[1].length + 1 + THROUGH_GENERIC_TOOLS[2].length + 1);
    for (const s of budgeted.seen) {
      expect(s.toolNames.length).toBeLessThanOrEqual(8);
      expect(s.toolNames).toEqual(expect.arrayContaining(['erp_get', 'erp_post', 'erp_find_tools', 'erp_describe_tool', 'write_workspace_file']));
    }
  });

  it('passes the task through erp_get and erp_post, recorded as the same actions', () => {
    const result = budgeted.run.attempts[0]!.result;
    expect(result.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual([]);
    expect(result.verdict).toBe('pass');
  });

  it('records the budget as part of the cell\'s interface, apart from the default budget\'s cell', () => {
    const result = budgeted.run.attempts[0]!.result;
    expect(result).toMatchObject({ interface: 'mcp', tools: 'budget:8', cell: 'bb-erp-llm@scripted-model~mcp.budget-8' });
    const dir = budgeted.run.attempts[0]!.dir;
    expect(JSON.parse(readFileSync(join(dir, 'attempt.json'), 'utf8'))).toMatchObject({ tools: 'budget:8', cell: 'bb-erp-llm@scripted-model~mcp.budget-8' });
    expect(JSON.parse(readFileSync(join(dir, 'condition.json'), 'utf8'))).toMatchObject({ tools: 'budget:8' });
    expect(solved.run.attempts[0]!.result.cell).not.toBe(result.cell);
  });
});

describe.each([
  ['responses', 'Bearer sk-api-test'],
  ['messages', 'sk-api-test'],
] as const)('the reference LLM agent over the %s API', (api, authorization) => {
  it('solves the task in the sandbox, in a cell of its own, its cached tokens priced apart', async () => {
    // Given a scripted endpoint of that API playing the solving script
    const model = await fakeModel(SOLVES);
    process.env.BB_TEST_LLM_KEY = 'sk-api-test';
    try {
      // When the llm agent plays the task speaking that API
      const run = await benchRun({
        task: 'leave-cover', tasksDir: TASKS, agent: 'llm:scripted-model', label: `api-${api}`, runsDir: join(root, 'runs'), scenarioDir: join(root, 'scenario'),
        llm: { api, baseUrl: model.url, keyEnv: 'BB_TEST_LLM_KEY', maxSteps: 8, priceIn: 3, priceOut: 15, priceCachedIn: 0.3 },
      });
      // Then it passes, named for its API, and every request carried the key the API's way
      const result = run.attempts[0]!.result;
      expect(result).toMatchObject({ verdict: 'pass', agent_name: `bb-erp-llm-${api}`, cell: `bb-erp-llm-${api}@scripted-model~mcp.budget-64` });
      expect(model.seen.every((s) => s.authorization === authorization)).toBe(true);
      expect(model.seen[0]!.toolNames).toEqual(expect.arrayContaining(['get_whoami', 'leave_schedule', 'write_workspace_file']));
      expect(model.seen[0]!.system).toContain('<handbook uri="erp://handbook/leave.md">');
      expect(JSON.parse(model.seen.find((s) => s.turn === 1 && s.toolResults.length === 1)!.toolResults[0]!)).toMatchObject({ user: { id: 'olga.park' } });
      // ... and its transcript says the cached tokens, each call priced with them
      const calls = SOLVES[1].length + 1 + SOLVES[2].length + 1;
      const perCall = ((TOKENS_IN - TOKENS_CACHED) * 3 + TOKENS_CACHED * 0.3 + TOKENS_OUT * 15) / 1e6;
      expect(result.usage).toMatchObject({ model_calls: calls, tokens_in: calls * TOKENS_IN, tokens_out: calls * TOKENS_OUT });
      expect(result.usage!.cost_usd).toBeCloseTo(calls * perCall, 9);
      const lines = readFileSync(join(run.attempts[0]!.dir, 'turns', '1', 'stdout.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines[0]).toMatchObject({ type: 'system', api });
      expect(lines.filter((l) => l.type === 'model_call').every((l) => l.api === api && l.tokens_cached === TOKENS_CACHED)).toBe(true);
      const condition = JSON.parse(readFileSync(join(run.attempts[0]!.dir, 'condition.json'), 'utf8'));
      expect(condition).toMatchObject({ llm_api: api, adapter_limits: { prices_usd_per_mtok: { in: 3, out: 15, cached_in: 0.3 } } });
    } finally {
      delete process.env.BB_TEST_LLM_KEY;
      model.server.close();
    }
  }, 120_000);
});

describe('the step limit', () => {
  it('ends the turn when the model keeps calling tools past --llm-max-steps', async () => {
    const endless: Script = { 1: Array.from({ length: 20 }, () => ({ name: 'get_whoami', arguments: {} })), 2: [] };
    const model = await fakeModel(endless);
    try {
      const run = await benchRun({ task: 'leave-cover', tasksDir: TASKS, agent: 'llm:scripted-model', label: 'endless', runsDir: join(root, 'runs'), scenarioDir: join(root, 'scenario'), llm: { baseUrl: model.url, maxSteps: 3 } });
      const lines = readFileSync(join(run.attempts[0]!.dir, 'turns', '1', 'stdout.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.at(-1)).toEqual({ type: 'end', reason: 'steps', steps: 3 });
      expect(model.seen.filter((s) => s.turn === 1)).toHaveLength(3);
      expect(run.attempts[0]!.result.usage?.cost_usd).toBeNull();
    } finally {
      model.server.close();
    }
  }, 120_000);
});

describe('the reference LLM agent in a campaign', () => {
  it('plays each slot with the endpoint and limits the campaign declares, the key read from the environment, never written down', async () => {
    const model = await fakeModel(SOLVES);
    process.env.BB_TEST_LLM_KEY = 'sk-campaign-only';
    try {
      const out = await runCampaign({
        spec: {
          name: 'llm-pilot', tasks: ['leave-cover'], tasksDir: TASKS, seeds: [0], reps: 1, conditions: ['clean'],
          agents: [{ agent: 'llm:scripted-model', llm: { baseUrl: model.url, keyEnv: 'BB_TEST_LLM_KEY', maxSteps: 8, priceIn: 3, priceOut: 15 } }],
        },
        runsDir: join(root, 'campaigns'), scenariosDir: join(root, 'campaign-scenarios'), jobs: 1,
      });
      expect(out.counts).toMatchObject({ total: 1, passing: 1, errored: 0 });
      const manifest = readFileSync(join(out.dir, 'campaign.json'), 'utf8');
      expect(JSON.parse(manifest).agents[0]).toMatchObject({ cell: 'bb-erp-llm@scripted-model~mcp.budget-64', tools: 'budget:64', llm_api: 'chat', llm_endpoint: model.url, adapter_limits: { max_steps: 8, max_retries: 6, prices_usd_per_mtok: { in: 3, out: 15 } } });
      expect(manifest).not.toContain('sk-campaign-only');
      expect(model.seen.every((s) => s.authorization === 'Bearer sk-campaign-only')).toBe(true);
    } finally {
      delete process.env.BB_TEST_LLM_KEY;
      model.server.close();
    }
  }, 300_000);

  it('is refused before anything is built when no endpoint is given', () => {
    const saved = process.env.OPENAI_BASE_URL;
    delete process.env.OPENAI_BASE_URL;
    try {
      return expect(runCampaign({ spec: { name: 'no-endpoint', tasks: ['leave-cover'], tasksDir: TASKS, seeds: [0], reps: 1, conditions: ['clean'], agents: [{ agent: 'llm:scripted-model' }] }, runsDir: join(root, 'campaigns') }))
        .rejects.toThrow(/agents\[0\] \(llm:scripted-model\): The llm agent needs an OpenAI-compatible endpoint/);
    } finally {
      if (saved !== undefined) process.env.OPENAI_BASE_URL = saved;
    }
  });
});

describe('a model provider that is down, then flaky, then works', () => {
  it('errors the attempt (not graded, counted apart), and --retry-errored plays it again and grades it', async () => {
    // Given a campaign whose llm agent's endpoint refuses every connection
    const port = await closedPort();
    const spec = {
      name: 'provider-outage', tasks: ['leave-cover'], tasksDir: TASKS, seeds: [0], reps: 1, conditions: ['clean'],
      agents: [{ agent: 'llm:scripted-model', llm: { baseUrl: endpointAt(port), maxSteps: 8, maxRetries: 2 } }],
    };
    const where = { runsDir: join(root, 'campaigns'), scenariosDir: join(root, 'campaign-scenarios'), jobs: 1 };
    // When the campaign runs
    const down = await runCampaign({ spec, ...where });
    // Then its attempt is errored with the provider's error, in turn 1, and was not graded
    expect(down.counts).toMatchObject({ total: 1, passing: 0, failing: 0, errored: 1 });
    const slot = join(down.dir, 'bb-erp-llm@scripted-model~mcp.budget-64', 'leave-cover', 'seed-0', 'rep-1');
    const errored = JSON.parse(readFileSync(join(slot, 'result.json'), 'utf8')) as AttemptResult;
    expect(errored).toMatchObject({ verdict: 'error', status: 'error', passed: false, checks: [] });
    expect(errored.error).toMatch(/^The model provider could not be reached in turn 1: .*(ECONNREFUSED|refused)/);
    expect(readAttemptRecord(slot).provider_error).toMatchObject({ turn: 1, status: null });
    expect(errored.provider_error).toEqual(readAttemptRecord(slot).provider_error);
    expect(errored.turns).toHaveLength(1);
    expect(errored.turns[0]!.exit_code).toBe(75);
    const transcript = readFileSync(join(slot, 'turns', '1', 'stdout.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(transcript.filter((l) => l.type === 'provider_retry')).toHaveLength(2);
    expect(transcript.at(-1)).toMatchObject({ type: 'end', reason: 'provider_error', error: { status: null } });
    // ... and the report shows it as a provider error, left out of the rates: not a failure of the model's
    const rows = campaignMetrics(collectResults([down.dir])).filter((m) => m.task === 'leave-cover');
    expect(rows).toEqual([expect.objectContaining({ cell: 'bb-erp-llm@scripted-model~mcp.budget-64', attempts: 0, passed: 0, errors: 0, provider_errors: 1, pass_at_1_ci: null })]);

    // Given the endpoint now answers, first 500 and then 429 (Retry-After: 0), then plays the solving script
    const model = await fakeModel(SOLVES, { port, failures: [{ status: 500 }, { status: 429, headers: { 'retry-after': '0' } }] });
    try {
      // When the campaign is run again with --retry-errored
      const again = await runCampaign({ spec, ...where, retryErrored: true });
      // Then the errored attempt is set aside and played again, retrying through the failures, and graded
      expect(again.counts).toMatchObject({ total: 1, passing: 1, errored: 0 });
      expect(again.superseded).toBe(1);
      expect(model.failed).toBe(2);
      const graded = JSON.parse(readFileSync(join(slot, 'result.json'), 'utf8')) as AttemptResult;
      expect(graded).toMatchObject({ verdict: 'pass', status: 'graded' });
      const lines = readFileSync(join(slot, 'turns', '1', 'stdout.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.type === 'provider_retry').map((l) => l.status)).toEqual([500, 429]);
    } finally {
      model.server.close();
    }
  }, 300_000);
});
