import { join } from 'node:path';
import { loadPack, type TaskPack } from '../../task-pack/load';
import { loadPackCode } from '../../task-pack/module-loader';
import { agentText, parseAgent, resolveIdentity, type AgentSpec } from '../agent-spec';
import { cellOf, identityFields, parseInterface, type AgentIdentity } from '../agent-identity';
import { parseToolBudget } from '../../client/mcp/tool-budget';
import { existsSync } from 'node:fs';
import { conditionWithIsolation, requireSandbox } from '../agent-launch';
import { checkPassEnv } from '../launcher';
import { resolveFaults } from '../fault-condition';
import { llmSettings, type LlmFlags } from '../llm-agent';
import type { CampaignAgent, CampaignSpec } from './spec';
import { checkDestination } from '../sandbox/egress-proxy';
import { limitsFrom } from '../sandbox/limits';

/** One agent under one condition: a cell of the campaign, whose results are never pooled with another's. */
export interface CampaignCell {
  cell: string;
  agent: AgentSpec;
  agentText: string;
  identity: AgentIdentity;
  /** The condition as declared (`clean`, a fault profile or a SPEC). */
  declared: string;
  /** The condition as recorded: the fault condition's name, with `unsandboxed` when the agent runs bare. */
  condition: string;
  sandbox: boolean;
  passEnv: string[];
  agentFiles: string[];
  netAllow: string[];
  limits: string[];
  /** The llm agent's settings, resolved again in the process that plays the attempt (the key never leaves the environment). */
  llm?: LlmFlags;
}

/** One attempt of the campaign: a cell, a task, a seed and a repetition. */
export interface CampaignSlot {
  cell: CampaignCell;
  task: string;
  seed: number;
  rep: number;
  /** Relative to the campaign folder: <cell>/<task>/seed-<s>/rep-<r>. */
  path: string;
}

export interface CampaignPlan {
  spec: CampaignSpec;
  packs: TaskPack[];
  cells: CampaignCell[];
  slots: CampaignSlot[];
}

function cellFor(a: CampaignAgent, declared: string, packs: readonly TaskPack[], where: string): CampaignCell {
  const agent = parseAgent(a.agent);
  let identity: AgentIdentity;
  try {
    identity = identityFields(resolveIdentity(agent, {
      agentName: a.name, model: a.model, interface: a.interface === undefined ? undefined : parseInterface(a.interface),
      toolBudget: a.toolBudget === undefined ? undefined : parseToolBudget(a.toolBudget, 'tool_budget'), llmApi: a.llm?.api,
    }));
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message}`);
  }
  if (a.llm && agent.kind !== 'llm') throw new Error(`${where}: llm: settings are for the llm agent.`);
  if (agent.kind === 'negative') {
    for (const pack of packs) {
      const negatives = Object.keys(loadPackCode(pack).negatives);
      if (!negatives.includes(agent.name)) throw new Error(`${where}: task ${pack.slug} has no negative control neg:${agent.name} (it has ${negatives.map((n) => `neg:${n}`).join(', ') || 'none'}).`);
    }
  }
  const faultNames = declared === 'clean' ? ['clean'] : packs.map((p) => resolveFaults(p, declared).condition);
  if (new Set(faultNames).size > 1) throw new Error(`condition ${declared} names a different fault plan in each task (${[...new Set(faultNames)].join(', ')}); declare one a fault profile of each task.`);
  const sandbox = agent.kind !== 'command' || a.sandbox !== false;
  if (agent.kind === 'llm') {
    try {
      requireSandbox({ sandbox: true });
      llmSettings(a.llm ?? {});
    } catch (err) {
      throw new Error(`${where}: ${(err as Error).message}`);
    }
  }
  if (agent.kind === 'command') {
    // What would make every attempt of the agent error is refused before anything is built.
    try {
      requireSandbox({ sandbox });
      checkPassEnv(a.passEnv ?? []);
    } catch (err) {
      throw new Error(`${where}: ${(err as Error).message}`);
    }
    const missing = (a.agentFiles ?? []).find((f) => !existsSync(f));
    if (missing) throw new Error(`${where}: agent_files ${missing}: no such file or folder.`);
  }
  const condition = conditionWithIsolation(faultNames[0]!, !sandbox);
  // A limit refused here, before any attempt starts, not in the middle of the campaign.
  limitsFrom(a.limits);
  return { cell: cellOf(identity, condition), agent, agentText: agentText(agent), identity, declared, condition, sandbox, passEnv: a.passEnv ?? [], agentFiles: a.agentFiles ?? [], netAllow: (a.netAllow ?? []).map(checkDestination), limits: a.limits ?? [], ...(agent.kind === 'llm' ? { llm: a.llm ?? {} } : {}) };
}

/**
 * Every cell and slot of a campaign, checked before anything runs: every task loads, every agent
 * parses and is named, every negative control and fault condition exists in every task, and no two
 * agents share a cell (their results would be merged).
 */
export function planCampaign(spec: CampaignSpec): CampaignPlan {
  const packs = spec.tasks.map((t) => loadPack(t, spec.tasksDir));
  const cells: CampaignCell[] = [];
  for (const declared of spec.conditions) {
    spec.agents.forEach((a, i) => {
      const cell = cellFor(a, declared, packs, `agents[${i}] (${a.agent})`);
      const twin = cells.find((c) => c.cell === cell.cell);
      if (twin) throw new Error(`agents[${i}] (${a.agent}) and ${twin.agentText} are both cell ${cell.cell}: give them different names or models, or their results would be merged.`);
      cells.push(cell);
    });
  }
  const slots: CampaignSlot[] = [];
  // Reps outermost: an interrupted campaign has then played every task and seed about as often.
  for (let rep = 1; rep <= spec.reps; rep++)
    for (const pack of packs)
      for (const seed of spec.seeds)
        for (const cell of cells) slots.push({ cell, task: pack.slug, seed, rep, path: join(cell.cell, pack.slug, `seed-${seed}`, `rep-${rep}`) });
  return { spec, packs, cells, slots };
}
