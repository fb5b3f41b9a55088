import type { TaskSpec } from '../../task-pack/schema';
import { HARBOR } from './layout';
import { closeDayCommand } from './task-files';
import type { TomlTable } from './toml';

/**
 * task.toml of an exported task, in the schema of Harbor 0.22.0's TaskConfig
 * (src/harbor/models/task/config.py; src/export/harbor-schema.json is its JSON Schema): one step
 * per turn, the ERP service's collect hook closing each day, a separate verifier.
 */

export const SCHEMA_VERSION = '1.4';
/** Closing a day runs the counterparties; the last one settles the database as well. */
const HOOK_TIMEOUT_S = 600;
/** Grading replays the attempt over the scenario's history. */
const VERIFIER_TIMEOUT_S = 900;

export function stepName(turn: number): string {
  return `turn-${turn}`;
}

export interface TaskConfigInput {
  name: string;
  version: string;
  spec: TaskSpec;
  seed: number;
  condition: string;
  packHash: string;
  /** The local runner's oracle on this scenario: its canonical final hash, for comparison. */
  oracleFinalHash: string;
}

export function taskConfig(i: TaskConfigInput): TomlTable {
  const turns = i.spec.turns;
  const evidence = { source: HARBOR.evidenceDir, service: HARBOR.erpService };
  return {
    schema_version: SCHEMA_VERSION,
    // The trial's reward is the graded last step's; earlier steps only say their day closed.
    multi_step_reward_strategy: 'final',
    task: {
      name: i.name,
      version: i.version,
      description: i.spec.title,
      keywords: ['bb-erp', i.spec.id, i.spec.company, i.spec.band],
    },
    metadata: {
      bb_erp_task: i.spec.id,
      seed: i.seed,
      condition: i.condition,
      pack_hash: i.packHash,
      agent_user: i.spec.agent_user,
      grading_date: i.spec.grading_date,
      oracle_final_hash: i.oracleFinalHash,
    },
    verifier: { timeout_sec: VERIFIER_TIMEOUT_S, environment_mode: 'separate' },
    agent: { timeout_sec: Math.max(...turns.map((t) => t.budget)) },
    environment: { build_timeout_sec: 1200 },
    steps: turns.map((turn, k) => {
      const index = k + 1;
      const last = index === turns.length;
      return {
        name: stepName(index),
        ...(last ? {} : { min_reward: 1 }),
        artifacts: last ? [evidence, { source: HARBOR.workspace }] : [evidence],
        agent: { timeout_sec: turn.budget },
        verifier: {
          timeout_sec: VERIFIER_TIMEOUT_S,
          env: { ERP_TURN: String(index), ERP_TURNS: String(turns.length) },
          collect: [{ service: HARBOR.erpService, command: closeDayCommand(index), timeout_sec: HOOK_TIMEOUT_S }],
        },
      };
    }),
  };
}

export function datasetConfig(name: string, description: string, tasks: { name: string; digest: string }[]): TomlTable {
  return {
    dataset: { name, description, keywords: ['bb-erp'] },
    tasks: tasks.map((t) => ({ name: t.name, digest: `sha256:${t.digest}` })),
  };
}
