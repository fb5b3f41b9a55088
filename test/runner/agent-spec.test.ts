import { agentText, parseAgent, resolveIdentity } from '../../src/runner/agent-spec';
import { agentIdentity, cellOf, identityCell, nameWord, parseInterface } from '../../src/runner/agent-identity';

describe('--agent', () => {
  it.each([
    ['oracle', { kind: 'oracle' }],
    ['null', { kind: 'null' }],
    ['neg:no-note', { kind: 'negative', name: 'no-note' }],
    ['pos:oracle~mcp', { kind: 'positive', name: 'oracle~mcp' }],
    ['cmd: my-harness --model x', { kind: 'command', command: 'my-harness --model x' }],
    ['llm', { kind: 'llm', model: null }],
    ['llm:gpt-4.1-mini', { kind: 'llm', model: 'gpt-4.1-mini' }],
  ])('reads %p', (text, spec) => {
    const agent = parseAgent(text);
    expect(agent).toEqual(spec);
    expect(parseAgent(agentText(agent))).toEqual(agent);
  });

  it.each(['human', 'neg:', 'neg:Bad Name', 'cmd:', 'cmd:  ', 'llm:', 'llm: '])('refuses %p', (text) => {
    expect(() => parseAgent(text)).toThrow(/--agent must be oracle, null, neg:<name>, pos:<name>, cmd:'<command>' or llm\[:<model>\]/);
  });
});

describe('an attempt\'s identity', () => {
  it('is a policy\'s own name, without a model, over HTTP', () => {
    expect(resolveIdentity(parseAgent('oracle'))).toEqual({ agent_name: 'oracle', model: null, interface: 'http', tools: null });
    expect(resolveIdentity(parseAgent('neg:no-note'))).toEqual({ agent_name: 'neg-no-note', model: null, interface: 'http', tools: null });
  });

  it('is, for a generic positive control, the interface its requests go through', () => {
    expect(resolveIdentity(parseAgent('pos:oracle~cli'))).toEqual({ agent_name: 'pos-oracle~cli', model: null, interface: 'cli', tools: null });
    expect(resolveIdentity(parseAgent('pos:oracle~mcp'))).toMatchObject({ interface: 'mcp', tools: 'budget:64' });
    expect(resolveIdentity(parseAgent('pos:queue_reversed')).interface).toBe('http');
    expect(() => resolveIdentity(parseAgent('pos:oracle~cli'), { interface: 'http' })).toThrow(/works through the erp command/);
  });

  it('refuses a name, a model or another interface for a policy', () => {
    expect(() => resolveIdentity(parseAgent('oracle'), { agentName: 'me' })).toThrow(/is named oracle/);
    expect(() => resolveIdentity(parseAgent('null'), { model: 'gpt' })).toThrow(/has no model/);
    expect(() => resolveIdentity(parseAgent('oracle'), { interface: 'mcp' })).toThrow(/works over the HTTP API/);
  });

  it('needs a name for a command agent, never a hash of its command, and defaults its interface to the erp command', () => {
    expect(() => resolveIdentity(parseAgent('cmd:claude -p'))).toThrow(/needs --agent-name/);
    expect(resolveIdentity(parseAgent('cmd:claude -p'), { agentName: ' claude-code 2.1 ', model: 'claude-sonnet-4-5' })).toEqual({ agent_name: 'claude-code 2.1', model: 'claude-sonnet-4-5', interface: 'cli', tools: null });
    expect(resolveIdentity(parseAgent('cmd:x'), { agentName: 'x', interface: 'mcp' }).interface).toBe('mcp');
  });

  it('takes the reference LLM agent\'s model from llm:MODEL or --model, always through MCP', () => {
    expect(resolveIdentity(parseAgent('llm:gpt-4.1'))).toEqual({ agent_name: 'bb-erp-llm', model: 'gpt-4.1', interface: 'mcp', tools: 'budget:64' });
    expect(resolveIdentity(parseAgent('llm'), { model: 'qwen3', agentName: 'ref' })).toEqual({ agent_name: 'ref', model: 'qwen3', interface: 'mcp', tools: 'budget:64' });
    expect(() => resolveIdentity(parseAgent('llm'), { model: 'qwen3', interface: 'cli' })).toThrow(/works through erp mcp/);
    expect(() => resolveIdentity(parseAgent('llm'))).toThrow(/needs a model/);
    expect(() => resolveIdentity(parseAgent('llm:a'), { model: 'b' })).toThrow(/different models/);
  });

  it('holds the tool budget of an agent working through erp mcp, 64 unless declared, and refuses one for any other', () => {
    expect(resolveIdentity(parseAgent('llm:m'), { toolBudget: 32 }).tools).toBe('budget:32');
    expect(resolveIdentity(parseAgent('llm:m'), { toolBudget: 'all' }).tools).toBe('all');
    expect(resolveIdentity(parseAgent('cmd:x'), { agentName: 'x', interface: 'mcp' }).tools).toBe('budget:64');
    expect(resolveIdentity(parseAgent('cmd:x'), { agentName: 'x', interface: 'mcp', toolBudget: 100 }).tools).toBe('budget:100');
    expect(resolveIdentity(parseAgent('cmd:x'), { agentName: 'x' }).tools).toBeNull();
    expect(() => resolveIdentity(parseAgent('cmd:x'), { agentName: 'x', toolBudget: 32 })).toThrow(/--tool-budget is for an agent working through erp mcp \(--interface mcp\), not --interface cli/);
    expect(() => resolveIdentity(parseAgent('oracle'), { toolBudget: 32 })).toThrow(/--tool-budget is for cmd: and llm agents/);
    expect(() => resolveIdentity(parseAgent('llm:m'), { toolBudget: 4 })).toThrow(/at least 5: erp mcp's 4 generic tools and its own write_workspace_file/);
  });

  it('names the reference LLM agent for its provider API, so cells of different APIs never pool', () => {
    const cells = (['chat', 'responses', 'messages'] as const).map((llmApi) => cellOf(resolveIdentity(parseAgent('llm:m-1'), { llmApi }), 'clean'));
    expect(cells).toEqual(['bb-erp-llm@m-1~mcp.budget-64', 'bb-erp-llm-responses@m-1~mcp.budget-64', 'bb-erp-llm-messages@m-1~mcp.budget-64']);
    expect(resolveIdentity(parseAgent('llm:m-1'), { agentName: 'ref', llmApi: 'messages' }).agent_name).toBe('ref-messages');
  });

  it('refuses an empty or overlong name and an unknown interface', () => {
    expect(() => agentIdentity('  ', null, 'cli')).toThrow(/--agent-name must be 1 to 80/);
    expect(() => agentIdentity('a'.repeat(81), null, 'cli')).toThrow(/--agent-name/);
    expect(() => agentIdentity('a', '', 'cli')).toThrow(/--model must be/);
    expect(() => parseInterface('browser')).toThrow(/--interface must be cli, http, mcp/);
  });
});

describe('the cell', () => {
  it('names the agent, its model and its interface, and the condition when it is not clean', () => {
    expect(cellOf({ agent_name: 'oracle', model: null, interface: 'http' }, 'clean')).toBe('oracle~http');
    expect(cellOf({ agent_name: 'oracle', model: null, interface: 'http' }, 'lost-writes')).toBe('oracle~http+lost-writes');
    expect(cellOf({ agent_name: 'claude-code 2.1', model: 'claude-sonnet-4.5', interface: 'mcp' }, 'unsandboxed')).toBe('claude-code-2.1@claude-sonnet-4.5~mcp+unsandboxed');
  });

  it('keeps agents apart that differ only in model or interface', () => {
    const cells = new Set([
      identityCell({ agent_name: 'h', model: 'a', interface: 'cli' }), identityCell({ agent_name: 'h', model: 'b', interface: 'cli' }),
      identityCell({ agent_name: 'h', model: 'a', interface: 'mcp' }), identityCell({ agent_name: 'h', model: null, interface: 'cli' }),
    ]);
    expect(cells.size).toBe(4);
  });

  it('names the tool budget after the interface, so agents offered different tools are different cells', () => {
    expect(cellOf({ agent_name: 'bb-erp-llm', model: 'gpt-4.1', interface: 'mcp', tools: 'budget:64' }, 'clean')).toBe('bb-erp-llm@gpt-4.1~mcp.budget-64');
    expect(cellOf({ agent_name: 'bb-erp-llm', model: 'gpt-4.1', interface: 'mcp', tools: 'all' }, 'clean')).toBe('bb-erp-llm@gpt-4.1~mcp.all');
    expect(() => agentIdentity('h', null, 'cli', 'budget:64')).toThrow(/A tool budget is for agents working through erp mcp, not --interface cli/);
  });

  it('makes free text safe in a folder name', () => {
    expect(nameWord('My Agent / v2 (beta)')).toBe('My-Agent-v2-beta');
    expect(nameWord('../..')).toBe('agent');
  });
});
