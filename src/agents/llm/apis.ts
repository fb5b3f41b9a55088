import type { ProviderRequest } from './provider-call';

/**
 * The provider APIs the reference agent speaks (`--llm-api`): each a small adapter that writes the
 * whole conversation as one request of its API and reads the model's answer back into one shape.
 */
export const LLM_APIS = ['chat', 'responses', 'messages'] as const;
export type LlmApi = (typeof LLM_APIS)[number];

export function parseLlmApi(text: string, where = '--llm-api'): LlmApi {
  if ((LLM_APIS as readonly string[]).includes(text)) return text as LlmApi;
  throw new Error(`${where} must be ${LLM_APIS.join(', ')}, not '${text}'.`);
}

/** A tool the model may call: a name, what it does, and a JSON schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool call the model asked for; arguments as the JSON text it wrote. */
export interface AskedCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelReply {
  model: string | null;
  text: string | null;
  calls: AskedCall[];
  finish: string | null;
  /** Every input token the model read, cached ones included. */
  tokensIn: number;
  tokensOut: number;
  /** Input tokens read from the provider's cache; null when the provider does not say. */
  tokensCached: number | null;
  /** The answer's own items (a chat message, Responses output items, Messages content blocks), sent back as they came. */
  raw: unknown;
}

export type HistoryItem =
  | { kind: 'assistant'; raw: unknown }
  | { kind: 'results'; results: { call: AskedCall; text: string; isError: boolean }[] };

export interface Conversation {
  system: string;
  prompt: string;
  tools: readonly ToolSpec[];
  history: readonly HistoryItem[];
}

export interface Endpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
}

export interface ApiAdapter {
  request(endpoint: Endpoint, conversation: Conversation): ProviderRequest;
  /** The model's answer; undefined when the body is not an answer of this API at all. */
  parse(body: unknown): ModelReply | undefined;
}

/** The most a Messages answer may write; the API requires a bound. */
export const MESSAGES_MAX_TOKENS = 8192;

const url = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
const maybeCount = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);
// The providers' answers are read field by field, each checked where it is used.
type Json = Record<string, any>;

const toolText = (r: { text: string; isError: boolean }) => (r.isError ? `ERROR: ${r.text}` : r.text);

const chat: ApiAdapter = {
  request(e, c) {
    const messages: unknown[] = [{ role: 'system', content: c.system }, { role: 'user', content: c.prompt }];
    for (const item of c.history) {
      if (item.kind === 'assistant') messages.push(item.raw);
      else for (const r of item.results) messages.push({ role: 'tool', tool_call_id: r.call.id, content: toolText(r) });
    }
    return {
      url: url(e.baseUrl, 'chat/completions'), headers: { authorization: `Bearer ${e.apiKey}` },
      body: { model: e.model, messages, tools: c.tools.map((t) => ({ type: 'function', function: t })), tool_choice: 'auto' },
    };
  },
  parse(body) {
    const b = body as Json;
    if (!Array.isArray(b?.choices)) return undefined;
    const choice = b.choices[0];
    const message = choice?.message ?? null;
    const calls: AskedCall[] = (message?.tool_calls ?? []).filter((c: Json) => c.type === 'function').map((c: Json) => ({ id: String(c.id), name: String(c.function?.name), arguments: String(c.function?.arguments ?? '') }));
    return {
      model: b.model ?? null, text: typeof message?.content === 'string' ? message.content : null, calls, finish: choice?.finish_reason ?? null,
      tokensIn: count(b.usage?.prompt_tokens), tokensOut: count(b.usage?.completion_tokens), tokensCached: maybeCount(b.usage?.prompt_tokens_details?.cached_tokens),
      raw: message,
    };
  },
};

const responses: ApiAdapter = {
  request(e, c) {
    const input: unknown[] = [{ role: 'user', content: c.prompt }];
    for (const item of c.history) {
      if (item.kind === 'assistant') input.push(...(item.raw as unknown[]));
      else for (const r of item.results) input.push({ type: 'function_call_output', call_id: r.call.id, output: toolText(r) });
    }
    return {
      url: url(e.baseUrl, 'responses'), headers: { authorization: `Bearer ${e.apiKey}` },
      body: { model: e.model, instructions: c.system, input, tools: c.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false })), tool_choice: 'auto', store: false },
    };
  },
  parse(body) {
    const b = body as Json;
    if (!Array.isArray(b?.output)) return undefined;
    const output: Json[] = b.output;
    const text = output.filter((o) => o.type === 'message').flatMap((o) => (Array.isArray(o.content) ? o.content : [])).filter((p: Json) => p.type === 'output_text').map((p: Json) => String(p.text)).join('');
    const calls = output.filter((o) => o.type === 'function_call').map((o) => ({ id: String(o.call_id), name: String(o.name), arguments: String(o.arguments ?? '') }));
    return {
      model: b.model ?? null, text: text || null, calls, finish: b.status ?? null,
      tokensIn: count(b.usage?.input_tokens), tokensOut: count(b.usage?.output_tokens), tokensCached: maybeCount(b.usage?.input_tokens_details?.cached_tokens),
      raw: output,
    };
  },
};

/** Anthropic's tool results answer the tool_use blocks of the turn before, in one user message. */
const messages: ApiAdapter = {
  request(e, c) {
    const msgs: unknown[] = [{ role: 'user', content: c.prompt }];
    for (const item of c.history) {
      if (item.kind === 'assistant') msgs.push({ role: 'assistant', content: item.raw });
      else msgs.push({ role: 'user', content: item.results.map((r) => ({ type: 'tool_result', tool_use_id: r.call.id, content: r.text, ...(r.isError ? { is_error: true } : {}) })) });
    }
    return {
      url: url(e.baseUrl, 'messages'), headers: { 'x-api-key': e.apiKey, 'anthropic-version': '2023-06-01' },
      body: { model: e.model, max_tokens: MESSAGES_MAX_TOKENS, system: c.system, messages: msgs, tools: c.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })) },
    };
  },
  parse(body) {
    const b = body as Json;
    if (!Array.isArray(b?.content)) return undefined;
    const content: Json[] = b.content;
    const text = content.filter((p) => p.type === 'text').map((p) => String(p.text)).join('');
    const calls = content.filter((p) => p.type === 'tool_use').map((p) => ({ id: String(p.id), name: String(p.name), arguments: JSON.stringify(p.input ?? {}) }));
    const u = b.usage ?? {};
    // Anthropic counts cache reads and cache writes apart from input_tokens: all were read by the model.
    const cached = maybeCount(u.cache_read_input_tokens);
    return {
      model: b.model ?? null, text: text || null, calls, finish: b.stop_reason ?? null,
      tokensIn: count(u.input_tokens) + count(u.cache_read_input_tokens) + count(u.cache_creation_input_tokens), tokensOut: count(u.output_tokens), tokensCached: cached,
      raw: content,
    };
  },
};

export const ADAPTERS: Readonly<Record<LlmApi, ApiAdapter>> = { chat, responses, messages };
