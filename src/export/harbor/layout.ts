import type { FaultCondition } from '../../runner/fault-condition';
import type { TaskPack } from '../../task-pack/load';

/**
 * Where things are inside the containers of an exported Harbor task, and what the export hands
 * each of them. The ERP service, the verifier and the agent's container (`main`) each get their
 * own folder and nothing of the others'.
 */
export const HARBOR = {
  /** The compose service that runs the ERP: server, scenario, counterparties and clock. */
  erpService: 'erp',
  /** The agent port inside the compose network; the control port stays on the service's loopback. */
  agentPort: 8080,
  /** The port the collect hooks reach the service on, on its loopback only. */
  hookPort: 8081,
  /** The ERP service's files (its bundle, better-sqlite3, service.json, the scenario without the reference). */
  erpHome: '/srv/erp',
  /** The attempt the ERP service writes as the runner does (final.db, heads.jsonl, attempt.json). */
  attemptDir: '/srv/attempt',
  /** The service's run files: the hook token, the ready mark. Never in an artifact. */
  runDir: '/srv/run',
  /** What the service's collect hooks write for the verifier: one day-N.json per closed day, attempt/ after the last. */
  evidenceDir: '/evidence',
  /** The agent's working folder in `main`: the handbook, and whatever the agent writes there. */
  workspace: '/workspace',
  /** The verifier's files: its test.sh, bundle, the scenario with its reference, the pack. */
  tests: '/tests',
  /** Where the verifier writes reward.json and result.json (Harbor's verifier folder). */
  verifierLogs: '/logs/verifier',
} as const;

/** service.json: everything the ERP service knows of the attempt besides its scenario. */
export interface ServiceConfig {
  version: 1;
  pack: TaskPack;
  pack_hash: string;
  seed: number;
  label: string;
  /** The agent's token, the one secret `main` also holds (as ERP_TOKEN). Every other user's is drawn at start. */
  agent_token: string;
  /** The reference's digest as the export read it: the service records it in heads.jsonl without holding the reference. */
  reference_digest: Record<string, string>;
  faults: FaultCondition | null;
}

/** turn.json beside each step's oracle: what the runner hands a policy for the turn. */
export interface OracleTurnFile {
  index: number;
  date: string;
  from: string;
  request: string;
  prompt: string;
  budget_s: number;
}

/** What a closed business day leaves for the step's verifier (evidence/day-N.json). */
export interface DayClosed {
  turn: number;
  closed: boolean;
  /** The business date the clock stands at now: the next turn's, or the grading date after the last. */
  business_date: string;
  /** Why the day did not close, when it did not. */
  error?: string;
}

export function dayFile(turn: number): string {
  return `day-${turn}.json`;
}
