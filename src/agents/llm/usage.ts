/**
 * What the reference LLM agent writes, one JSON object a line, to its turn's stdout (which the
 * runner keeps in turns/<n>/stdout.txt, outside the workspace): a `model_call` line per
 * chat-completions request with the tokens the endpoint reported, a `tool_call` line per call it
 * made, and an `end` line. The runner sums the `model_call` lines into the attempt's usage.
 */
export interface ModelCallLine {
  type: 'model_call';
  step: number;
  model: string;
  tokens_in: number;
  tokens_out: number;
  /** From the operator's prices (BB_LLM_PRICE_IN, BB_LLM_PRICE_OUT: USD per million tokens); null without them. */
  cost_usd: number | null;
  finish_reason: string | null;
  message: unknown;
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
  /** answered: the model stopped calling tools; steps: the step limit; budget: the turn's time ran short. */
  reason: 'answered' | 'steps' | 'budget';
  steps: number;
}

export type TranscriptLine = ModelCallLine | ToolCallLine | EndLine;

/** Model usage of a turn or an attempt, as the attempt records it (seed 000 §5: observed usage). */
export interface ModelUsage {
  model_calls: number;
  tokens_in: number;
  tokens_out: number;
  /** Null when any call had no price. */
  cost_usd: number | null;
}

export const NO_USAGE: ModelUsage = { model_calls: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0 };

/** Estimated cost in USD of one call, from prices per million tokens. */
export function costOf(tokensIn: number, tokensOut: number, prices: { in: number; out: number } | null): number | null {
  if (!prices) return null;
  return Math.round((tokensIn * prices.in + tokensOut * prices.out)) / 1e6;
}

export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    model_calls: a.model_calls + b.model_calls,
    tokens_in: a.tokens_in + b.tokens_in,
    tokens_out: a.tokens_out + b.tokens_out,
    cost_usd: a.cost_usd === null || b.cost_usd === null ? null : Math.round((a.cost_usd + b.cost_usd) * 1e6) / 1e6,
  };
}

/** The usage in a turn's transcript; lines that are not the agent's JSON are skipped. */
export function usageOfTranscript(text: string): ModelUsage {
  let usage = NO_USAGE;
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let parsed: Partial<ModelCallLine>;
    try {
      parsed = JSON.parse(line) as Partial<ModelCallLine>;
    } catch {
      continue;
    }
    if (parsed.type !== 'model_call' || !Number.isInteger(parsed.tokens_in) || !Number.isInteger(parsed.tokens_out)) continue;
    usage = addUsage(usage, { model_calls: 1, tokens_in: parsed.tokens_in!, tokens_out: parsed.tokens_out!, cost_usd: typeof parsed.cost_usd === 'number' ? parsed.cost_usd : null });
  }
  return usage;
}
