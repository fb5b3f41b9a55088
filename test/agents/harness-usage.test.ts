import { usageOfLine, usageOfTranscript } from '../../src/agents/llm/usage';

describe("reading a harness's usage from its output", () => {
  it("takes Claude Code's JSON result: input with cache reads and writes, output, cost, its model turns", () => {
    const line = JSON.stringify({ type: 'result', subtype: 'success', num_turns: 4, total_cost_usd: 0.0123, usage: { input_tokens: 100, cache_read_input_tokens: 900, cache_creation_input_tokens: 50, output_tokens: 70 } });
    expect(usageOfLine(line)).toEqual({ model_calls: 4, tokens_in: 1050, tokens_out: 70, cost_usd: 0.0123 });
  });

  it("takes a Codex turn.completed event, with no cost since Codex reports none", () => {
    expect(usageOfLine('{"type":"turn.completed","usage":{"input_tokens":900,"cached_input_tokens":400,"output_tokens":60}}')).toEqual({ model_calls: 1, tokens_in: 900, tokens_out: 60, cost_usd: null });
  });

  it('sums the lines that report usage and skips the rest: other events, text, broken JSON, negative counts', () => {
    const text = [
      'thinking…',
      '{"type":"item.completed","item":{"type":"agent_message"}}',
      '{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}',
      '{"type":"turn.completed","usage":{"input_tokens":-5,"output_tokens":2}}',
      '{"type":"turn.completed","usage":',
      '{"type":"turn.completed","usage":{"input_tokens":20,"output_tokens":3}}',
    ].join('\n');
    expect(usageOfTranscript(text)).toEqual({ model_calls: 2, tokens_in: 30, tokens_out: 5, cost_usd: null });
    expect(usageOfTranscript('plain output\n')).toEqual({ model_calls: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0 });
  });
});
