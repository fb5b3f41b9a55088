import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AgentTools } from './tools';
import { proxyFor, tunnelFetch } from './tunnel-fetch';
import { costOf, type TranscriptLine } from './usage';

/** The agent's settings, which the runner passes as BB_LLM_* variables (see llmAgentEnv). */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  maxSteps: number;
  /** The turn's budget: no model call starts within `marginS` of it. */
  budgetS: number;
  prices: { in: number; out: number } | null;
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
  if (!baseUrl) throw new Error('BB_LLM_BASE_URL is not set: the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1.');
  if (!model) throw new Error('BB_LLM_MODEL is not set.');
  const priceIn = number(env, 'BB_LLM_PRICE_IN');
  const priceOut = number(env, 'BB_LLM_PRICE_OUT');
  return {
    baseUrl, model, apiKey: env.BB_LLM_API_KEY || 'none',
    maxSteps: number(env, 'BB_LLM_MAX_STEPS') ?? 60,
    budgetS: number(env, 'BB_LLM_BUDGET_S') ?? 600,
    prices: priceIn !== undefined && priceOut !== undefined ? { in: priceIn, out: priceOut } : null,
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

/**
 * One turn of the reference agent: the prompt, then chat-completions requests with the tools until
 * the model answers without a tool call, the step limit, or the turn's budget. Each request and each
 * tool call is one transcript line to `out`.
 */
export async function runTurn(config: LlmConfig, tools: AgentTools, prompt: string, out: (line: TranscriptLine) => void, now: () => number = Date.now): Promise<void> {
  const started = now();
  const openai = new OpenAI({ baseURL: config.baseUrl, apiKey: config.apiKey, maxRetries: 2, timeout: Math.max(1, config.budgetS - MARGIN_S) * 1000, ...(config.proxy ? { fetch: tunnelFetch(config.proxy) } : {}) });
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt(tools.handbook) }, { role: 'user', content: prompt }];
  let step = 0;
  while (true) {
    if (step >= config.maxSteps) return out({ type: 'end', reason: 'steps', steps: step });
    if ((now() - started) / 1000 > config.budgetS - MARGIN_S) return out({ type: 'end', reason: 'budget', steps: step });
    step++;
    const res = await openai.chat.completions.create({ model: config.model, messages, tools: tools.tools, tool_choice: 'auto' });
    const choice = res.choices[0];
    const tokensIn = res.usage?.prompt_tokens ?? 0;
    const tokensOut = res.usage?.completion_tokens ?? 0;
    out({ type: 'model_call', step, model: res.model ?? config.model, tokens_in: tokensIn, tokens_out: tokensOut, cost_usd: costOf(tokensIn, tokensOut, config.prices), finish_reason: choice?.finish_reason ?? null, message: choice?.message ?? null });
    const message = choice?.message;
    if (!message) return out({ type: 'end', reason: 'answered', steps: step });
    messages.push(message);
    const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
    if (calls.length === 0) return out({ type: 'end', reason: 'answered', steps: step });
    for (const call of calls) {
      let args: Record<string, unknown>;
      let result;
      try {
        args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>;
        result = await tools.call(call.function.name, args);
      } catch (err) {
        args = { unparsed: call.function.arguments };
        result = { text: `The call could not be made: ${(err as Error).message}`, isError: true };
      }
      out({ type: 'tool_call', step, name: call.function.name, arguments: args, is_error: result.isError, result: result.text });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result.isError ? `ERROR: ${result.text}` : result.text });
    }
  }
}
