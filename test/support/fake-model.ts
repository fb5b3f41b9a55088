import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted model endpoint for the leave-cover smoke task's two turns. */
export interface Call { name: string; arguments: Record<string, unknown> }
export type Script = Record<1 | 2, Call[]>;

export interface Seen {
  /** The Authorization header; for the Messages API, its x-api-key header. */
  authorization: string | undefined;
  model: string; toolNames: string[]; system: string; turn: 1 | 2; toolResults: string[] }

export const TOKENS_IN = 1000;
export const TOKENS_OUT = 50;
/** Of TOKENS_IN, those the Responses and Messages answers say were read from the cache. */
export const TOKENS_CACHED = 600;

/** A provider failure the endpoint answers with before it plays the script. */
export interface Failure { status: number; headers?: Record<string, string> }

/** A free loopback port, closed again: a model endpoint that refuses connections until one listens there. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  return port;
}

export const endpointAt = (port: number) => `http://127.0.0.1:${port}/v1`;

type Body = Record<string, any>;

/** What a request of each API says: its turn (from the prompt), its step (the calls answered so far), what it sent. */
function readRequest(path: string, b: Body, key: string | undefined): Omit<Seen, 'turn'> & { prompt: string; step: number } | undefined {
  if (path === '/v1/chat/completions') {
    const messages = b.messages as { role: string; content: string }[];
    return { authorization: key, model: b.model, toolNames: b.tools.map((t: Body) => t.function.name), system: messages[0]!.content, prompt: messages[1]!.content, step: messages.filter((m) => m.role === 'assistant').length, toolResults: messages.filter((m) => m.role === 'tool').map((m) => m.content) };
  }
  if (path === '/v1/responses') {
    const input = b.input as Body[];
    return { authorization: key, model: b.model, toolNames: b.tools.map((t: Body) => t.name), system: b.instructions, prompt: input[0]!.content, step: input.filter((i) => i.type === 'function_call').length, toolResults: input.filter((i) => i.type === 'function_call_output').map((i) => i.output) };
  }
  if (path === '/v1/messages') {
    const messages = b.messages as { role: string; content: string | Body[] }[];
    const results = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((c) => c.type === 'tool_result').map((c) => c.content as string);
    return { authorization: key, model: b.model, toolNames: b.tools.map((t: Body) => t.name), system: b.system, prompt: messages[0]!.content as string, step: messages.filter((m) => m.role === 'assistant').length, toolResults: results };
  }
  return undefined;
}

/** The answer in each API's shape: the scripted call, or a closing answer; TOKENS_IN in, TOKENS_CACHED of them cached. */
function answer(path: string, model: string, id: string, call: Call | undefined): Body {
  const args = call ? JSON.stringify(call.arguments) : '';
  if (path === '/v1/responses') {
    return {
      id: `resp_${id}`, object: 'response', model, status: 'completed',
      output: call ? [{ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: call.name, arguments: args }] : [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }],
      usage: { input_tokens: TOKENS_IN, output_tokens: TOKENS_OUT, input_tokens_details: { cached_tokens: TOKENS_CACHED } },
    };
  }
  if (path === '/v1/messages') {
    return {
      id: `msg_${id}`, type: 'message', role: 'assistant', model, stop_reason: call ? 'tool_use' : 'end_turn',
      content: call ? [{ type: 'tool_use', id: `toolu_${id}`, name: call.name, input: call.arguments }] : [{ type: 'text', text: 'Done.' }],
      usage: { input_tokens: TOKENS_IN - TOKENS_CACHED, cache_read_input_tokens: TOKENS_CACHED, cache_creation_input_tokens: 0, output_tokens: TOKENS_OUT },
    };
  }
  const message = call ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: call.name, arguments: args } }] } : { role: 'assistant', content: 'Done.' };
  return {
    id: `chatcmpl-${id}`, object: 'chat.completion', created: 0, model,
    choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: TOKENS_IN, completion_tokens: TOKENS_OUT, total_tokens: TOKENS_IN + TOKENS_OUT },
  };
}

/**
 * A model endpoint that plays `script` in whichever API it is asked in (chat completions, OpenAI
 * Responses, Anthropic Messages): the next call of the turn, or a closing answer; its first
 * requests answered with `failures`, one each, in order. On `port` when given.
 */
export async function fakeModel(script: Script, o: { port?: number; failures?: Failure[] } = {}): Promise<{ server: Server; url: string; seen: Seen[]; failed: number }> {
  const seen: Seen[] = [];
  const failures = [...(o.failures ?? [])];
  const state = { server: undefined as unknown as Server, url: '', seen, failed: 0 };
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const path = req.url ?? '';
    const key = path === '/v1/messages' ? req.headers['x-api-key'] as string | undefined : req.headers.authorization;
    const request = req.method === 'POST' ? readRequest(path, JSON.parse(text || '{}') as Body, key) : undefined;
    if (!request) {
      res.writeHead(404).end();
      return;
    }
    const failure = failures.shift();
    if (failure) {
      state.failed++;
      res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers }).end(JSON.stringify({ error: { message: `scripted failure ${failure.status}` } }));
      return;
    }
    const { prompt, step, ...sent } = request;
    const turn = prompt.includes("Sam's dates have moved") ? 2 : 1;
    seen.push({ ...sent, turn });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(path, request.model, `${turn}_${step}`, script[turn][step])));
  });
  await new Promise<void>((r) => server.listen(o.port ?? 0, '127.0.0.1', r));
  state.server = server;
  state.url = endpointAt((server.address() as AddressInfo).port);
  return state;
}
