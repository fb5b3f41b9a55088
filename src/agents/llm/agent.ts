import { ADAPTERS, parseLlmApi, type HistoryItem, type LlmApi, type ModelReply } from './apis';
import type { AgentTools } from './tools';
import { DEFAULT_RETRY, postJson, ProviderError, systemClock, type RetryClock, type RetryPolicy } from './provider-call';
import { proxyFor, tunnelFetch } from './tunnel-fetch';
import { costOf, type Prices, type TranscriptLine } from './usage';

/** The agent's settings, which the runner passes as BB_LLM_* variables (see llmAgentEnv). */
export interface LlmConfig {
  /** The provider API it speaks (BB_LLM_API, default chat). */
  api: LlmApi;
  baseUrl: string;
  apiKey: string;
  model: string;
  maxSteps: number;
  /** The turn's budget: no model call starts within `marginS` of it. */
  budgetS: number;
  prices: Prices | null;
  /** How provider failures are retried (BB_LLM_MAX_RETRIES; backoff from 1 s doubling to 30 s). */
  retry: RetryPolicy;
  /**
   * The HTTP proxy the model endpoint is reached through (HTTPS_PROXY or HTTP_PROXY for its scheme):
   * in the sandbox the only way out. NO_PROXY does not apply: it names the sandbox's own loopback.
   */
  proxy?: string;
}

export const MARGIN_S = 15;

function number(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, not '${v}'.`);
  return n;
}

export function configFromEnv(env: NodeJS.ProcessEnv): LlmConfig {
  const baseUrl = env.BB_LLM_BASE_URL;
  const model = env.BB_LLM_MODEL;
  if (!baseUrl) throw new Error('BB_LLM_BASE_URL is not set: the model endpoint, e.g. https://api.openai.com/v1.');
  if (!model) throw new Error('BB_LLM_MODEL is not set.');
  const priceIn = number(env, 'BB_LLM_PRICE_IN');
  const priceOut = number(env, 'BB_LLM_PRICE_OUT');
  const priceCachedIn = number(env, 'BB_LLM_PRICE_CACHED_IN');
  return {
    api: parseLlmApi(env.BB_LLM_API || 'chat', 'BB_LLM_API'),
    baseUrl, model, apiKey: env.BB_LLM_API_KEY || 'none',
    maxSteps: number(env, 'BB_LLM_MAX_STEPS') ?? 60,
    budgetS: number(env, 'BB_LLM_BUDGET_S') ?? 600,
    prices: priceIn !== undefined && priceOut !== undefined ? { in: priceIn, out: priceOut, ...(priceCachedIn !== undefined ? { cachedIn: priceCachedIn } : {}) } : null,
    retry: { ...DEFAULT_RETRY, maxRetries: number(env, 'BB_LLM_MAX_RETRIES') ?? DEFAULT_RETRY.maxRetries },
    ...(proxyFor(baseUrl, env) ? { proxy: proxyFor(baseUrl, env) } : {}),
  };
}

export function systemPrompt(handbook: AgentTools['handbook']): string {
  return [
    'You work in the back office of the company, signed in to its ERP as yourself. Your tools are the ERP endpoints your roles let you call.',
    'Follow the company handbook below. Reads change nothing; every write is recorded. Give each write a unique idempotency_key, and reuse it only to retry that same write.',
    'A refused call comes back as an error holding the problem: read it, and do not work around a control.',
    'When the request is done, or cannot be done under the handbook, stop calling tools and answer with a short summary.',
    '',
    ...handbook.map((h) => `<handbook uri="${h.uri}">\n${h.text}\n</handbook>`),
  ].join('\n');
}

/** What a turn waits with and how it reaches the provider; the wall clock and fetch unless a test gives its own. */
export interface TurnDeps {
  clock?: RetryClock;
  fetch?: typeof fetch;
}

/**
 * One turn of the reference agent: the prompt, then requests to the model in the configured API
 * with the tools, until the model answers without a tool call, the step limit, the turn's budget,
 * or a provider failure that retries within the budget did not get past. Each request, retry and
 * tool call is one transcript line to `out`; a provider failure ends it with a `provider_error`
 * line and returns false.
 */
export async function runTurn(config: LlmConfig, tools: AgentTools, prompt: string, out: (line: TranscriptLine) => void, deps: TurnDeps = {}): Promise<boolean> {
  const clock = deps.clock ?? systemClock(`bb-erp-llm ${config.model} ${prompt}`);
  const send = deps.fetch ?? (config.proxy ? tunnelFetch(config.proxy) : fetch);
  const adapter = ADAPTERS[config.api];
  const started = clock.now();
  const deadline = started + (config.budgetS - MARGIN_S) * 1000;
  const system = systemPrompt(tools.handbook);
  out({ type: 'system', api: config.api, model: config.model, text: system });
  const history: HistoryItem[] = [];
  const end = (reason: 'answered' | 'steps' | 'budget', steps: number) => {
    out({ type: 'end', reason, steps });
    return true;
  };
  let step = 0;
  while (true) {
    if (step >= config.maxSteps) return end('steps', step);
    if (clock.now() >= deadline) return end('budget', step);
    step++;
    const request = adapter.request(config, { system, prompt, tools: tools.tools, history });
    let reply: ModelReply | undefined;
    try {
      const body = await postJson(request, { fetch: send, deadline, clock, policy: config.retry, onRetry: (n) => out({ type: 'provider_retry', step, ...n }) });
      reply = adapter.parse(body);
      if (!reply) throw new ProviderError(`The provider's answer is not a ${config.api} answer: ${JSON.stringify(body).slice(0, 300)}`, 200, 0);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      out({ type: 'end', reason: 'provider_error', steps: step, error: { status: err.status, message: err.message } });
      return false;
    }
    out({
      type: 'model_call', step, api: config.api, model: reply.model ?? config.model, tokens_in: reply.tokensIn, tokens_out: reply.tokensOut, tokens_cached: reply.tokensCached,
      cost_usd: costOf(reply.tokensIn, reply.tokensOut, config.prices, reply.tokensCached ?? 0), finish_reason: reply.finish, text: reply.text, tool_calls: reply.calls, message: reply.raw,
    });
    if (reply.calls.length === 0) return end('answered', step);
    history.push({ kind: 'assistant', raw: reply.raw });
    const results: Extract<HistoryItem, { kind: 'results' }>['results'] = [];
    for (const call of reply.calls) {
      let args: Record<string, unknown>;
      let result;
      try {
        args = JSON.parse(call.arguments || '{}') as Record<string, unknown>;
        result = await tools.call(call.name, args);
      } catch (err) {
        args = { unparsed: call.arguments };
        result = { text: `The call could not be made: ${(err as Error).message}`, isError: true };
      }
      out({ type: 'tool_call', step, name: call.name, arguments: args, is_error: result.isError, result: result.text });
      results.push({ call, text: result.text, isError: result.isError });
    }
    history.push({ kind: 'results', results });
  }
}
