import { agentSlug, agentText, cellOf, parseAgent } from '../../src/runner/agent-spec';

describe('--agent', () => {
  it.each([
    ['oracle', { kind: 'oracle' }, 'oracle'],
    ['null', { kind: 'null' }, 'null'],
    ['neg:no-note', { kind: 'negative', name: 'no-note' }, 'neg-no-note'],
    ["cmd: my-harness --model x", { kind: 'command', command: 'my-harness --model x' }, 'cmd-'],
  ])('reads %p', (text, spec, slug) => {
    const agent = parseAgent(text);
    expect(agent).toEqual(spec);
    expect(agentSlug(agent).startsWith(slug)).toBe(true);
    expect(parseAgent(agentText(agent))).toEqual(agent);
  });

  it('names a command agent by a hash of its command', () => {
    expect(agentSlug(parseAgent('cmd:a'))).toMatch(/^cmd-[0-9a-f]{8}$/);
    expect(agentSlug(parseAgent('cmd:a'))).not.toBe(agentSlug(parseAgent('cmd:b')));
  });

  it.each(['human', 'neg:', 'neg:Bad Name', 'cmd:', 'cmd:  '])('refuses %p', (text) => {
    expect(() => parseAgent(text)).toThrow(/--agent must be oracle, null, neg:<name> or cmd:'<command>'/);
  });

  it('puts a fault condition into the cell', () => {
    expect(cellOf('oracle', 'clean')).toBe('oracle');
    expect(cellOf('oracle', 'lost-writes')).toBe('oracle+lost-writes');
  });
});
