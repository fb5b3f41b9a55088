import { loadPack } from '../../task-pack/load';
import { loadPackCode } from '../../task-pack/module-loader';
import type { Verdict } from '../../grader/result';
import { isPolicy, parseAgent } from '../agent-spec';
import type { AgentIdentity } from '../agent-identity';
import { runAttempt } from '../attempt';
import { resolveFaults } from '../fault-condition';
import { llmSettings, type LlmFlags } from '../llm-agent';
import { limitsFrom } from '../sandbox/limits';

/** One campaign attempt as a worker process receives it (JSON): everything is resolved already. */
export interface SlotJob {
  task: string;
  tasksDir?: string;
  packHash: string;
  scenarioDir: string;
  seed: number;
  rep: number;
  agent: string;
  identity: AgentIdentity;
  /** The declared condition: `clean`, or a fault profile or SPEC of the task. */
  declared: string;
  sandbox: boolean;
  passEnv: string[];
  agentFiles: string[];
  netAllow: string[];
  limits: string[];
  /** The llm agent's flags; its key is read from this process's environment, never carried in the job. */
  llm?: LlmFlags;
  timeout?: number;
  label: string;
  /** The staging folder the attempt is written into. */
  attemptDir: string;
}

/** Runs one attempt into its staging folder; the verdict it reached (incomplete when `signal` ended it). */
export async function runSlot(job: SlotJob, signal: AbortSignal, log: (line: string) => void): Promise<Verdict> {
  const pack = loadPack(job.task, job.tasksDir);
  const agent = parseAgent(job.agent);
  const code = isPolicy(agent) ? loadPackCode(pack) : undefined;
  const faults = job.declared === 'clean' ? undefined : resolveFaults(pack, job.declared);
  const out = await runAttempt({
    pack, code, packHash: job.packHash, scenarioDir: job.scenarioDir, seed: job.seed, agent, identity: job.identity, attemptDir: job.attemptDir,
    label: job.label, rep: job.rep, faults, timeoutSeconds: job.timeout, log, sandbox: job.sandbox, passEnv: job.passEnv, agentFiles: job.agentFiles, netAllow: job.netAllow, limits: limitsFrom(job.limits), signal,
    ...(agent.kind === 'llm' ? { llm: llmSettings(job.llm ?? {}) } : {}),
  });
  return out.result!.verdict;
}
