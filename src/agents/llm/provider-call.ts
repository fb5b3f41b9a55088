import seedrandom from 'seedrandom';

/**
 * One request to the model provider, retried when the provider (not the model) failed: a
 * connection error, HTTP 408, 429 or 5xx. Other answers are final: 2xx is the model's, any other
 * 4xx a provider error not worth repeating (a bad key, a refused request).
 */
export interface ProviderRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The provider could not be reached or refused the request: not something the model did. */
export class ProviderError extends Error {
  constructor(message: string, readonly status: number | null, readonly retries: number) {
    super(message);
  }
}

export interface RetryPolicy {
  /** Retries after the first request; 0 sends it once. */
  maxRetries: number;
  /** The first wait; each retry doubles it, up to maxMs. */
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 6, baseMs: 1000, maxMs: 30_000 };

/** What a provider call waits with: the wall clock and sleeps in the agent, fakes in tests. */
export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1): the jitter, from a seeded source so a run's waits are reproducible. */
  random(): number;
}

export function systemClock(seed: string): RetryClock {
  return { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), random: seedrandom(seed) };
}

/** A retry announced before its wait: what failed and how long the agent waits. */
export interface RetryNotice {
  retry: number;
  status: number | null;
  message: string;
  wait_ms: number;
}

const RETRIED_STATUS = (status: number) => status === 408 || status === 429 || status >= 500;

/** The wait the provider asked for (retry-after-ms, or Retry-After in seconds or as a date), in ms. */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: base·2^n capped at maxMs, then between half and all of it. */
export function backoffMs(policy: RetryPolicy, retry: number, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

function connectionMessage(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause && !e.message.includes(cause) ? `${e.message} (${cause})` : e.message;
}

async function errorText(res: Response): Promise<string> {
  const text = (await res.text().catch(() => '')).trim();
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message ?? parsed.message;
    if (message) return message;
  } catch {
    // not JSON: the text as it came
  }
  return text.slice(0, 500) || res.statusText;
}

/**
 * POSTs the request as JSON and returns the parsed answer; retries provider failures with backoff
 * (the provider's Retry-After when it gives one) while the next try can start before `deadline`.
 * Throws a ProviderError when it gives up.
 */
export async function postJson(req: ProviderRequest, o: { fetch: typeof fetch; deadline: number; clock: RetryClock; policy: RetryPolicy; onRetry?: (n: RetryNotice) => void }): Promise<unknown> {
  for (let retry = 0; ; retry++) {
    let status: number | null = null;
    let message: string;
    let asked: number | undefined;
    const left = o.deadline - o.clock.now();
    if (left <= 0) throw new ProviderError('The turn\'s time ran out before the model could be asked.', null, retry);
    try {
      const res = await o.fetch(req.url, { method: 'POST', headers: { 'content-type': 'application/json', ...req.headers }, body: JSON.stringify(req.body), signal: AbortSignal.timeout(left) });
      if (res.ok) {
        const text = await res.text();
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new ProviderError(`The provider answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`, res.status, retry);
        }
      }
      status = res.status;
      message = await errorText(res);
      asked = retryAfterMs(res.headers, o.clock.now());
      if (!RETRIED_STATUS(status)) throw new ProviderError(`HTTP ${status}: ${message}`, status, retry);
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      message = connectionMessage(err);
    }
    const described = status === null ? message : `HTTP ${status}: ${message}`;
    if (retry >= o.policy.maxRetries) throw new ProviderError(`${described} (gave up after ${retry + 1} tries)`, status, retry);
    const wait = asked ?? backoffMs(o.policy, retry + 1, o.clock.random);
    if (o.clock.now() + wait >= o.deadline) throw new ProviderError(`${described} (the turn's time does not allow another try after ${retry + 1})`, status, retry);
    o.onRetry?.({ retry: retry + 1, status, message, wait_ms: wait });
    await o.clock.sleep(wait);
  }
}
