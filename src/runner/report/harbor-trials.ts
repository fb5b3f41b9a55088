import { cpSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { addUsage, NO_USAGE, type ModelUsage } from '../../agents/llm/usage';
import type { AttemptResult, TurnRecord } from '../../grader/result';
import { agentIdentity, cellOf } from '../agent-identity';
import { ATTEMPT_FILE, readAttemptRecord } from '../../grader/attempt-record';
import { loadPack } from '../../task-pack/load';
import { defaultScenarioDir } from '../scenario';

/**
 * Harbor's job folders beside the runner's attempts (docs/harbor.md): a trial of an exported task
 * becomes the attempt it played. Its verdict and checks are the verifier's result.json (written
 * by the grader after the last step); who played is Harbor's agent and model; each step's agent
 * usage is what the harness reported (Harbor reads it from the agent's own logs), kept as
 * reported usage; a trial that stopped before its last step was graded is an error.
 */

interface HarborTiming {
  started_at?: string | null;
  finished_at?: string | null;
}

interface HarborAgentContext {
  n_input_tokens?: number | null;
  n_output_tokens?: number | null;
  cost_usd?: number | null;
}

interface HarborStepResult {
  step_name: string;
  agent_result?: HarborAgentContext | null;
  verifier_result?: { rewards?: Record<string, number> | null } | null;
  exception_info?: { exception_type?: string; exception_message?: string } | null;
  agent_execution?: HarborTiming | null;
}

/** The part of Harbor's TrialResult (result.json of a trial folder) read here. */
export interface HarborTrialResult {
  task_name: string;
  trial_name: string;
  agent_info: { name: string; version?: string; model_info?: { name?: string | null } | null };
  config?: { agent?: { name?: string | null; model_name?: string | null } };
  exception_info?: { exception_type?: string; exception_message?: string } | null;
  verifier_result?: { rewards?: Record<string, number> | null } | null;
  started_at?: string | null;
  finished_at?: string | null;
  step_results?: HarborStepResult[] | null;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A trial folder of a Harbor job: config.json, and a result.json that is a TrialResult. */
export function harborTrial(dir: string): HarborTrialResult | undefined {
  if (!existsSync(join(dir, 'config.json')) || !existsSync(join(dir, 'result.json'))) return undefined;
  const r = readJson(join(dir, 'result.json')) as Partial<HarborTrialResult> | undefined;
  return r && typeof r.trial_name === 'string' && typeof r.task_name === 'string' && r.agent_info ? (r as HarborTrialResult) : undefined;
}

/** A Harbor job folder: its config.json and result.json, and trial folders inside. */
export function isHarborJob(dir: string): boolean {
  if (!existsSync(join(dir, 'config.json')) || !existsSync(join(dir, 'result.json')) || harborTrial(dir)) return false;
  return readdirSync(dir, { withFileTypes: true }).some((d) => d.isDirectory() && harborTrial(join(dir, d.name)) !== undefined);
}

/** task and seed from an exported task's name (`org/<task>-seed-<N>[-<condition>]`). */
function exportedName(taskName: string): { task: string; seed: number; condition: string } | undefined {
  const m = /^(?:[^/]+\/)?(.+)-seed-(\d+)(?:-(.+))?$/.exec(taskName);
  return m ? { task: m[1]!, seed: Number(m[2]), condition: m[3] ?? 'clean' } : undefined;
}

function seconds(t: HarborTiming | null | undefined): number {
  if (!t?.started_at || !t.finished_at) return 0;
  return Math.max(0, (Date.parse(t.finished_at) - Date.parse(t.started_at)) / 1000);
}

function reportedUsage(steps: readonly HarborStepResult[]): ModelUsage | undefined {
  const contexts = steps.map((s) => s.agent_result).filter((c): c is HarborAgentContext => !!c && (c.n_input_tokens != null || c.n_output_tokens != null || c.cost_usd != null));
  if (contexts.length === 0) return undefined;
  return contexts.reduce<ModelUsage>((sum, c) => addUsage(sum, {
    model_calls: 0, tokens_in: c.n_input_tokens ?? 0, tokens_out: c.n_output_tokens ?? 0, cost_usd: c.cost_usd ?? null,
  }), NO_USAGE);
}

/** The graded result the verifier left in the trial's last graded step, if any. */
function gradedResult(trialDir: string, steps: readonly HarborStepResult[]): AttemptResult | undefined {
  for (const step of [...steps].reverse()) {
    const file = join(trialDir, 'steps', step.step_name, 'verifier', 'result.json');
    const r = readJson(file) as AttemptResult | { verdict: 'error'; error: string } | undefined;
    if (r && 'checks' in r) return r;
  }
  return undefined;
}

/**
 * The attempt a Harbor trial of an exported task played, as the report reads attempts; undefined
 * for a trial of another task. `rep` is the trial's place among the job's trials of its task.
 */
export function attemptOfTrial(trialDir: string, trial: HarborTrialResult, rep: number): AttemptResult | undefined {
  const named = exportedName(trial.task_name);
  if (!named) return undefined;
  const steps = trial.step_results ?? [];
  const identity = agentIdentity(trial.agent_info.name || trial.config?.agent?.name || 'harbor-agent', trial.agent_info.model_info?.name ?? trial.config?.agent?.model_name ?? null, 'cli');
  const label = basename(dirname(trialDir));
  const turns: TurnRecord[] = steps.map((s, k) => ({ index: k + 1, date: '', duration_s: seconds(s.agent_execution), exit_code: s.exception_info ? null : 0, signal: null, timed_out: s.exception_info?.exception_type === 'AgentTimeoutError' }));
  const reported = reportedUsage(steps);
  const graded = gradedResult(trialDir, steps);
  const who = { agent: `harbor:${identity.agent_name}`, ...identity, condition: named.condition, cell: cellOf(identity, named.condition), label, rep };
  if (graded) {
    const { usage: _usage, reported_usage: _reported, ...rest } = graded;
    return { ...rest, ...who, turns, ...(reported ? { reported_usage: reported } : {}) };
  }
  const stopped = steps.find((s) => s.exception_info || (s.verifier_result?.rewards?.reward ?? 0) < 1) ?? steps[steps.length - 1];
  const why = trial.exception_info?.exception_message
    ?? stopped?.exception_info?.exception_message
    ?? (stopped ? `The trial stopped after step ${stopped.step_name}: its business day did not close or it was not graded.` : 'The trial ran no step.');
  return {
    task: named.task, seed: named.seed, ...who, verdict: 'error', status: 'error', passed: false, breach: false, error: why,
    required_checks: { passed: 0, total: 0 }, checks: [], metrics: { probes: 0, writes: 0, reversed_writes: 0 }, turns,
    ...(reported ? { reported_usage: reported } : {}), final_hash: '', pack_hash: '', graded_at_wall: '',
  };
}

/** Every exported task's trial of a job folder, each with its folder; reps numbered per task in trial-name order. */
export function attemptsOfJob(jobDir: string): { folder: string; result: AttemptResult }[] {
  const trials = readdirSync(jobDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ folder: join(jobDir, d.name), trial: harborTrial(join(jobDir, d.name)) }))
    .filter((t): t is { folder: string; trial: HarborTrialResult } => t.trial !== undefined)
    .sort((a, b) => (a.trial.trial_name < b.trial.trial_name ? -1 : a.trial.trial_name > b.trial.trial_name ? 1 : 0));
  const reps = new Map<string, number>();
  const out: { folder: string; result: AttemptResult }[] = [];
  for (const t of trials) {
    const key = `${t.trial.task_name} ${t.trial.agent_info.name} ${t.trial.agent_info.model_info?.name ?? ''}`;
    const rep = (reps.get(key) ?? 0) + 1;
    reps.set(key, rep);
    const result = attemptOfTrial(t.folder, t.trial, rep);
    if (result) out.push({ folder: t.folder, result });
  }
  return out;
}

/**
 * An attempt folder the viewer can open, made in `into` from a Harbor trial: the attempt the ERP
 * service left (steps/<last>/artifacts/evidence/attempt), the agent's workspace, the verifier's
 * result and projections; the pack and the scenario's reference are this checkout's (the scenario
 * as `erp scenario gen` caches it, or `scenariosDir`).
 */
export function trialAttemptFolder(trialDir: string, into: string, o: { tasksDir?: string; scenariosDir?: string } = {}): string {
  const trial = harborTrial(trialDir);
  if (!trial) throw new Error(`${trialDir} is not a Harbor trial folder (no config.json and TrialResult result.json).`);
  const steps = existsSync(join(trialDir, 'steps')) ? readdirSync(join(trialDir, 'steps')).sort() : [];
  const last = [...steps].reverse().find((s) => existsSync(join(trialDir, 'steps', s, 'verifier', 'result.json')) && existsSync(join(trialDir, 'steps', s, 'artifacts', 'evidence', 'attempt', ATTEMPT_FILE)));
  if (!last) throw new Error(`The trial in ${trialDir} was not graded: no step has the verifier's result.json and the ERP service's attempt.`);
  const step = join(trialDir, 'steps', last);
  const result = JSON.parse(readFileSync(join(step, 'verifier', 'result.json'), 'utf8')) as AttemptResult;
  if (!('checks' in result)) throw new Error(`The trial in ${trialDir} ended in an error before grading: ${(result as { error?: string }).error ?? 'no reason recorded'}.`);
  mkdirSync(into, { recursive: true });
  const evidence = join(step, 'artifacts', 'evidence', 'attempt');
  for (const name of readdirSync(evidence)) {
    if (name === 'final.db') {
      try {
        linkSync(join(evidence, name), join(into, name));
        continue;
      } catch {
        // another file system: copied below
      }
    }
    cpSync(join(evidence, name), join(into, name), { recursive: true });
  }
  if (existsSync(join(step, 'artifacts', 'workspace'))) cpSync(join(step, 'artifacts', 'workspace'), join(into, 'workspace'), { recursive: true, verbatimSymlinks: true });
  if (existsSync(join(step, 'verifier', 'projections'))) cpSync(join(step, 'verifier', 'projections'), join(into, 'projections'), { recursive: true });
  writeFileSync(join(into, 'result.json'), JSON.stringify(result, null, 2) + '\n');
  const record = readAttemptRecord(into);
  const pack = loadPack(record.task, o.tasksDir);
  const scenarioDir = o.scenariosDir ? join(o.scenariosDir, record.task, `seed-${record.seed}`) : defaultScenarioDir(record.task, record.seed);
  writeFileSync(join(into, ATTEMPT_FILE), JSON.stringify({ ...record, pack_dir: pack.dir, scenario_dir: scenarioDir }, null, 2) + '\n');
  return into;
}
