import { createServer, type Server } from 'node:http';
import seedrandom from 'seedrandom';
import { MARGIN_S, runTurn, type LlmConfig } from '../../src/agents/llm/agent';
import { backoffMs, DEFAULT_RETRY, retryAfterMs, type RetryClock } from '../../src/agents/llm/provider-call';
import type { AgentTools } from '../../src/agents/llm/tools';
import type { TranscriptLine } from '../../src/agents/llm/usage';
import { closedPort, endpointAt } from '../support/fake-model';

/**
 * Provider failures within one turn of the reference agent, against a scripted endpoint on
 * loopback: refused connections, 5xx and 429 are retried with backoff inside the turn's budget;
 * other 4xx are not; a turn that still cannot reach its model ends with a provider_error line.
 * The clock is the test's: sleeps advance it at once, the jitter is seeded.
 */
type Answer = { status: number; headers?: Record<string, string>; body: unknown };

const ANSWER: Answer = {
  status: 200,
  body: { id: 'c1', object: 'chat.completion', created: 0, model: 'scripted-model', choices: [{ index: 0, message: { role: 'assistant', content: 'Nothing to do.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 120, completion_tokens: 8, prompt_tokens_details: { cached_tokens: 100 } } },
};

/** Answers each POST with the next of `answers` (the last one again once they run out). */
function scripted(answers: Answer[]): { server: Server; requests: number } {
  const state = { server: undefined as unknown as Server, requests: 0 };
  state.server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const a = answers[Math.min(state.requests++, answers.length - 1)]!;
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(JSON.stringify(a.body));
    });
  });
  return state;
}

const listen = (server: Server, port: number) => new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
const close = (server: Server) => new Promise((r) => server.close(r));

/** A clock that starts at 0 and jumps over every sleep; `onSleep` runs before the sleep returns. */
function testClock(seed: string, onSleep: (n: number) => Promise<void> = async () => undefined): RetryClock & { waits: number[] } {
  let t = 0;
  const waits: number[] = [];
  return {
    waits, now: () => t, random: seedrandom(seed),
    async sleep(ms) {
      waits.push(ms);
      t += ms;
      await onSleep(waits.length);
    },
  };
}

const noTools: AgentTools = { tools: [], handbook: [], call: async () => ({ text: 'no tools here', isError: true }), close: async () => undefined };

function config(baseUrl: string, over: Partial<LlmConfig> = {}): LlmConfig {
  return { api: 'chat', baseUrl, apiKey: 'sk-test', model: 'scripted-model', maxSteps: 4, budgetS: 600, prices: { in: 2, out: 8, cachedIn: 0.5 }, retry: DEFAULT_RETRY, ...over };
}

async function turn(c: LlmConfig, clock: RetryClock): Promise<{ reached: boolean; lines: TranscriptLine[] }> {
  const lines: TranscriptLine[] = [];
  const reached = await runTurn(c, noTools, 'Please check the leave calendar.', (l) => lines.push(l), { clock });
  return { reached, lines };
}

describe('a turn whose endpoint refuses, then answers 500, then 429, then works', () => {
  let endpoint: ReturnType<typeof scripted>;
  let result: Awaited<ReturnType<typeof turn>>;
  let clock: ReturnType<typeof testClock>;

  beforeAll(async () => {
    // Given a port nothing listens on yet, and an endpoint that will answer 500, then 429 with Retry-After: 0, then a completion
    const port = await closedPort();
    endpoint = scripted([{ status: 500, body: { error: { message: 'upstream overloaded' } } }, { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down' } } }, ANSWER]);
    // ... that starts listening while the agent waits after its first refused connection
    clock = testClock('retry-seed', async (n) => (n === 1 ? listen(endpoint.server, port) : undefined));
    // When the agent plays one turn against it
    result = await turn(config(endpointAt(port)), clock);
  });
  afterAll(() => close(endpoint.server));

  it('retries through each failure and the turn ends answered', () => {
    expect(result.reached).toBe(true);
    expect(result.lines.map((l) => l.type)).toEqual(['system', 'provider_retry', 'provider_retry', 'provider_retry', 'model_call', 'end']);
    expect(result.lines.at(-1)).toEqual({ type: 'end', reason: 'answered', steps: 1 });
    expect(endpoint.requests).toBe(3);
  });

  it('records what failed each time: the connection, HTTP 500 with the provider\'s message, HTTP 429', () => {
    const retries = result.lines.filter((l) => l.type === 'provider_retry');
    expect(retries.map((r) => [r.retry, r.status])).toEqual([[1, null], [2, 500], [3, 429]]);
    expect(retries[0]!.message).toMatch(/ECONNREFUSED|fetch failed/);
    expect(retries[1]!.message).toBe('upstream overloaded');
  });

  it('backs off exponentially with seeded jitter, and waits what Retry-After asks', () => {
    const random = seedrandom('retry-seed');
    expect(clock.waits).toEqual([backoffMs(DEFAULT_RETRY, 1, random), backoffMs(DEFAULT_RETRY, 2, random), 0]);
    expect(clock.waits[0]).toBeGreaterThanOrEqual(500);
    expect(clock.waits[0]).toBeLessThanOrEqual(1000);
    expect(clock.waits[1]).toBeGreaterThanOrEqual(1000);
    expect(clock.waits[1]).toBeLessThanOrEqual(2000);
  });

  it('records the call\'s tokens, cached ones apart, priced at the cached price', () => {
    const call = result.lines.find((l) => l.type === 'model_call')!;
    expect(call).toMatchObject({ tokens_in: 120, tokens_out: 8, tokens_cached: 100, text: 'Nothing to do.', tool_calls: [] });
    expect(call.type === 'model_call' && call.cost_usd).toBeCloseTo((20 * 2 + 100 * 0.5 + 8 * 8) / 1e6, 12);
  });
});

describe('a turn that cannot reach its model', () => {
  it('ends with provider_error when the endpoint keeps refusing and the budget allows no more tries', async () => {
    // Given an endpoint that refuses every connection and a turn with 2 s to spare
    const port = await closedPort();
    const clock = testClock('budget');
    // When the agent plays the turn
    const { reached, lines } = await turn(config(endpointAt(port), { budgetS: MARGIN_S + 2 }), clock);
    // Then it gave up within the budget, saying why
    expect(reached).toBe(false);
    const end = lines.at(-1)!;
    expect(end).toMatchObject({ type: 'end', reason: 'provider_error', steps: 1, error: { status: null } });
    expect(end.type === 'end' && end.error!.message).toMatch(/the turn's time does not allow another try/);
    expect(clock.now()).toBeLessThan(2000);
    expect(lines.some((l) => l.type === 'model_call')).toBe(false);
  });

  it('ends with provider_error after the retries it is allowed', async () => {
    const endpoint = scripted([{ status: 503, body: { error: { message: 'down for maintenance' } } }]);
    const port = await closedPort();
    await listen(endpoint.server, port);
    try {
      const { reached, lines } = await turn(config(endpointAt(port), { retry: { ...DEFAULT_RETRY, maxRetries: 2 } }), testClock('count'));
      expect(reached).toBe(false);
      expect(endpoint.requests).toBe(3);
      expect(lines.at(-1)).toMatchObject({ reason: 'provider_error', error: { status: 503, message: expect.stringContaining('HTTP 503: down for maintenance (gave up after 3 tries)') } });
    } finally {
      await close(endpoint.server);
    }
  });

  it.each([400, 401])('does not retry HTTP %i: a provider error at once, not a model failure', async (status) => {
    const endpoint = scripted([{ status, body: { error: { message: 'invalid request' } } }, ANSWER]);
    const port = await closedPort();
    await listen(endpoint.server, port);
    try {
      const clock = testClock('4xx');
      const { reached, lines } = await turn(config(endpointAt(port)), clock);
      expect(reached).toBe(false);
      expect(endpoint.requests).toBe(1);
      expect(clock.waits).toEqual([]);
      expect(lines.at(-1)).toEqual({ type: 'end', reason: 'provider_error', steps: 1, error: { status, message: `HTTP ${status}: invalid request` } });
    } finally {
      await close(endpoint.server);
    }
  });

  it('ends with provider_error when the provider answers 200 with something that is not a completion', async () => {
    const endpoint = scripted([{ status: 200, body: { error: { message: 'quota exceeded' } } }]);
    const port = await closedPort();
    await listen(endpoint.server, port);
    try {
      const { reached, lines } = await turn(config(endpointAt(port)), testClock('not-an-answer'));
      expect(reached).toBe(false);
      expect(lines.at(-1)).toMatchObject({ reason: 'provider_error', error: { status: 200, message: expect.stringContaining('not a chat answer') } });
    } finally {
      await close(endpoint.server);
    }
  });
});

describe('the wait a provider asks for', () => {
  it('reads retry-after-ms, Retry-After in seconds and as a date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), 0)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), 0)).toBe(3000);
    const now = Date.parse('2026-10-12T09:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 12 Oct 2026 09:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({}), now)).toBeUndefined();
  });

  it('caps the backoff and draws the same jitter from the same seed', () => {
    const waits = (seed: string) => {
      const random = seedrandom(seed);
      return [1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffMs(DEFAULT_RETRY, n, random));
    };
    expect(waits('a')).toEqual(waits('a'));
    expect(Math.max(...waits('a'))).toBeLessThanOrEqual(DEFAULT_RETRY.maxMs);
  });
});
