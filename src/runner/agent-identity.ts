import { budgetOfSelection } from '../client/mcp/tool-budget';

/**
 * Who played an attempt, as results and reports name it (seed 000 §9: a cell declares the
 * interface it used): the agent's name and model as the operator gave them (free text), and the
 * interface it worked through. These three fields are recorded in attempt.json, condition.json
 * and result.json under these names; the cell is made from them, never from a hash of a command.
 */
export const INTERFACES = ['cli', 'http', 'mcp'] as const;
export type AgentInterface = (typeof INTERFACES)[number];

export interface AgentIdentity {
  /** The operator's name for the agent (`--agent-name`): a harness and its version, say `claude-code-2.1`. */
  agent_name: string;
  /** The model behind it (`--model`), as the operator wrote it; null when there is none (a scripted policy). */
  model: string | null;
  /** How it reached the ERP: the `erp` command, the HTTP API, or `erp mcp`. */
  interface: AgentInterface;
  /**
   * Through `erp mcp`, the tools it was offered: `budget:N` (at most N tools, chosen by
   * src/client/mcp/tool-budget.ts) or `all` (one per endpoint); null for the other interfaces.
   * Part of the interface: results under different budgets are different cells.
   */
  tools?: string | null;
}

const MAX_NAME = 80;
const MAX_MODEL = 120;

export function parseInterface(text: string): AgentInterface {
  if ((INTERFACES as readonly string[]).includes(text)) return text as AgentInterface;
  throw new Error(`--interface must be ${INTERFACES.join(', ')}, not '${text}'.`);
}

/** The variable that gives an agent working through erp mcp its tool budget: ERP_MCP_TOOL_BUDGET, read by erp mcp and the reference agent. */
export function toolBudgetEnv(identity: AgentIdentity): Record<string, string> {
  if (!identity.tools) return {};
  const budget = budgetOfSelection(identity.tools);
  if (budget === undefined) throw new Error(`The tools ${identity.tools} name no tool budget (budget:N or all).`);
  return { ERP_MCP_TOOL_BUDGET: String(budget) };
}

/** An identity as given, checked: a name of 1 to 80 characters, a model of 1 to 120 when given, tools only through erp mcp. */
export function agentIdentity(name: string, model: string | null | undefined, iface: AgentInterface, tools: string | null = null): AgentIdentity {
  const agentName = name.trim();
  if (agentName.length === 0 || agentName.length > MAX_NAME) throw new Error(`--agent-name must be 1 to ${MAX_NAME} characters, not '${name}'.`);
  const m = model?.trim() ?? '';
  if (model != null && (m.length === 0 || m.length > MAX_MODEL)) throw new Error(`--model must be 1 to ${MAX_MODEL} characters, not '${model}'.`);
  if (tools !== null && iface !== 'mcp') throw new Error(`A tool budget is for agents working through erp mcp, not --interface ${iface}.`);
  return { agent_name: agentName, model: m.length ? m : null, interface: iface, tools };
}

/** Free text as a word safe in a file name: letters, digits, dot, dash and underscore; anything else a dash. */
export function nameWord(text: string): string {
  return text.trim().replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'agent';
}

/** `name[@model]~interface[.tools]`: the agent part of a cell, e.g. `claude-code@claude-sonnet-4-5~mcp.budget-64`, `oracle~http`. */
export function identityCell(identity: AgentIdentity): string {
  const tools = identity.tools ? `.${nameWord(identity.tools)}` : '';
  return `${nameWord(identity.agent_name)}${identity.model ? `@${nameWord(identity.model)}` : ''}~${identity.interface}${tools}`;
}

/**
 * The cell an attempt belongs to: who played, through which interface, and the condition when it
 * is not the clean one (seed 000 §7.1). Results of different cells are never pooled.
 */
export function cellOf(identity: AgentIdentity, condition: string): string {
  const agent = identityCell(identity);
  return condition === 'clean' ? agent : `${agent}+${condition}`;
}

/** The identity fields as they are written into a record (attempt.json, condition.json, result.json). */
export function identityFields(identity: AgentIdentity): AgentIdentity {
  return { agent_name: identity.agent_name, model: identity.model, interface: identity.interface, tools: identity.tools ?? null };
}
