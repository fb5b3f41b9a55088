import { Flags } from '@oclif/core';
import { LLM_APIS, type LlmApi } from '../agents/llm/apis';
import type { LlmFlags } from './llm-agent';

/** `--tool-budget`, the same in `erp bench run` and `erp bench campaign`. */
export const toolBudgetFlag = Flags.string({ description: "the most tools erp mcp offers an agent working through it (the llm agent, a cmd: agent with --interface mcp), its own tools counted: a whole number, or 'all' for one tool per endpoint (default 64); part of the cell" });

/** The llm agent's `--llm-*` flags, the same in `erp bench run` and `erp bench campaign`. */
export const llmFlagDefinitions = {
  'llm-api': Flags.string({ options: [...LLM_APIS], description: "the provider API the llm agent speaks: chat (chat completions, default), responses (OpenAI Responses) or messages (Anthropic Messages); part of the agent's name, so cells of different APIs never mix" }),
  'llm-base-url': Flags.string({ description: "the llm agent's API base URL (default: OPENAI_BASE_URL), e.g. https://api.openai.com/v1 or https://api.anthropic.com/v1" }),
  'llm-key-env': Flags.string({ description: "the runner variable holding the llm agent's API key (default OPENAI_API_KEY); it reaches only the agent" }),
  'llm-max-steps': Flags.integer({ min: 1, description: 'model requests per turn for the llm agent (default 60)' }),
  'llm-max-retries': Flags.integer({ min: 0, description: 'retries of a provider failure (connection error, HTTP 408, 429, 5xx) per model request, with backoff within the turn budget (default 6)' }),
  'llm-price-in': Flags.string({ description: "USD per million input tokens, for the llm agent's estimated cost" }),
  'llm-price-out': Flags.string({ description: 'USD per million output tokens' }),
  'llm-price-cached-in': Flags.string({ description: 'USD per million input tokens read from the provider\'s cache (default: the input price)' }),
};

function price(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(n)) throw new Error(`A price is a decimal number of USD per million tokens, not '${text}'.`);
  return n;
}

type Parsed = { 'llm-api'?: string; 'llm-base-url'?: string; 'llm-key-env'?: string; 'llm-max-steps'?: number; 'llm-max-retries'?: number; 'llm-price-in'?: string; 'llm-price-out'?: string; 'llm-price-cached-in'?: string };

/** The parsed `--llm-*` flags as settings; undefined when none was given. */
export function llmFlagsFrom(f: Parsed): LlmFlags | undefined {
  const given: LlmFlags = {
    api: f['llm-api'] as LlmApi | undefined, baseUrl: f['llm-base-url'], keyEnv: f['llm-key-env'], maxSteps: f['llm-max-steps'], maxRetries: f['llm-max-retries'],
    priceIn: price(f['llm-price-in']), priceOut: price(f['llm-price-out']), priceCachedIn: price(f['llm-price-cached-in']),
  };
  return Object.values(given).some((v) => v !== undefined) ? given : undefined;
}
