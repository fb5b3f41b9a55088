import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted OpenAI-compatible chat-completions endpoint for the leave-cover smoke task's two turns. */
export interface Call { name: string; arguments: Record<string, unknown> }
export type Script = Record<1 | 2, Call[]>;

export interface Seen { authorization: string | undefined; model: string; toolNames: string[]; system: string; turn: 1 | 2; toolResults: string[] }

export const TOKENS_IN = 1000;
export const TOKENS_OUT = 50;

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

/**
 * A chat-completions endpoint that plays `script`: the next call of the turn, or a closing answer;
 * its first requests answered with `failures`, one each, in order. On `port` when given.
 */
export async function fakeModel(script: Script, o: { port?: number; failures?: Failure[] } = {}): Promise<{ server: Server; url: string; seen: Seen[]; failed: number }> {
  const seen: Seen[] = [];
  const failures = [...(o.failures ?? [])];
  const state = { server: undefined as unknown as Server, url: '', seen, failed: 0 };
  const body = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return JSON.parse(text) as { model: string; messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
  };
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const request = await body(req);
    const failure = failures.shift();
    if (failure) {
      state.failed++;
      res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers }).end(JSON.stringify({ error: { message: `scripted failure ${failure.status}` } }));
      return;
    }
    const turn = request.messages[1]!.content.includes("Sam's dates have moved") ? 2 : 1;
    const step = request.messages.filter((m) => m.role === 'assistant').length;
    seen.push({ authorization: req.headers.authorization, model: request.model, toolNames: request.tools.map((t) => t.function.name), system: request.messages[0]!.content, turn, toolResults: request.messages.filter((m) => m.role === 'tool').map((m) => m.content) });
    const call = script[turn][step];
    const message = call
      ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${turn}_${step}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] }
      : { role: 'assistant', content: 'Done.' };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      id: `chatcmpl-${turn}-${step}`, object: 'chat.completion', created: 0, model: request.model,
      choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: TOKENS_IN, completion_tokens: TOKENS_OUT, total_tokens: TOKENS_IN + TOKENS_OUT },
    }));
  });
  await new Promise<void>((r) => server.listen(o.port ?? 0, '127.0.0.1', r));
  state.server = server;
  state.url = endpointAt((server.address() as AddressInfo).port);
  return state;
}

