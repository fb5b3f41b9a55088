import { createHash } from 'node:crypto';

/** The agent of an attempt, as `--agent` names it. */
export type AgentSpec =
  | { kind: 'oracle' }
  | { kind: 'null' }
  | { kind: 'negative'; name: string }
  | { kind: 'command'; command: string };

export function parseAgent(text: string): AgentSpec {
  if (text === 'oracle') return { kind: 'oracle' };
  if (text === 'null') return { kind: 'null' };
  if (text.startsWith('neg:') && /^neg:[a-z0-9][a-z0-9_-]*$/.test(text)) return { kind: 'negative', name: text.slice(4) };
  if (text.startsWith('cmd:') && text.slice(4).trim().length > 0) return { kind: 'command', command: text.slice(4).trim() };
  throw new Error(`--agent must be oracle, null, neg:<name> or cmd:'<command>', not '${text}'.`);
}

export function agentText(agent: AgentSpec): string {
  switch (agent.kind) {
    case 'oracle': return 'oracle';
    case 'null': return 'null';
    case 'negative': return `neg:${agent.name}`;
    case 'command': return `cmd:${agent.command}`;
    default: {
      const unknown: never = agent;
      return unknown;
    }
  }
}

/** A file-name-safe word for the agent: oracle, null, neg-<name>, cmd-<8 hex of the command>. */
export function agentSlug(agent: AgentSpec): string {
  if (agent.kind === 'negative') return `neg-${agent.name}`;
  if (agent.kind === 'command') return `cmd-${createHash('sha256').update(agent.command).digest('hex').slice(0, 8)}`;
  return agent.kind;
}

/** The cell an attempt belongs to: the agent, and the condition when it is not the clean one (seed 000 §7.1). */
export function cellOf(agentSlugText: string, condition: string): string {
  return condition === 'clean' ? agentSlugText : `${agentSlugText}+${condition}`;
}
