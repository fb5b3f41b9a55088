/**
 * The runner's side of the reference LLM agent (src/agents/llm/): where its model is and what it
 * may spend, handed to it as BB_LLM_* variables. The API key is read from the runner's environment
 * (the variable --llm-key-env names, OPENAI_API_KEY by default) and reaches only the agent.
 */
export interface LlmSettings {
  /** An OpenAI-compatible endpoint, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  apiKey?: string;
  /** Model requests per turn. */
  maxSteps: number;
  /** USD per million tokens in and out, for the estimated cost; both or neither. */
  prices?: { in: number; out: number };
}

export const DEFAULT_MAX_STEPS = 60;

/** The limits the adapter was given (seed 000 §5), recorded apart from the usage it observed. */
export function llmLimits(s: LlmSettings): { max_steps: number; prices_usd_per_mtok: { in: number; out: number } | null } {
  return { max_steps: s.maxSteps, prices_usd_per_mtok: s.prices ?? null };
}

export function llmAgentEnv(s: LlmSettings, model: string, budgetS: number): Record<string, string> {
  return {
    BB_LLM_BASE_URL: s.baseUrl,
    BB_LLM_MODEL: model,
    BB_LLM_MAX_STEPS: String(s.maxSteps),
    BB_LLM_BUDGET_S: String(budgetS),
    ...(s.apiKey ? { BB_LLM_API_KEY: s.apiKey } : {}),
    ...(s.prices ? { BB_LLM_PRICE_IN: String(s.prices.in), BB_LLM_PRICE_OUT: String(s.prices.out) } : {}),
  };
}

/** The llm agent's settings as an operator gives them (bench run's `--llm-*` flags, a campaign agent's `llm:`). */
export interface LlmFlags { baseUrl?: string; keyEnv?: string; maxSteps?: number; priceIn?: number; priceOut?: number }

/** The settings from bench run's flags, the endpoint and key falling back to the runner's environment. */
export function llmSettings(flags: LlmFlags, env: NodeJS.ProcessEnv = process.env): LlmSettings {
  const baseUrl = flags.baseUrl ?? env.OPENAI_BASE_URL;
  if (!baseUrl) throw new Error('The llm agent needs an OpenAI-compatible endpoint: --llm-base-url or OPENAI_BASE_URL.');
  if ((flags.priceIn === undefined) !== (flags.priceOut === undefined)) throw new Error('--llm-price-in and --llm-price-out go together.');
  const apiKey = env[flags.keyEnv ?? 'OPENAI_API_KEY'];
  return {
    baseUrl, maxSteps: flags.maxSteps ?? DEFAULT_MAX_STEPS,
    ...(apiKey ? { apiKey } : {}),
    ...(flags.priceIn !== undefined ? { prices: { in: flags.priceIn, out: flags.priceOut! } } : {}),
  };
}
