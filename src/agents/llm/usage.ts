/**
 * What the reference LLM agent writes, one JSON object a line, to its turn's stdout (which the
 * runner keeps in turns/<n>/stdout.txt, outside the workspace): a `system` line with the system
 * message, a `model_call` line per request to the model with the tokens the provider reported, a
 * `provider_retry` line per retried provider failure, a `tool_call` line per call it made, and an
 * `end` line. The runner sums the `model_call` lines into the attempt's usage and reads a
 * `provider_error` end as an errored attempt.
 */
export interface SystemLine {
  type: 'system';
  api: string;
  model: string;
  text: string;
}

export interface ModelCallLine {
  type: 'model_call';
  step: number;
  api?: string;
  model: string;
  /** Every input token, cached ones included. */
  tokens_in: number;
  tokens_out: number;
  /** Of tokens_in, those read from the provider's cache; null when the provider does not say. */
  tokens_cached?: number | null;
  /** From the operator's prices (BB_LLM_PRICE_IN, BB_LLM_PRICE_OUT, BB_LLM_PRICE_CACHED_IN: USD per million tokens); null without them. */
  cost_usd: number | null;
  finish_reason: string | null;
  /** The model's text, and the tool calls it asked for (arguments as it wrote them). */
  text?: string | null;
  tool_calls?: { id: string; name: string; arguments: string }[];
  /** The answer as the provider sent it (a chat message, Responses output items, Messages content blocks). */
  message: unknown;
}

export interface ProviderRetryLine {
  type: 'provider_retry';
  step: number;
  retry: number;
  status: number | null;
  message: string;
  wait_ms: number;
}

export interface ToolCallLine {
  type: 'tool_call';
  step: number;
  name: string;
  arguments: unknown;
  is_error: boolean;
  result: string;
}

export interface EndLine {
  type: 'end';
  /**
   * answered: the model stopped calling tools; steps: the step limit; budget: the turn's time ran
   * short; provider_error: the model could not be reached (retries spent), `error` says why.
   */
  reason: 'answered' | 'steps' | 'budget' | 'provider_error';
  steps: number;
  error?: ProviderFailure;
}

/** A provider's failure as the transcript and the attempt record keep it. */
export interface ProviderFailure {
  /** The HTTP status; null for a connection error. */
  status: number | null;
  message: string;
}

export type TranscriptLine = SystemLine | ModelCallLine | ProviderRetryLine | ToolCallLine | EndLine;

/** The provider failure a turn's transcript ended with, if it ended with one. */
export function providerFailureOf(text: string): ProviderFailure | undefined {
  for (const line of text.split('\n').reverse()) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const parsed = JSON.parse(line) as Partial<EndLine>;
      if (parsed.type !== 'end') continue;
      if (parsed.reason !== 'provider_error') return undefined;
      const e = parsed.error;
      return { status: typeof e?.status === 'number' ? e.status : null, message: typeof e?.message === 'string' ? e.message : 'no message' };
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Model usage of a turn or an attempt, as the attempt records it (seed 000 §5: observed usage). */
export interface ModelUsage {
  model_calls: number;
  tokens_in: number;
  tokens_out: number;
  /** Null when any call had no price. */
  cost_usd: number | null;
}

export const NO_USAGE: ModelUsage = { model_calls: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0 };

/** USD per million tokens: input, output, and input read from the provider's cache (as input when not given). */
export interface Prices { in: number; out: number; cachedIn?: number }

/** Estimated cost in USD of one call, from prices per million tokens; `cached` of `tokensIn` at the cached price. */
export function costOf(tokensIn: number, tokensOut: number, prices: Prices | null, cached = 0): number | null {
  if (!prices) return null;
  const cachedIn = Math.min(cached, tokensIn);
  return Math.round(((tokensIn - cachedIn) * prices.in + cachedIn * (prices.cachedIn ?? prices.in) + tokensOut * prices.out)) / 1e6;
}

export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    model_calls: a.model_calls + b.model_calls,
    tokens_in: a.tokens_in + b.tokens_in,
    tokens_out: a.tokens_out + b.tokens_out,
    cost_usd: a.cost_usd === null || b.cost_usd === null ? null : Math.round((a.cost_usd + b.cost_usd) * 1e6) / 1e6,
  };
}

/**
 * The usage one line of a turn's stdout reports, in any of the forms the runner knows: the
 * reference agent's `model_call` line; Claude Code's `--output-format json` result (`usage` with
 * input and output tokens, `total_cost_usd`, `num_turns` model calls); a Codex CLI `--json`
 * `turn.completed` event (`usage`, no cost). Undefined for any other line.
 */
export function usageOfLine(line: string): ModelUsage | undefined {
  if (!line.startsWith('{')) return undefined;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const count = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);
  if (parsed.type === 'model_call') {
    const tokensIn = count(parsed.tokens_in);
    const tokensOut = count(parsed.tokens_out);
    if (tokensIn === undefined || tokensOut === undefined) return undefined;
    return { model_calls: 1, tokens_in: tokensIn, tokens_out: tokensOut, cost_usd: typeof parsed.cost_usd === 'number' ? parsed.cost_usd : null };
  }
  const usage = parsed.usage as Record<string, unknown> | undefined;
  if (!usage || typeof usage !== 'object') return undefined;
  const tokensIn = count(usage.input_tokens);
  const tokensOut = count(usage.output_tokens);
  if (tokensIn === undefined || tokensOut === undefined) return undefined;
  if (parsed.type === 'result') {
    // Claude Code counts cache reads and writes apart from input_tokens; all are input the model read.
    const cached = (count(usage.cache_read_input_tokens) ?? 0) + (count(usage.cache_creation_input_tokens) ?? 0);
    const cost = typeof parsed.total_cost_usd === 'number' ? parsed.total_cost_usd : null;
    return { model_calls: count(parsed.num_turns) ?? 1, tokens_in: tokensIn + cached, tokens_out: tokensOut, cost_usd: cost };
  }
  // Codex's input_tokens already include cached_input_tokens.
  if (parsed.type === 'turn.completed') return { model_calls: 1, tokens_in: tokensIn, tokens_out: tokensOut, cost_usd: null };
  return undefined;
}

/** The usage in a turn's stdout, summed over the lines that report some; other lines are skipped. */
export function usageOfTranscript(text: string): ModelUsage {
  let usage = NO_USAGE;
  for (const line of text.split('\n')) {
    const used = usageOfLine(line.trim());
    if (used) usage = addUsage(usage, used);
  }
  return usage;
}
