import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planCampaign } from '../../src/runner/campaign/plan';
import { parseCampaignFile, specFromFlags } from '../../src/runner/campaign/spec';
import { FIXTURE_TASKS } from '../support/packs';

const dir = mkdtempSync(join(tmpdir(), 'bb-erp-campaign-spec-'));
function file(text: string): string {
  const f = join(dir, `c-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(f, text);
  return f;
}

describe('a campaign file', () => {
  it('declares tasks, seeds, reps and agents; its paths are relative to it', () => {
    const spec = parseCampaignFile(file(`name: pilot\ntasks: [leave-cover]\ntasks_dir: ${FIXTURE_TASKS}\nseeds: [0, 1, 1]\nreps: 3\nagents:\n  - oracle\n  - agent: cmd:./run.sh\n    name: harness\n    model: m-1\n    agent_files: [run.sh]\n`));
    expect(spec).toMatchObject({ name: 'pilot', tasks: ['leave-cover'], seeds: [0, 1], reps: 3, conditions: ['clean'], agents: [{ agent: 'oracle' }, { agent: 'cmd:./run.sh', name: 'harness', model: 'm-1', agentFiles: [join(dir, 'run.sh')] }] });
  });

  it('gives an llm agent its endpoint and limits, refusing a key it does not know', () => {
    const spec = parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - agent: llm:m-1\n    llm: { base_url: "http://127.0.0.1:9/v1", key_env: MY_KEY, max_steps: 12, price_in: 3, price_out: 15 }\n'));
    expect(spec.agents[0]).toEqual({ agent: 'llm:m-1', llm: { baseUrl: 'http://127.0.0.1:9/v1', keyEnv: 'MY_KEY', maxSteps: 12, priceIn: 3, priceOut: 15 } });
    expect(() => parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - agent: llm:m-1\n    llm: { api_key: sk-1 }\n'))).toThrow(/agents\[0\]\.llm: unknown key api_key/);
    expect(() => parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - agent: llm:m-1\n    llm: { price_in: cheap }\n'))).toThrow(/llm\.price_in: must be a number/);
  });

  it('takes an llm agent\'s provider API, retries and cached-input price, refusing an API it does not speak', () => {
    const spec = parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - agent: llm:m-1\n    llm: { api: messages, base_url: "http://127.0.0.1:9/v1", max_retries: 0, price_in: 3, price_out: 15, price_cached_in: 0.3 }\n'));
    expect(spec.agents[0]!.llm).toEqual({ api: 'messages', baseUrl: 'http://127.0.0.1:9/v1', maxRetries: 0, priceIn: 3, priceOut: 15, priceCachedIn: 0.3 });
    expect(() => parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - agent: llm:m-1\n    llm: { api: completions }\n'))).toThrow(/agents\[0\]\.llm\.api must be chat, responses, messages, not 'completions'/);
    expect(() => parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - agent: llm:m-1\n    llm: { max_retries: -1 }\n'))).toThrow(/llm\.max_retries: must be a whole number/);
  });

  it('given a bare null agent or condition, when the file is read, then the refusal says to quote it', () => {
    expect(() => parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - oracle\n  - null\n'))).toThrow(/agents\[1\]: must be an agent .*quote it, e\.g\. - 'null'/);
    expect(() => parseCampaignFile(file('name: p\ntasks: [a, true]\nagents: [oracle]\n'))).toThrow(/tasks: must be a list of words: YAML reads a bare null/);
    expect(parseCampaignFile(file("name: p\ntasks: [a]\nagents:\n  - 'null'\n")).agents).toEqual([{ agent: 'null' }]);
  });

  it('gives an agent a tool budget, a whole number or all', () => {
    const spec = parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - agent: llm:m-1\n    tool_budget: 32\n  - agent: llm:m-2\n    tool_budget: all\n'));
    expect(spec.agents.map((a) => a.toolBudget)).toEqual(['32', 'all']);
    expect(() => parseCampaignFile(file('name: p\ntasks: [a]\nagents:\n  - agent: llm:m-1\n    tool_budget: lots\n'))).toThrow(/agents\[0\]\.tool_budget: must be a whole number or 'all'/);
  });

  it('refuses an unknown key, naming it', () => {
    expect(() => parseCampaignFile(file('name: p\ntasks: [a]\nagents: [oracle]\nrepetitions: 5\n'))).toThrow(/unknown key repetitions/);
  });
});

describe('a campaign plan', () => {
  const base = { name: 'p', tasks: ['leave-cover'], tasksDir: FIXTURE_TASKS, seeds: [0, 1], reps: 2, conditions: ['clean'] };

  it('has one slot per cell, task, seed and rep, reps outermost', () => {
    const plan = planCampaign({ ...base, agents: [{ agent: 'oracle' }, { agent: 'neg:no-note' }] });
    expect(plan.cells.map((c) => c.cell)).toEqual(['oracle~http', 'neg-no-note~http']);
    expect(plan.slots).toHaveLength(8);
    expect(plan.slots.slice(0, 2).map((s) => s.path)).toEqual(['oracle~http/leave-cover/seed-0/rep-1', 'neg-no-note~http/leave-cover/seed-0/rep-1']);
    expect(plan.slots[7]!.path).toBe('neg-no-note~http/leave-cover/seed-1/rep-2');
  });

  it('refuses a mistyped agent before anything runs', () => {
    expect(() => planCampaign({ ...base, agents: [{ agent: 'orcale' }] })).toThrow(/--agent must be oracle, null/);
    expect(() => planCampaign({ ...base, agents: [{ agent: 'neg:no-notes' }] })).toThrow(/task leave-cover has no negative control neg:no-notes \(it has neg:everything/);
    expect(() => planCampaign({ ...base, agents: [{ agent: 'cmd:./x' }] })).toThrow(/agents\[0\] \(cmd:\.\/x\): A cmd: agent needs --agent-name/);
    expect(() => planCampaign({ ...base, agents: [{ agent: 'cmd:./x', name: 'x', agentFiles: [join(dir, 'no-such-harness')] }] })).toThrow(/agent_files .*no-such-harness: no such file or folder/);
    expect(() => planCampaign({ ...base, agents: [{ agent: 'cmd:./x', name: 'x', passEnv: ['ERP_TOKEN'] }] })).toThrow(/--pass-env ERP_TOKEN: the runner sets the ERP_ variables itself/);
  });

  it('refuses two agents that would share a cell, and a fault condition a task lacks', () => {
    expect(() => planCampaign({ ...base, agents: [{ agent: 'cmd:a', name: 'h', model: 'm' }, { agent: 'cmd:b', name: 'h', model: 'm' }] })).toThrow(/are both cell h@m~cli/);
    expect(planCampaign({ ...base, agents: [{ agent: 'cmd:a', name: 'h', model: 'm1' }, { agent: 'cmd:b', name: 'h', model: 'm2' }] }).cells.map((c) => c.cell)).toEqual(['h@m1~cli', 'h@m2~cli']);
    expect(planCampaign({ ...base, agents: [{ agent: 'oracle' }], conditions: ['clean', 'lost-leave'] }).cells.map((c) => c.cell)).toEqual(['oracle~http', 'oracle~http+lost-leave']);
    expect(() => planCampaign({ ...base, agents: [{ agent: 'oracle' }], conditions: ['lost-everything'] })).toThrow();
  });

  it('keeps agents working through erp mcp under different tool budgets in different cells, and refuses a budget for another interface', () => {
    const plan = planCampaign({ ...base, agents: [{ agent: 'cmd:a', name: 'h', interface: 'mcp' }, { agent: 'cmd:a', name: 'h', interface: 'mcp', toolBudget: '128' }, { agent: 'cmd:a', name: 'h', interface: 'mcp', toolBudget: 'all' }] });
    expect(plan.cells.map((c) => [c.cell, c.identity.tools])).toEqual([['h~mcp.budget-64', 'budget:64'], ['h~mcp.budget-128', 'budget:128'], ['h~mcp.all', 'all']]);
    expect(() => planCampaign({ ...base, agents: [{ agent: 'cmd:a', name: 'h', toolBudget: '32' }] })).toThrow(/agents\[0\] \(cmd:a\): --tool-budget is for an agent working through erp mcp/);
    expect(() => planCampaign({ ...base, agents: [{ agent: 'cmd:a', name: 'h', interface: 'mcp', toolBudget: '2' }] })).toThrow(/tool_budget must be a whole number of at least 4/);
  });
});

describe('a campaign in flags', () => {
  it('pairs --agent-name and --model with the cmd: agents in order', () => {
    const spec = specFromFlags({ name: 'p', tasks: ['t'], agents: ['oracle', 'cmd:a', 'cmd:a'], agentNames: ['x', 'y'], models: ['m1', 'm2'] });
    expect(spec.agents).toEqual([{ agent: 'oracle' }, { agent: 'cmd:a', name: 'x', model: 'm1', interface: undefined }, { agent: 'cmd:a', name: 'y', model: 'm2', interface: undefined }]);
  });

  it('gives --tool-budget to every agent working through erp mcp, and to no other', () => {
    const spec = specFromFlags({ name: 'p', tasks: ['t'], agents: ['oracle', 'cmd:a', 'cmd:b', 'llm:m'], agentNames: ['x', 'y', 'bb-erp-llm'], interfaces: ['cli', 'mcp', 'mcp'], toolBudget: '32' });
    expect(spec.agents.map((a) => a.toolBudget)).toEqual([undefined, undefined, '32', '32']);
  });

  it('refuses names that do not pair up', () => {
    expect(() => specFromFlags({ name: 'p', tasks: ['t'], agents: ['cmd:a', 'cmd:b'], agentNames: ['x'] })).toThrow(/--agent-name: given 1 times for 2 cmd: or llm agent/);
  });
});
