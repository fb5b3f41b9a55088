import type { ModelUsage } from '../agents/llm/usage';
import type { AgentIdentity } from '../runner/agent-identity';
import type { CheckType } from '../task-pack/schema';
import type { Finding } from './rules/framework';

/** One row on which the agent's state and the reference (or the start state) disagree. */
export interface DifferingRow {
  key: Record<string, string>;
  /** missing: expected and absent; extra: present and not expected; changed: present with other values; duplicate: key present more than once. */
  kind: 'missing' | 'extra' | 'changed' | 'duplicate';
  /** The columns whose values differ (changed rows). */
  columns?: string[];
  agent?: Record<string, string>;
  expected?: Record<string, string>;
  /** The events behind the row (see EvidenceIndex). */
  event_ids: number[];
}

export interface ControlTieResult {
  kind: string;
  gl_cents: number | null;
  subledger_cents: number | null;
  ties: boolean;
}

export interface CheckResult {
  id: string;
  type: CheckType;
  required: boolean;
  cites: string[];
  passed: boolean;
  /** A failed audit_forbidden: fails the attempt whatever else passed. */
  breach: boolean;
  /** One sentence: what was found. */
  detail: string;
  differing?: DifferingRow[];
  findings?: Finding[];
  accuracy?: number;
  ties?: ControlTieResult[];
}

export interface TurnRecord {
  index: number;
  date: string;
  duration_s: number;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  /** Measured: the reference LLM agent's model usage in the turn, from its transcript. */
  usage?: ModelUsage;
  /** Self-reported: the usage a `cmd:` agent printed about itself in the turn. */
  reported_usage?: ModelUsage;
}

export interface AttemptMetrics {
  /** The agent's refused requests (hard controls hit, bad input, foreign paths). */
  probes: number;
  /** The agent's accepted writes that changed state. */
  writes: number;
  /** Of those, how many the agent itself later reversed (cancelled, voided, reversed). */
  reversed_writes: number;
}

/** Model usage an agent reported for the attempt (summed over its turns); absent when it reports none. */
export type Verdict = 'pass' | 'fail' | 'error' | 'tampered' | 'incomplete';

export function statusOf(verdict: Verdict): AttemptResult['status'] {
  return verdict === 'pass' || verdict === 'fail' ? 'graded' : verdict;
}

/** result.json of an attempt. */
export interface AttemptResult {
  task: string;
  seed: number;
  agent: string;
  /** Who played (src/runner/agent-identity.ts): the name and model the operator gave, and the interface. */
  agent_name: string;
  model: string | null;
  interface: AgentIdentity['interface'];
  /** Through erp mcp, the tools offered (`budget:64`, `all`); null otherwise, absent in results made before budgets. */
  tools?: string | null;
  condition: string;
  cell: string;
  label: string;
  rep: number;
  /**
   * pass and fail are graded verdicts. error: the run or the grade could not finish. tampered: the
   * files disagree with the tamper evidence the runner recorded (heads.jsonl), so nothing was graded.
   * incomplete: the run was interrupted (Ctrl-C, SIGTERM) and says nothing about the agent.
   */
  verdict: Verdict;
  /** graded for pass and fail; otherwise the verdict. */
  status: 'graded' | 'error' | 'tampered' | 'incomplete';
  passed: boolean;
  breach: boolean;
  /** Why grading could not finish, when verdict is error. */
  error?: string;
  /** When the error is the reference llm agent's model provider out of reach: the turn and the provider's error (attempt.json's provider_error). */
  provider_error?: { turn: number; status: number | null; message: string };
  /** Why the attempt is incomplete or tampered, in one sentence. */
  why?: string;
  /** What differs from the recorded evidence, one sentence each (verdict tampered). */
  tampered?: string[];
  required_checks: { passed: number; total: number };
  checks: CheckResult[];
  metrics: AttemptMetrics;
  /** Under a fault condition only (seed 000 §7.1): faults by kind, writes committed behind one, re-sends, duplicates. */
  fault_metrics?: Record<string, number>;
  turns: TurnRecord[];
  /** Measured model usage over the attempt (the reference LLM agent): tokens in and out, estimated cost; absent for other agents. */
  usage?: ModelUsage;
  /** Usage a `cmd:` agent reported about itself, kept apart from measured usage. */
  reported_usage?: ModelUsage;
  /** Canonical hash of final.db (rows sorted, wall-clock columns left out). */
  final_hash: string;
  pack_hash: string;
  graded_at_wall: string;
}
