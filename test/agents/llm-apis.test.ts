import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import seedrandom from 'seedrandom';
import { runTurn, type LlmConfig } from '../../src/agents/llm/agent';
import type { LlmApi } from '../../src/agents/llm/apis';
import { DEFAULT_RETRY } from '../../src/agents/llm/provider-call';
import type { AgentTools } from '../../src/agents/llm/tools';
import type { TranscriptLine } from '../../src/agents/llm/usage';

/**
 * The provider APIs of the reference agent, each against a scripted endpoint on loopback that
 * answers one tool call and then a final answer: what the agent sends (the system message, tools
 * in the API's shape, the tool result sent back) and what it reads (text, calls, usage).
 */
interface Seen { path: string; headers: IncomingHttpHeaders; body: Record<string, any> }

async function endpoint(answers: unknown[]): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    seen.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[seen.length - 1]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

const WHOAMI = { name: 'get_whoami', description: 'Who you are signed in as.', parameters: { type: 'object', properties: {}, additionalProperties: false } };
const tools: AgentTools = {
  tools: [WHOAMI],
  handbook: [{ uri: 'erp://handbook/leave.md', text: 'Leave needs a delegate.' }],
  call: async (name) => (name === 'get_whoami' ? { text: '{"user":{"id":"olga.park"}}', isError: false } : { text: `There is no tool ${name}.`, isError: true }),
  close: async () => undefined,
};

async function play(api: LlmApi, answers: unknown[]) {
  const e = await endpoint(answers);
  try {
    const config: LlmConfig = { api, baseUrl: e.url, apiKey: 'sk-test', model: 'scripted-model', maxSteps: 4, budgetS: 600, prices: { in: 3, out: 15, cachedIn: 0.3 }, retry: DEFAULT_RETRY };
    const lines: TranscriptLine[] = [];
    const reached = await runTurn(config, tools, 'Who am I?', (l) => lines.push(l), { clock: { now: () => 0, sleep: async () => undefined, random: seedrandom('apis') } });
    return { reached, lines, seen: e.seen };
  } finally {
    e.server.close();
  }
}

const modelCalls = (lines: TranscriptLine[]) => lines.filter((l): l is Extract<TranscriptLine, { type: 'model_call' }> => l.type === 'model_call');

describe('the OpenAI Responses API', () => {
  let out: Awaited<ReturnType<typeof play>>;
  beforeAll(async () => {
    // Given a Responses endpoint that asks for get_whoami, then answers
    out = await play('responses', [
      { id: 'resp_1', model: 'scripted-model', status: 'completed', output: [{ type: 'reasoning', id: 'rs_1', summary: [] }, { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_whoami', arguments: '{}' }], usage: { input_tokens: 900, output_tokens: 20, input_tokens_details: { cached_tokens: 0 } } },
      { id: 'resp_2', model: 'scripted-model', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'You are Olga Park.' }] }], usage: { input_tokens: 1000, output_tokens: 10, input_tokens_details: { cached_tokens: 800 } } },
    ]);
  });

  it('posts to {base}/responses with the system message as instructions and function tools in the Responses shape', () => {
    const first = out.seen[0]!;
    expect(first.path).toBe('/v1/responses');
    expect(first.headers.authorization).toBe('Bearer sk-test');
    expect(first.body).toMatchObject({ model: 'scripted-model', input: [{ role: 'user', content: 'Who am I?' }], tools: [{ type: 'function', name: 'get_whoami', description: WHOAMI.description, parameters: WHOAMI.parameters }] });
    expect(first.body.instructions).toContain('<handbook uri="erp://handbook/leave.md">');
  });

  it('sends the output items back with a function_call_output for the call', () => {
    const second = out.seen[1]!.body.input as Record<string, unknown>[];
    expect(second.map((i) => i.type ?? i.role)).toEqual(['user', 'reasoning', 'function_call', 'function_call_output']);
    expect(second[3]).toEqual({ type: 'function_call_output', call_id: 'call_1', output: '{"user":{"id":"olga.park"}}' });
  });

  it('records the system message once, each call\'s text, tool calls and usage with cached tokens, and the answer', () => {
    expect(out.reached).toBe(true);
    expect(out.lines.filter((l) => l.type === 'system')).toEqual([expect.objectContaining({ api: 'responses', model: 'scripted-model', text: out.seen[0]!.body.instructions })]);
    const [ask, answer] = modelCalls(out.lines);
    expect(ask).toMatchObject({ api: 'responses', tokens_in: 900, tokens_out: 20, tokens_cached: 0, text: null, tool_calls: [{ id: 'call_1', name: 'get_whoami', arguments: '{}' }], cost_usd: (900 * 3 + 20 * 15) / 1e6 });
    expect(answer).toMatchObject({ tokens_in: 1000, tokens_out: 10, tokens_cached: 800, text: 'You are Olga Park.', tool_calls: [], finish_reason: 'completed' });
    expect(answer!.cost_usd).toBeCloseTo((200 * 3 + 800 * 0.3 + 10 * 15) / 1e6, 12);
    expect(out.lines.find((l) => l.type === 'tool_call')).toMatchObject({ name: 'get_whoami', is_error: false });
    expect(out.lines.at(-1)).toEqual({ type: 'end', reason: 'answered', steps: 2 });
  });
});

describe('the Anthropic Messages API', () => {
  let out: Awaited<ReturnType<typeof play>>;
  beforeAll(async () => {
    // Given a Messages endpoint that asks for get_whoami and a tool that does not exist, then answers
    out = await play('messages', [
      { id: 'msg_1', type: 'message', role: 'assistant', model: 'scripted-model', stop_reason: 'tool_use', content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_whoami', input: {} }, { type: 'tool_use', id: 'toolu_2', name: 'no_such_tool', input: { x: 1 } }], usage: { input_tokens: 50, cache_creation_input_tokens: 700, cache_read_input_tokens: 0, output_tokens: 30 } },
      { id: 'msg_2', type: 'message', role: 'assistant', model: 'scripted-model', stop_reason: 'end_turn', content: [{ type: 'text', text: 'You are Olga Park.' }], usage: { input_tokens: 60, cache_creation_input_tokens: 0, cache_read_input_tokens: 700, output_tokens: 8 } },
    ]);
  });

  it('posts to {base}/messages with x-api-key, anthropic-version, the system message and tools with input_schema', () => {
    const first = out.seen[0]!;
    expect(first.path).toBe('/v1/messages');
    expect(first.headers['x-api-key']).toBe('sk-test');
    expect(first.headers['anthropic-version']).toBe('2023-06-01');
    expect(first.headers.authorization).toBeUndefined();
    expect(first.body).toMatchObject({ model: 'scripted-model', messages: [{ role: 'user', content: 'Who am I?' }], tools: [{ name: 'get_whoami', description: WHOAMI.description, input_schema: WHOAMI.parameters }] });
    expect(first.body.max_tokens).toBeGreaterThan(0);
    expect(first.body.system).toContain('Leave needs a delegate.');
  });

  it('sends the assistant\'s blocks back and one user message of tool_result blocks, an error marked is_error', () => {
    const messages = out.seen[1]!.body.messages as { role: string; content: unknown }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]!.content).toEqual([{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_whoami', input: {} }, { type: 'tool_use', id: 'toolu_2', name: 'no_such_tool', input: { x: 1 } }]);
    expect(messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"user":{"id":"olga.park"}}' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'There is no tool no_such_tool.', is_error: true },
    ]);
  });

  it('counts cache reads and writes as input, cache reads as cached, and records text and tool calls', () => {
    const [ask, answer] = modelCalls(out.lines);
    expect(ask).toMatchObject({ api: 'messages', tokens_in: 750, tokens_out: 30, tokens_cached: 0, text: 'Let me check.', finish_reason: 'tool_use' });
    expect(ask!.tool_calls).toEqual([{ id: 'toolu_1', name: 'get_whoami', arguments: '{}' }, { id: 'toolu_2', name: 'no_such_tool', arguments: '{"x":1}' }]);
    expect(answer).toMatchObject({ tokens_in: 760, tokens_out: 8, tokens_cached: 700, text: 'You are Olga Park.' });
    expect(answer!.cost_usd).toBeCloseTo((60 * 3 + 700 * 0.3 + 8 * 15) / 1e6, 12);
    expect(out.lines.filter((l) => l.type === 'tool_call').map((l) => l.type === 'tool_call' && [l.name, l.is_error])).toEqual([['get_whoami', false], ['no_such_tool', true]]);
  });
});

describe('chat completions', () => {
  it('posts to {base}/chat/completions with the system message first and sends each result back as a tool message', async () => {
    const out = await play('chat', [
      { model: 'scripted-model', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_whoami', arguments: '{}' } }] } }], usage: { prompt_tokens: 500, completion_tokens: 12 } },
      { model: 'scripted-model', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'You are Olga Park.' } }], usage: { prompt_tokens: 520, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 500 } } },
    ]);
    expect(out.seen[0]!.path).toBe('/v1/chat/completions');
    expect(out.seen[0]!.body.tools).toEqual([{ type: 'function', function: WHOAMI }]);
    const messages = out.seen[1]!.body.messages as { role: string; content: unknown; tool_call_id?: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"user":{"id":"olga.park"}}' });
    expect(modelCalls(out.lines).map((c) => [c.tokens_in, c.tokens_cached])).toEqual([[500, null], [520, 500]]);
  });
});
