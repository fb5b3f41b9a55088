import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../api/server';
import { ErpClient } from '../client/http-client';
import { lastSeqOfFile } from '../events/store';
import { writeAttemptRecord, type AttemptRecord } from '../grader/attempt-record';
import { gradeAttempt, writeResult } from '../grader/grade';
import type { AttemptResult } from '../grader/result';
import { createSimulator } from '../sim/simulator';
import type { World } from '../sim/world';
import type { AgentPolicy, TaskCode } from '../task-pack/code';
import type { TaskPack } from '../task-pack/load';
import { agentSlug, agentText, cellOf, type AgentSpec } from './agent-spec';
import { nullPolicy, runPolicyTurn } from './policy-agent';
import { runProcessTurn, writeErpWrapper, type ProcessOutcome } from './process-agent';
import { settleToSingleFile } from './db-file';
import { turnPrompt, type PromptPeople } from './prompt';
import { attemptInjector, FAULTS_FILE, type FaultCondition } from './fault-condition';

export interface AttemptOptions {
  pack: TaskPack;
  /** The pack's code: needed for the oracle and the negative controls. */
  code?: TaskCode;
  packHash: string;
  scenarioDir: string;
  seed: number;
  agent: AgentSpec;
  attemptDir: string;
  label: string;
  rep: number;
  condition?: string;
  /** A declared transport-fault condition; its name becomes the attempt's condition. */
  faults?: FaultCondition;
  /** Overrides every turn's budget, in seconds (a declared change to the task). */
  timeoutSeconds?: number;
  log?: (line: string) => void;
  /** Grade after the run (default true). */
  grade?: boolean;
}

export interface AttemptOutcome {
  dir: string;
  record: AttemptRecord;
  result?: AttemptResult;
}

/** Time for requests already sent by an ended agent process to reach the server. */
const SETTLE_MS = 50;
/** A `slow` fault holds its response longer than the erp command's 120-second timeout. */
const SLOW_FAULT_MS = 125_000;

function policyFor(agent: AgentSpec, code: TaskCode | undefined): AgentPolicy | undefined {
  if (agent.kind === 'command') return undefined;
  if (agent.kind === 'null') return nullPolicy;
  if (!code) throw new Error(`The ${agentText(agent)} agent needs the task pack's code.`);
  if (agent.kind === 'oracle') return code.oracle;
  const policy = code.negatives[agent.name];
  if (!policy) throw new Error(`The task has no negative control neg:${agent.name} (it has ${Object.keys(code.negatives).map((n) => `neg:${n}`).join(', ') || 'none'}).`);
  return policy;
}

async function advance(control: ErpClient, to: string): Promise<void> {
  const res = await control.post('/control/advance', { to });
  if (res.status !== 200) throw new Error(`The clock could not advance to ${to}: ${res.text}`);
}

function people(server: RunningServer, userId: string, fromId: string): PromptPeople {
  const person = (id: string) => {
    const u = server.api.read.org.user(id);
    return { id, name: u?.name ?? id, title: u?.title ?? '' };
  };
  return { company: server.api.read.clock.company()?.name ?? 'the company', user: person(userId), from: person(fromId) };
}

/**
 * One attempt (seed 000 §5): copies the scenario, serves it, and for each turn advances the clock
 * through the control API (counterparties act), writes the prompt and runs the agent; then advances
 * to the grading date, flushes, stops the server and grades.
 */
export async function runAttempt(o: AttemptOptions): Promise<AttemptOutcome> {
  const { pack, attemptDir: dir } = o;
  const log = o.log ?? (() => undefined);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: an attempt folder is written once.`);
  const policy = policyFor(o.agent, o.code);
  const world = JSON.parse(readFileSync(join(o.scenarioDir, 'world.json'), 'utf8')) as World;
  const token = world.tokens[pack.spec.agent_user];
  if (!token) throw new Error(`world.json has no token for the agent user ${pack.spec.agent_user}.`);

  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  cpSync(join(o.scenarioDir, 'handbook'), join(workspace, 'handbook'), { recursive: true });
  copyFileSync(join(o.scenarioDir, 'scenario.db'), join(dir, 'start.db'));
  copyFileSync(join(o.scenarioDir, 'scenario.db'), join(dir, 'final.db'));
  const binDir = join(dir, 'bin');
  if (o.agent.kind === 'command') writeErpWrapper(binDir);

  const condition = o.faults?.condition ?? o.condition ?? 'clean';
  const slug = agentSlug(o.agent);
  const record: AttemptRecord = {
    version: 1, task: pack.slug, pack_dir: pack.dir, pack_hash: o.packHash, seed: o.seed, scenario_dir: o.scenarioDir,
    agent: agentText(o.agent), agent_slug: slug, condition, cell: cellOf(slug, condition), label: o.label, rep: o.rep,
    agent_user: pack.spec.agent_user, counterparties: Object.keys(world.tokens).filter((u) => u !== pack.spec.agent_user).sort(),
    start_seq: lastSeqOfFile(join(dir, 'start.db')), agent_windows: [], turns: [], grading_date: pack.spec.grading_date,
    started_wall: new Date().toISOString(), finished_wall: '',
  };
  writeFileSync(join(dir, 'condition.json'), JSON.stringify({ condition, faults: o.faults ? { spec: o.faults.spec, profile: o.faults.profile } : null, agent: record.agent, cell: record.cell, timeout_override_s: o.timeoutSeconds ?? null }, null, 2) + '\n');

  const controlToken = randomBytes(24).toString('hex');
  let running: RunningServer | undefined;
  const intercept = o.faults
    ? attemptInjector(o.faults, join(dir, FAULTS_FILE), () => ({ today: () => running!.api.today(), lastSeq: () => running!.erp.store.lastSeq() }), SLOW_FAULT_MS)
    : undefined;
  const server = await startServer({ dbFile: join(dir, 'final.db'), controlToken, onDay: createSimulator(world), intercept });
  running = server;
  const control = new ErpClient({ baseUrl: server.controlUrl, token: controlToken, timeoutMs: 600_000 });
  const turns = pack.spec.turns;
  try {
    for (const [i, turn] of turns.entries()) {
      const index = i + 1;
      await advance(control, turn.date);
      const turnDir = join(dir, 'turns', String(index));
      mkdirSync(turnDir, { recursive: true });
      const prompt = turnPrompt(people(server, pack.spec.agent_user, turn.from), turn.date, turn.request);
      const promptFile = join(turnDir, 'prompt.md');
      writeFileSync(promptFile, prompt);
      const budgetMs = (o.timeoutSeconds ?? turn.budget) * 1000;
      const io = { stdoutFile: join(turnDir, 'stdout.txt'), stderrFile: join(turnDir, 'stderr.txt') };
      const fromSeq = server.erp.store.lastSeq() + 1;
      const outcome: ProcessOutcome = o.agent.kind === 'command'
        ? await runProcessTurn({ command: o.agent.command, cwd: workspace, erpUrl: server.url, erpToken: token, binDir, home: join(turnDir, 'home'), promptFile, prompt, budgetMs, ...io })
        : await runPolicyTurn({ policy: policy!, erpUrl: server.url, erpToken: token, workspace, turn: { index, date: turn.date, from: turn.from, request: turn.request, prompt }, budgetMs, ...io });
      // A request the agent sent just before it ended or was killed is still in the server's
      // socket buffer: let it land before the turn's event range is closed.
      if (o.agent.kind === 'command') await new Promise((r) => setTimeout(r, SETTLE_MS));
      const toSeq = server.erp.store.lastSeq();
      if (toSeq >= fromSeq) record.agent_windows.push({ turn: index, fromSeq, toSeq });
      const turnRecord = { index, date: turn.date, ...outcome };
      writeFileSync(join(turnDir, 'exit.json'), JSON.stringify(turnRecord, null, 2) + '\n');
      record.turns.push(turnRecord);
      log(`turn ${index}/${turns.length} ${turn.date} ${record.agent}: ${outcome.timed_out ? 'timed out' : `exit ${outcome.exit_code ?? outcome.signal}`} after ${outcome.duration_s.toFixed(1)} s`);
    }
    await advance(control, pack.spec.grading_date);
    const flushed = await control.post('/control/flush', {});
    if (flushed.status !== 200) throw new Error(`The server did not flush: ${flushed.text}`);
  } catch (err) {
    record.run_error = (err as Error).message;
    log(`run error: ${record.run_error}`);
  } finally {
    await control.post('/control/shutdown', {}).then(() => server.closed, () => server.close());
    control.close();
    settleToSingleFile(join(dir, 'final.db'));
  }
  record.finished_wall = new Date().toISOString();
  writeAttemptRecord(dir, record);
  if (o.grade === false) return { dir, record };
  return { dir, record, result: gradeOrError(dir, pack, record) };
}

/** Grades the attempt; a grade that cannot be made is recorded as an error verdict, never as a pass. */
export function gradeOrError(dir: string, pack: TaskPack, record: AttemptRecord): AttemptResult {
  try {
    return gradeAttempt(dir, { pack });
  } catch (err) {
    const result: AttemptResult = {
      task: record.task, seed: record.seed, agent: record.agent, condition: record.condition, cell: record.cell, label: record.label, rep: record.rep,
      verdict: 'error', passed: false, breach: false, error: (err as Error).message, required_checks: { passed: 0, total: pack.spec.checks.filter((c) => c.required ?? true).length },
      checks: [], metrics: { probes: 0, writes: 0, reversed_writes: 0 }, turns: record.turns, final_hash: '', pack_hash: record.pack_hash, graded_at_wall: new Date().toISOString(),
    };
    writeResult(dir, result);
    return result;
  }
}
