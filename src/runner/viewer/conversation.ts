/**
 * A turn of the reference LLM agent as a conversation, read from its transcript (turns/<n>/stdout.txt,
 * the lines of src/agents/llm/usage.ts): the system message, each model call with its text and the
 * tool calls it asked for, each with its result, the provider's failures and how the turn ended.
 */
export interface ToolExchange {
  name: string;
  arguments: unknown;
  result: string;
  isError: boolean;
}

export type ConversationEntry =
  | { kind: 'model'; step: number; model: string; text: string | null; tokensIn: number; tokensOut: number; tokensCached: number | null; costUsd: number | null; finish: string | null; tools: ToolExchange[] }
  | { kind: 'retry'; step: number; retry: number; status: number | null; message: string; waitMs: number }
  | { kind: 'end'; reason: string; steps: number; error: { status: number | null; message: string } | null };

export interface ConversationView {
  api: string | null;
  system: string | null;
  entries: ConversationEntry[];
}

/** The most of one text (a tool result, the system message) the viewer shows; the transcript holds the rest. */
const MAX_PART = 8_000;

function clip(s: string): string {
  return s.length > MAX_PART ? `${s.slice(0, MAX_PART)}\n… (${s.length - MAX_PART} more characters in the transcript)` : s;
}

const num = (v: unknown) => (typeof v === 'number' ? v : null);

/** The text of a model call from a transcript written before calls recorded their text: a chat message's content. */
function textOf(line: Record<string, unknown>): string | null {
  if (typeof line.text === 'string') return line.text;
  if (line.text === null) return null;
  const message = line.message as { content?: unknown } | null | undefined;
  return typeof message?.content === 'string' ? message.content : null;
}

/** The conversation in a turn's stdout; undefined when it is not the reference agent's transcript. */
export function conversationOf(stdout: string): ConversationView | undefined {
  const lines: Record<string, unknown>[] = [];
  for (const raw of stdout.split('\n')) {
    if (!raw.trim().startsWith('{')) continue;
    try {
      lines.push(JSON.parse(raw) as Record<string, unknown>);
    } catch {
      // a line cut short: the rest is still read
    }
  }
  if (!lines.some((l) => l.type === 'model_call' || l.type === 'system')) return undefined;
  const view: ConversationView = { api: null, system: null, entries: [] };
  let current: Extract<ConversationEntry, { kind: 'model' }> | undefined;
  for (const l of lines) {
    if (l.type === 'system') {
      view.api = typeof l.api === 'string' ? l.api : null;
      view.system = clip(String(l.text ?? ''));
    } else if (l.type === 'model_call') {
      current = {
        kind: 'model', step: num(l.step) ?? 0, model: String(l.model ?? ''), text: textOf(l), tokensIn: num(l.tokens_in) ?? 0, tokensOut: num(l.tokens_out) ?? 0,
        tokensCached: num(l.tokens_cached), costUsd: num(l.cost_usd), finish: typeof l.finish_reason === 'string' ? l.finish_reason : null, tools: [],
      };
      view.entries.push(current);
    } else if (l.type === 'tool_call' && current) {
      current.tools.push({ name: String(l.name), arguments: l.arguments, result: clip(String(l.result ?? '')), isError: l.is_error === true });
    } else if (l.type === 'provider_retry') {
      view.entries.push({ kind: 'retry', step: num(l.step) ?? 0, retry: num(l.retry) ?? 0, status: num(l.status), message: String(l.message ?? ''), waitMs: num(l.wait_ms) ?? 0 });
    } else if (l.type === 'end') {
      const error = l.error as { status?: unknown; message?: unknown } | undefined;
      view.entries.push({ kind: 'end', reason: String(l.reason), steps: num(l.steps) ?? 0, error: error ? { status: num(error.status), message: String(error.message ?? '') } : null });
    }
  }
  return view;
}
