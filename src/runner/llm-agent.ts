import { LLM_APIS, type LlmApi } from '../agents/llm/apis';
import { DEFAULT_RETRY } from '../agents/llm/provider-call';
import type { Prices } from '../agents/llm/usage';

/**
 * The runner's side of the reference LLM agent (src/agents/llm/): where its model is and what it
 * may spend, handed to it as BB_LLM_* variables. The API key is read from the runner's environment
 * (the variable --llm-key-env names, OPENAI_API_KEY by default) and reaches only the agent.
 */
export interface LlmSettings {
  /** The provider API the agent speaks: chat completions, OpenAI Responses or Anthropic Messages. */
  api: LlmApi;
  /** The API's base URL, e.g. https://api.openai.com/v1 or https://api.anthropic.com/v1. */
  baseUrl: string;
  apiKey?: string;
  /** Model requests per turn. */
  maxSteps: number;
  /** Retries of a provider failure (connection error, 408, 429, 5xx) per model request, within the turn's budget. */
  maxRetries: number;
  /** USD per million tokens in and out (and cached in, priced as input when not given), for the estimated cost; in and out both or neither. */
  prices?: Prices;
}

export const DEFAULT_MAX_STEPS = 60;

/** The limits the adapter was given (seed 000 §5), recorded apart from the usage it observed. */
export function llmLimits(s: LlmSettings): { max_steps: number; max_retries: number; prices_usd_per_mtok: { in: number; out: number; cached_in?: number } | null } {
  const prices = s.prices ? { in: s.prices.in, out: s.prices.out, ...(s.prices.cachedIn !== undefined ? { cached_in: s.prices.cachedIn } : {}) } : null;
  return { max_steps: s.maxSteps, max_retries: s.maxRetries, prices_usd_per_mtok: prices };
}

export function llmAgentEnv(s: LlmSettings, model: string, budgetS: number): Record<string, string> {
  return {
    BB_LLM_API: s.api,
    BB_LLM_BASE_URL: s.baseUrl,
    BB_LLM_MODEL: model,
    BB_LLM_MAX_STEPS: String(s.maxSteps),
    BB_LLM_MAX_RETRIES: String(s.maxRetries),
    BB_LLM_BUDGET_S: String(budgetS),
    ...(s.apiKey ? { BB_LLM_API_KEY: s.apiKey } : {}),
    ...(s.prices ? { BB_LLM_PRICE_IN: String(s.prices.in), BB_LLM_PRICE_OUT: String(s.prices.out) } : {}),
    ...(s.prices?.cachedIn !== undefined ? { BB_LLM_PRICE_CACHED_IN: String(s.prices.cachedIn) } : {}),
  };
}

/** The llm agent's settings as an operator gives them (bench run's `--llm-*` flags, a campaign agent's `llm:`). */
export interface LlmFlags { api?: LlmApi; baseUrl?: string; keyEnv?: string; maxSteps?: number; maxRetries?: number; priceIn?: number; priceOut?: number; priceCachedIn?: number }

/** The settings from bench run's flags, the endpoint and key falling back to the runner's environment. */
export function llmSettings(flags: LlmFlags, env: NodeJS.ProcessEnv = process.env): LlmSettings {
  const api = flags.api ?? 'chat';
  if (!(LLM_APIS as readonly string[]).includes(api)) throw new Error(`--llm-api must be ${LLM_APIS.join(', ')}, not '${api}'.`);
  const baseUrl = flags.baseUrl ?? env.OPENAI_BASE_URL;
  if (!baseUrl) throw new Error('The llm agent needs an OpenAI-compatible endpoint: --llm-base-url or OPENAI_BASE_URL.');
  if ((flags.priceIn === undefined) !== (flags.priceOut === undefined)) throw new Error('--llm-price-in and --llm-price-out go together.');
  if (flags.priceCachedIn !== undefined && flags.priceIn === undefined) throw new Error('--llm-price-cached-in needs --llm-price-in and --llm-price-out.');
  const apiKey = env[flags.keyEnv ?? 'OPENAI_API_KEY'];
  return {
    api, baseUrl, maxSteps: flags.maxSteps ?? DEFAULT_MAX_STEPS, maxRetries: flags.maxRetries ?? DEFAULT_RETRY.maxRetries,
    ...(apiKey ? { apiKey } : {}),
    ...(flags.priceIn !== undefined ? { prices: { in: flags.priceIn, out: flags.priceOut!, ...(flags.priceCachedIn !== undefined ? { cachedIn: flags.priceCachedIn } : {}) } } : {}),
  };
}
