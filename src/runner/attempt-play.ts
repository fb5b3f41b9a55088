import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Api } from '../api/pipeline';
import { startServer, type RunningServer } from '../api/server';
import { ErpClient } from '../client/http-client';
import { openDatabase, type Db } from '../events/database';
import { writeAttemptRecord, type AttemptRecord } from '../grader/attempt-record';
import { ungradedResult, writeResult } from '../grader/ungraded';
import type { AttemptResult } from '../grader/result';
import { appendHead, chainHead, referenceDigest } from '../grader/tamper';
import { issueTokens, type Credentials, type IssuedTokens } from '../sim/credentials';
import { createSimulator } from '../sim/simulator';
import type { World } from '../sim/world';
import type { AgentPolicy, TaskCode, TurnInfo } from '../task-pack/code';
import type { TaskPack } from '../task-pack/load';
import { agentText, isPolicy, resolveIdentity, type AgentSpec } from './agent-spec';
import { cellOf, identityFields, toolBudgetEnv, type AgentIdentity } from './agent-identity';
import { checkAgentFiles, conditionWithIsolation, launcherFor, requireSandbox } from './agent-launch';
import { agentEnv, checkPassEnv, type TurnLauncher } from './launcher';
import { nullPolicy, runPolicyTurn } from './policy-agent';
import { GENERIC_POSITIVES, genericPositives } from './generic-positives';
import { runProcessTurn, type ProcessOutcome } from './process-agent';
import { settleToSingleFile } from './db-file';
import { turnPrompt, type PromptPeople } from './prompt';
import { attemptInjector, FAULTS_FILE, type FaultCondition } from './fault-condition';
import { addUsage, NO_USAGE, providerFailureOf, usageOfTranscript } from '../agents/llm/usage';
import { llmAgentEnv, llmLimits, type LlmSettings } from './llm-agent';
import { destinationOf } from './sandbox/egress-proxy';
import { DEFAULT_LIMITS, type TurnLimits } from './sandbox/limits';

export interface AttemptOptions {
  pack: TaskPack;
  /** The pack's code: needed for the oracle and the negative controls. */
  code?: TaskCode;
  packHash: string;
  scenarioDir: string;
  seed: number;
  agent: AgentSpec;
  /** Who plays, as results name it; a policy's is its own, a command agent's must be given (resolveIdentity). */
  identity?: AgentIdentity;
  attemptDir: string;
  label: string;
  rep: number;
  condition?: string;
  /** A declared transport-fault condition; its name becomes the attempt's condition. */
  faults?: FaultCondition;
  /** Overrides every turn's budget, in seconds (a declared change to the task). */
  timeoutSeconds?: number;
  log?: (line: string) => void;
  /** Grade after the run (default true; runAttempt's, playAttempt never grades). */
  grade?: boolean;
  /** A command agent's turns run in the bubblewrap sandbox unless this is false (`--no-sandbox`). */
  sandbox?: boolean;
  /** Runner variables a command agent also gets (an adapter's model API key, say). */
  passEnv?: readonly string[];
  /** The harness's own files, visible read-only at their paths inside the sandbox. */
  agentFiles?: readonly string[];
  /** Ends the run early (Ctrl-C, SIGTERM): the agent dies, the attempt is recorded incomplete. */
  signal?: AbortSignal;
  /** Draws the secrets of the reset's tokens (default: the operating system's random source). */
  secretFor?: (user: string) => string;
  /** The reference LLM agent's endpoint and limits (`--agent llm:<model>`). */
  llm?: LlmSettings;
  /** This run writes the scenario's reference (scenario generation): its heads record no reference hash. */
  writesReference?: boolean;
  /** What each sandboxed turn may use (`--limit`); DEFAULT_LIMITS when not given. */
  limits?: TurnLimits;
  /** `host:port`s a sandboxed command agent may reach besides the agent port (`--net-allow`): its model provider. */
  netAllow?: readonly string[];
  /** An external agent's turns (agent kind `external`): each resolves when the agent outside the runner has ended the turn. */
  externalTurn?: (turn: TurnInfo) => Promise<ProcessOutcome>;
  /** Where the agent port listens (default: loopback, any free port); the control port stays on loopback. */
  agentListen?: { host: string; port: number };
  /** The reference's digest for heads.jsonl when the reference is not beside the scenario (a service that must not hold it). */
  referenceDigest?: Record<string, string>;
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
  if (!isPolicy(agent)) return undefined;
  if (agent.kind === 'null') return nullPolicy;
  if (!code) throw new Error(`The ${agentText(agent)} agent needs the task pack's code.`);
  if (agent.kind === 'oracle') return code.oracle;
  if (agent.kind === 'positive') {
    const positive = code.positives?.[agent.name] ?? genericPositives(code)[agent.name]?.policy;
    if (!positive) throw new Error(`The task has no positive control pos:${agent.name} (it has ${[...Object.keys(code.positives ?? {}), ...GENERIC_POSITIVES].map((n) => `pos:${n}`).join(', ')}).`);
    return positive;
  }
  const policy = code.negatives[agent.name];
  if (!policy) throw new Error(`The task has no negative control neg:${agent.name} (it has ${Object.keys(code.negatives).map((n) => `neg:${n}`).join(', ') || 'none'}).`);
  return policy;
}

function withFile<T>(file: string, fn: (db: Db) => T): T {
  const db = openDatabase(file, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

async function advance(control: ErpClient, to: string): Promise<void> {
  const res = await control.post('/control/advance', { to });
  if (res.status !== 200) throw new Error(`The clock could not advance to ${to}: ${res.text}`);
}

/** Who a turn's prompt names, as the served database has them: the company, the agent's user and the one asking. */
export function promptPeople(api: Api, userId: string, fromId: string): PromptPeople {
  const person = (id: string) => {
    const u = api.read.org.user(id);
    return { id, name: u?.name ?? id, title: u?.title ?? '' };
  };
  return { company: api.read.clock.company()?.name ?? 'the company', user: person(userId), from: person(fromId) };
}

/** Thrown inside the run when the signal aborts it; caught there and recorded as incomplete. */
class Interrupted extends Error {}

function interruptedWhy(signal: AbortSignal, where: string): string {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'an interrupt');
  return `The run was interrupted by ${reason} ${where}; nothing was graded.`;
}

/**
 * One attempt (seed 000 §5) up to its grading: copies the scenario and resets it (fresh tokens for
 * every user), serves it, and for each turn advances the clock through the control API
 * (counterparties act), writes the prompt and runs the agent (a command agent in its sandbox); then
 * advances to the grading date, flushes and stops the server. At each turn boundary it records the
 * chain head and the reference's hash in heads.jsonl, outside the agent's reach. An interrupted
 * run gets its incomplete result here; runAttempt (attempt.ts) grades the others. It holds no
 * grader: the ERP service of an exported Harbor task runs it.
 */
export async function playAttempt(o: AttemptOptions): Promise<AttemptOutcome> {
  const { pack, attemptDir: dir } = o;
  const log = o.log ?? (() => undefined);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: an attempt folder is written once.`);
  if ((o.agent.kind === 'external') !== (o.externalTurn !== undefined)) throw new Error('An external agent, and only one, needs externalTurn.');
  const policy = policyFor(o.agent, o.code);
  const identity = identityFields(o.identity ?? resolveIdentity(o.agent));
  const isLlm = o.agent.kind === 'llm';
  const isCommand = o.agent.kind === 'command' || isLlm;
  if (isLlm && !o.llm) throw new Error('The llm agent needs its endpoint: --llm-base-url or OPENAI_BASE_URL.');
  const sandbox = { sandbox: o.sandbox ?? true };
  if (isCommand) requireSandbox(sandbox);
  checkPassEnv(o.passEnv ?? []);
  const world = JSON.parse(readFileSync(join(o.scenarioDir, 'world.json'), 'utf8')) as World;
  if (!world.users?.includes(pack.spec.agent_user)) throw new Error(`world.json does not list the agent user ${pack.spec.agent_user}: generate the scenario again.`);

  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const agentFiles = isCommand ? checkAgentFiles(o.agentFiles ?? [], { scenarioDir: o.scenarioDir, attemptDir: dir }) : [];
  cpSync(join(o.scenarioDir, 'handbook'), join(workspace, 'handbook'), { recursive: true });
  copyFileSync(join(o.scenarioDir, 'scenario.db'), join(dir, 'final.db'));
  // The llm agent reaches its model endpoint; a command agent what the operator allowed; nothing else.
  const egress = [...(isLlm ? [destinationOf(o.llm!.baseUrl)] : []), ...(o.netAllow ?? [])];
  const launcher: TurnLauncher | undefined = isCommand ? launcherFor(sandbox, join(dir, 'sandbox'), { limits: o.limits ?? DEFAULT_LIMITS, egress }) : undefined;

  const controlToken = randomBytes(24).toString('hex');
  let running: RunningServer | undefined;
  const intercept = o.faults
    ? attemptInjector(o.faults, join(dir, FAULTS_FILE), () => ({ today: () => running!.api.today(), lastSeq: () => running!.erp.store.lastSeq() }), SLOW_FAULT_MS)
    : undefined;
  // The simulator reads each counterparty's secret when it acts: the reset below issues them.
  const secrets: Credentials = {};
  let server: RunningServer;
  let tokens: IssuedTokens;
  try {
    await launcher?.open();
    server = await startServer({ dbFile: join(dir, 'final.db'), controlToken, onDay: createSimulator(world, secrets), intercept, fast: true, agentSocket: launcher?.agentPort?.socket, host: o.agentListen?.host, port: o.agentListen?.port });
  } catch (err) {
    await launcher?.close();
    throw err;
  }
  running = server;
  try {
    // The reset, before anything else runs: through the server's own connection, not a file of its own.
    tokens = issueTokens(server.api, world.users, 'attempt', o.secretFor);
  } catch (err) {
    await server.close();
    await launcher?.close();
    throw err;
  }
  Object.assign(secrets, tokens.secrets);

  const condition = conditionWithIsolation(o.faults?.condition ?? o.condition ?? 'clean', launcher?.isolation === 'none');
  const record: AttemptRecord = {
    version: 3, task: pack.slug, pack_dir: pack.dir, pack_hash: o.packHash, seed: o.seed, scenario_dir: o.scenarioDir,
    agent: agentText(o.agent), ...identity, condition, cell: cellOf(identity, condition), label: o.label, rep: o.rep,
    agent_user: pack.spec.agent_user, counterparties: world.users.filter((u) => u !== pack.spec.agent_user),
    token_ids: tokens.ids, isolation: launcher?.isolation ?? (o.externalTurn ? 'container' : 'in-process'),
    start_seq: chainHead(server.erp.db).seq, agent_windows: [], turns: [], grading_date: pack.spec.grading_date,
    started_wall: new Date().toISOString(), finished_wall: '',
  };
  writeFileSync(join(dir, 'condition.json'), JSON.stringify({ condition, faults: o.faults ? { spec: o.faults.spec, profile: o.faults.profile } : null, agent: record.agent, ...identity, cell: record.cell, isolation: record.isolation, timeout_override_s: o.timeoutSeconds ?? null, sandbox: launcher?.enforced ?? null, ...(isLlm ? { llm_api: o.llm!.api, adapter_limits: llmLimits(o.llm!) } : {}) }, null, 2) + '\n');
  const referenceDir = join(o.scenarioDir, 'reference');
  const witness = (at: string, db: Db) => appendHead(dir, { at, ...chainHead(db), reference: o.writesReference ? null : (o.referenceDigest ?? referenceDigest(referenceDir)) });
  // The start the agent is given is final.db as it is now: this head, which final.db must extend.
  witness('start', server.erp.db);
  const control = new ErpClient({ baseUrl: server.controlUrl, token: controlToken, timeoutMs: 600_000 });
  const agentToken = tokens.secrets[pack.spec.agent_user]!;
  const turns = pack.spec.turns;
  let where = 'before the first turn';
  const stopIfInterrupted = () => {
    if (o.signal?.aborted) throw new Interrupted(interruptedWhy(o.signal, where));
  };
  try {
    for (const [i, turn] of turns.entries()) {
      const index = i + 1;
      stopIfInterrupted();
      where = `while the clock advanced to turn ${index}`;
      await advance(control, turn.date);
      stopIfInterrupted();
      where = `during turn ${index}`;
      const turnDir = join(dir, 'turns', String(index));
      mkdirSync(turnDir, { recursive: true });
      const prompt = turnPrompt(promptPeople(server.api, pack.spec.agent_user, turn.from), turn.date, turn.request);
      const promptFile = join(turnDir, 'prompt.md');
      writeFileSync(promptFile, prompt);
      const budgetMs = (o.timeoutSeconds ?? turn.budget) * 1000;
      const io = { stdoutFile: join(turnDir, 'stdout.txt'), stderrFile: join(turnDir, 'stderr.txt') };
      witness(`turn ${index} begins`, server.erp.db);
      const fromSeq = server.erp.store.lastSeq() + 1;
      const turnInfo: TurnInfo = { index, date: turn.date, from: turn.from, request: turn.request, prompt };
      const outcome: ProcessOutcome = o.externalTurn
        ? await o.externalTurn(turnInfo)
        : launcher
        ? await runProcessTurn({
          launcher, budgetMs, signal: o.signal,
          turn: {
            command: isLlm ? launcher.programCommand('llm') : (o.agent as { command: string }).command, workspace, home: join(turnDir, 'home'), promptFile, prompt, agentFiles, ...io,
            env: { ...agentEnv({ url: launcher.agentPort?.url ?? server.url, token: agentToken }, o.passEnv), ...toolBudgetEnv(identity), ...(isLlm ? llmAgentEnv(o.llm!, identity.model!, budgetMs / 1000) : {}) },
          },
        })
        : await runPolicyTurn({ policy: policy!, erpUrl: server.url, erpToken: agentToken, workspace, turn: turnInfo, budgetMs, signal: o.signal, ...io });
      // A request the agent sent just before it ended or was killed is still in the server's
      // socket buffer: let it land before the turn's event range is closed.
      if (launcher) await new Promise((r) => setTimeout(r, SETTLE_MS));
      const toSeq = server.erp.store.lastSeq();
      if (toSeq >= fromSeq) record.agent_windows.push({ turn: index, fromSeq, toSeq });
      witness(`turn ${index} ends`, server.erp.db);
      // The reference agent's model calls are the runner's own count (measured); a cmd: agent's
      // output (a harness's usage, model_call lines) is only its word about itself, kept apart.
      const stdout = launcher && existsSync(io.stdoutFile) ? readFileSync(io.stdoutFile, 'utf8') : undefined;
      const transcript = stdout === undefined ? undefined : usageOfTranscript(stdout);
      const usage = isLlm ? transcript : undefined;
      const reportedUsage = !isLlm && transcript && transcript.model_calls > 0 ? transcript : undefined;
      if (usage) record.usage = addUsage(record.usage ?? NO_USAGE, usage);
      if (reportedUsage) record.reported_usage = addUsage(record.reported_usage ?? NO_USAGE, reportedUsage);
      const turnRecord = { index, date: turn.date, ...outcome, ...(usage ? { usage } : {}), ...(reportedUsage ? { reported_usage: reportedUsage } : {}) };
      writeFileSync(join(turnDir, 'exit.json'), JSON.stringify(turnRecord, null, 2) + '\n');
      record.turns.push(turnRecord);
      log(`turn ${index}/${turns.length} ${turn.date} ${record.agent}: ${outcome.limit ? `ended at its ${outcome.limit} limit` : outcome.timed_out ? 'timed out' : `exit ${outcome.exit_code ?? outcome.signal}`} after ${outcome.duration_s.toFixed(1)} s`);
      stopIfInterrupted();
      // The model was out of reach, not wrong: the attempt stops here and is errored, never graded.
      const failure = isLlm && stdout !== undefined ? providerFailureOf(stdout) : undefined;
      if (failure) {
        record.provider_error = { turn: index, ...failure };
        throw new Error(`The model provider could not be reached in turn ${index}: ${failure.message}`);
      }
    }
    where = 'while the clock advanced to the grading date';
    await advance(control, pack.spec.grading_date);
    const flushed = await control.post('/control/flush', {});
    if (flushed.status !== 200) throw new Error(`The server did not flush: ${flushed.text}`);
    stopIfInterrupted();
  } catch (err) {
    if (err instanceof Interrupted) record.incomplete = err.message;
    else record.run_error = (err as Error).message;
    log(`${err instanceof Interrupted ? 'interrupted' : 'run error'}: ${(err as Error).message}`);
  } finally {
    await control.post('/control/shutdown', {}).then(() => server.closed, () => server.close());
    control.close();
    await launcher?.close();
    settleToSingleFile(join(dir, 'final.db'), { fast: true });
  }
  withFile(join(dir, 'final.db'), (db) => witness('closed', db));
  record.finished_wall = new Date().toISOString();
  writeAttemptRecord(dir, record);
  if (record.incomplete) {
    const result = ungradedResult(record, pack.spec, 'incomplete', record.incomplete);
    writeResult(dir, result);
    return { dir, record, result };
  }
  return { dir, record };
}
