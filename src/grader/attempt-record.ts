import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentIdentity } from '../runner/agent-identity';
import type { ModelUsage } from '../agents/llm/usage';
import type { TurnRecord } from './result';

/**
 * attempt.json: what the runner recorded about an attempt, all the grader needs beside the
 * databases, the workspace and the scenario's reference.
 */
export interface AttemptRecord {
  /**
   * 3: tokens issued at the reset, tamper evidence in heads.jsonl, and no start.db: the start is
   * final.db through start_seq. 2: the same with a start.db beside final.db. 1: no tokens issued at
   * the reset and no evidence (graded without it).
   */
  version: 1 | 2 | 3;
  task: string;
  pack_dir: string;
  pack_hash: string;
  seed: number;
  scenario_dir: string;
  /** As given: oracle, null, neg:<name>, cmd:<command> or llm:<model>. */
  agent: string;
  /** Who played, as results and reports name it (src/runner/agent-identity.ts); absent from records made before it. */
  agent_name?: string;
  model?: string | null;
  interface?: AgentIdentity['interface'];
  /** Through erp mcp, the tools offered (`budget:64`, `all`); null otherwise. */
  tools?: string | null;
  condition: string;
  cell: string;
  label: string;
  rep: number;
  agent_user: string;
  counterparties: string[];
  /** The token id each user got at the attempt's reset (the secrets were never written). */
  token_ids?: Record<string, string>;
  /** How the agent's turns ran: bwrap (the sandbox), none (--no-sandbox), in-process (oracle, null, neg:), container (an external agent in a container of its own: a Harbor step). */
  isolation?: 'bwrap' | 'none' | 'in-process' | 'container';
  /** The last event of the start the agent was given (the tokens of the reset included); the attempt's events follow it. */
  start_seq: number;
  /** Inclusive event ranges written while the agent's turns ran. */
  agent_windows: { turn: number; fromSeq: number; toSeq: number }[];
  turns: TurnRecord[];
  grading_date: string;
  /** Set when the run could not finish (the server failed, the clock could not advance). */
  run_error?: string;
  /** Set when the reference LLM agent could not reach its model provider (retries spent): the turn, and the provider's error. The run stops there and is not graded. */
  provider_error?: { turn: number; status: number | null; message: string };
  /** Set when the run was interrupted (Ctrl-C, SIGTERM): why, in one sentence. */
  incomplete?: string;
  /** Measured: the reference LLM agent's model calls, which the runner's own agent counts, summed over its turns; absent for other agents. */
  usage?: ModelUsage;
  /** Self-reported: the usage a `cmd:` agent printed about itself (model_call lines, a harness's usage), summed over its turns; never measured, never added to `usage`. */
  reported_usage?: ModelUsage;
  started_wall: string;
  finished_wall: string;
}

export const ATTEMPT_FILE = 'attempt.json';

/** The identity fields of a record; a record made before they existed is named by its agent, over the interface its kind used. */
export function recordedIdentity(record: AttemptRecord): AgentIdentity {
  if (record.agent_name !== undefined && record.interface !== undefined) return { agent_name: record.agent_name, model: record.model ?? null, interface: record.interface, tools: record.tools ?? null };
  return { agent_name: record.agent, model: null, interface: record.agent.startsWith('cmd:') ? 'cli' : 'http', tools: null };
}

/**
 * A record's (or result's) usage by its source: `usage` measured by the runner, `reported_usage`
 * what a `cmd:` agent said of itself. A record from before the two were kept apart held a `cmd:`
 * agent's word as `usage`: it is read as reported.
 */
export function usageBySource(r: { agent: string; usage?: ModelUsage; reported_usage?: ModelUsage }): Pick<AttemptRecord, 'usage' | 'reported_usage'> {
  const selfReported = r.agent.startsWith('cmd:');
  const measured = selfReported ? undefined : r.usage;
  const reported = r.reported_usage ?? (selfReported ? r.usage : undefined);
  return { ...(measured ? { usage: measured } : {}), ...(reported ? { reported_usage: reported } : {}) };
}

/** The attempt.json of an attempt folder; an error that says what the folder is when it is not one. */
export function readAttemptRecord(dir: string): AttemptRecord {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`No attempt folder at ${dir}.`);
  const file = join(dir, ATTEMPT_FILE);
  if (!existsSync(file)) {
    throw new Error(`${dir} is not an attempt folder: it has no ${ATTEMPT_FILE} (bench run writes one into each attempt's folder, such as runs/oracle/payment-run/seed-0/rep-1).`);
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as AttemptRecord;
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}.`);
  }
}

export function writeAttemptRecord(dir: string, record: AttemptRecord): void {
  writeFileSync(join(dir, ATTEMPT_FILE), JSON.stringify(record, null, 2) + '\n');
}
