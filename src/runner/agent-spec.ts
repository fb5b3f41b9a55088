import type { LlmApi } from '../agents/llm/apis';
import { DEFAULT_TOOL_BUDGET, GENERIC_TOOL_COUNT, NO_BUDGET, selectionName, type ToolBudget } from '../client/mcp/tool-budget';
import { agentIdentity, type AgentIdentity, type AgentInterface } from './agent-identity';

/** The agent of an attempt, as `--agent` names it. */
export type AgentSpec =
  | { kind: 'oracle' }
  | { kind: 'null' }
  | { kind: 'negative'; name: string }
  /** A positive control: the pack's own (TaskCode.positives) or a generic one built from the oracle (`oracle~cli`, …). */
  | { kind: 'positive'; name: string }
  | { kind: 'command'; command: string }
  /** The reference LLM agent over an OpenAI-compatible endpoint; the model from `llm:MODEL` or `--model`. */
  | { kind: 'llm'; model: string | null }
  /** An agent run outside the runner (a Harbor step in its own container): the runner keeps the clock and the evidence, the agent's turns end when it is told so. Never a `--agent` value. */
  | { kind: 'external'; name: string };

const USAGE = "--agent must be oracle, null, neg:<name>, pos:<name>, cmd:'<command>' or llm[:<model>]";

export function parseAgent(text: string): AgentSpec {
  if (text === 'oracle') return { kind: 'oracle' };
  if (text === 'null') return { kind: 'null' };
  if (text.startsWith('neg:') && /^neg:[a-z0-9][a-z0-9_-]*$/.test(text)) return { kind: 'negative', name: text.slice(4) };
  if (text.startsWith('pos:') && /^pos:[a-z0-9][a-z0-9_~-]*$/.test(text)) return { kind: 'positive', name: text.slice(4) };
  if (text.startsWith('cmd:') && text.slice(4).trim().length > 0) return { kind: 'command', command: text.slice(4).trim() };
  if (text === 'llm') return { kind: 'llm', model: null };
  if (text.startsWith('llm:') && text.slice(4).trim().length > 0) return { kind: 'llm', model: text.slice(4).trim() };
  throw new Error(`${USAGE}, not '${text}'.`);
}

export function agentText(agent: AgentSpec): string {
  switch (agent.kind) {
    case 'oracle': return 'oracle';
    case 'null': return 'null';
    case 'negative': return `neg:${agent.name}`;
    case 'positive': return `pos:${agent.name}`;
    case 'command': return `cmd:${agent.command}`;
    case 'llm': return agent.model ? `llm:${agent.model}` : 'llm';
    case 'external': return `external:${agent.name}`;
    default: {
      const unknown: never = agent;
      return unknown;
    }
  }
}

/** The oracle, the null agent and the negative and positive controls: trusted policies the runner plays in its own process. */
export function isPolicy(agent: AgentSpec): agent is Extract<AgentSpec, { kind: 'oracle' | 'null' | 'negative' | 'positive' }> {
  return agent.kind === 'oracle' || agent.kind === 'null' || agent.kind === 'negative' || agent.kind === 'positive';
}

/** The interface a policy's requests go through: the generic positives `oracle~cli` and `oracle~mcp` use the agent's; every other policy, HTTP. */
export function policyInterface(agent: AgentSpec): AgentInterface {
  if (agent.kind !== 'positive') return 'http';
  return agent.name === 'oracle~cli' ? 'cli' : agent.name === 'oracle~mcp' ? 'mcp' : 'http';
}

/** What the operator said about the agent: `--agent-name`, `--model`, `--interface`, `--tool-budget`. */
export interface IdentityFlags {
  agentName?: string;
  model?: string;
  interface?: AgentInterface;
  /** The most tools an agent working through erp mcp is offered (DEFAULT_TOOL_BUDGET when not given). */
  toolBudget?: ToolBudget;
  /** The llm agent's provider API (`--llm-api`). */
  llmApi?: LlmApi;
}

/** The reference LLM agent's name when the operator gives none. */
export const LLM_AGENT_NAME = 'bb-erp-llm';

/**
 * The attempt's identity from the agent and the flags. A policy is named for itself and works over
 * HTTP; a command agent must be named (reports name agents by it) and declares its interface,
 * the `erp` command by default; the reference LLM agent needs a model and uses MCP by default, and
 * its name ends in its provider API when that is not chat completions (bb-erp-llm-responses).
 * Through erp mcp, the tool budget is part of the identity (`budget:64` by default).
 */
export function resolveIdentity(agent: AgentSpec, flags: IdentityFlags = {}): AgentIdentity {
  if (isPolicy(agent)) {
    const own = agent.kind === 'negative' ? `neg-${agent.name}` : agent.kind === 'positive' ? `pos-${agent.name}` : agent.kind;
    if (flags.agentName !== undefined && flags.agentName !== own) throw new Error(`The ${agentText(agent)} agent is named ${own}; --agent-name is for cmd: and llm agents.`);
    if (flags.model !== undefined) throw new Error(`The ${agentText(agent)} agent has no model; --model is for cmd: and llm agents.`);
    const iface = policyInterface(agent);
    if (flags.interface !== undefined && flags.interface !== iface) throw new Error(`The ${agentText(agent)} agent works ${iface === 'http' ? 'over the HTTP API' : iface === 'cli' ? 'through the erp command' : 'through erp mcp'}; --interface ${flags.interface} is for cmd: and llm agents.`);
    if (flags.toolBudget !== undefined) throw new Error(`The ${agentText(agent)} agent is offered erp mcp's default tools when it uses erp mcp; --tool-budget is for cmd: and llm agents.`);
    // pos:oracle~mcp starts erp mcp with its default budget.
    return agentIdentity(own, null, iface, iface === 'mcp' ? selectionName(DEFAULT_TOOL_BUDGET) : null);
  }
  if (agent.kind === 'external') return agentIdentity(flags.agentName ?? agent.name, flags.model, flags.interface ?? 'cli');
  if (agent.kind === 'command') {
    if (!flags.agentName) throw new Error('A cmd: agent needs --agent-name (say claude-code-2.1): results and reports name agents by it, never by their command.');
    const iface = flags.interface ?? 'cli';
    if (flags.toolBudget !== undefined && iface !== 'mcp') throw new Error(`--tool-budget is for an agent working through erp mcp (--interface mcp), not --interface ${iface}.`);
    return agentIdentity(flags.agentName, flags.model, iface, iface === 'mcp' ? selectionName(flags.toolBudget ?? DEFAULT_TOOL_BUDGET) : null);
  }
  if (agent.model && flags.model !== undefined && flags.model !== agent.model) throw new Error(`--agent llm:${agent.model} and --model ${flags.model} name different models.`);
  const model = agent.model ?? flags.model;
  if (!model) throw new Error('The llm agent needs a model: --agent llm:<model> or --model <model>.');
  if (flags.interface !== undefined && flags.interface !== 'mcp') throw new Error(`The llm agent works through erp mcp; --interface ${flags.interface} is for cmd: agents.`);
  // Its own tool (write_workspace_file) counts in its budget beside the generic ones.
  if (flags.toolBudget !== undefined && flags.toolBudget !== NO_BUDGET && flags.toolBudget < GENERIC_TOOL_COUNT + 1) throw new Error(`The llm agent's --tool-budget must be at least ${GENERIC_TOOL_COUNT + 1}: erp mcp's ${GENERIC_TOOL_COUNT} generic tools and its own write_workspace_file.`);
  // The API is part of the agent: its cells never pool with another API's.
  const api = flags.llmApi ?? 'chat';
  return agentIdentity(`${flags.agentName ?? LLM_AGENT_NAME}${api === 'chat' ? '' : `-${api}`}`, model, 'mcp', selectionName(flags.toolBudget ?? DEFAULT_TOOL_BUDGET));
}
