import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted OpenAI-compatible chat-completions endpoint for the leave-cover smoke task's two turns. */
export interface Call { name: string; arguments: Record<string, unknown> }
export type Script = Record<1 | 2, Call[]>;

export interface Seen { authorization: string | undefined; model: string; toolNames: string[]; system: string; turn: 1 | 2; toolResults: string[] }

export const TOKENS_IN = 1000;
export const TOKENS_OUT = 50;

/** A chat-completions endpoint that plays `script`: the next call of the turn, or a closing answer. */
export async function fakeModel(script: Script): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
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
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

