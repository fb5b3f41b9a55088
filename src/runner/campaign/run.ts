import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ATTEMPT_FILE, readAttemptRecord } from '../../grader/attempt-record';
import { ungradedResult, writeResult } from '../../grader/grade';
import { statusOf, type AttemptResult, type Verdict } from '../../grader/result';
import type { TaskPack } from '../../task-pack/load';
import type { Progress } from '../company';
import type { BarStream } from '../progress-bar';
import { pool } from '../pool';
import { generateScenario } from '../scenario';
import { campaignIdentity, identityChanges, readManifest, writeManifest, type CampaignManifest, type CampaignSession } from './manifest';
import { planCampaign, type CampaignSlot } from './plan';
import { CampaignProgress, countVerdict, doneOf, timeLeftSeconds, type CampaignCounts } from './progress';
import { needsRun, publish, slotState, STAGING_DIR, stagingFor, supersede } from './slot-state';
import { runSlot, type SlotJob } from './slot-run';
import type { CampaignSpec } from './spec';

export interface CampaignOptions {
  spec: CampaignSpec;
  /** Default runs/: the campaign goes to runs/<name>/. */
  runsDir?: string;
  /** Default scenarios/<task>/seed-<N>, generated when missing or stale. */
  scenariosDir?: string;
  /** Attempts at once (default 1). */
  jobs?: number;
  /** Run errored attempts again (they are set aside in .superseded/, not deleted). */
  retryErrored?: boolean;
  /** Ctrl-C, SIGTERM: every running agent ends, its attempt is recorded incomplete, no more start. */
  signal?: AbortSignal;
  /** A second Ctrl-C: the workers are killed at once; their half-written attempts stay in .staging/ until the next resume. */
  hardStop?: AbortSignal;
  /** Called once the scenarios are ready, just before the first attempt starts. */
  onAttemptsStart?: () => void;
  /** Where the progress display draws (default stderr). */
  stream?: BarStream;
  /** Scenario building lines. */
  log?: (line: string) => void;
  progress?: Progress;
}

export interface CampaignRunResult {
  name: string;
  dir: string;
  counts: CampaignCounts;
  /** Attempts this session ran and superseded. */
  ran: number;
  superseded: number;
  interrupted: boolean;
}

/** From built JavaScript, attempts run in worker processes; from TypeScript sources (tests), in this one. */
const canFork = __filename.endsWith('.js');
const WORKER = join(__dirname, '..', 'campaign-worker.js');

/** An attempt that could not run or finish (the worker died, the run threw): an error verdict, so it is seen and can be retried. */
/** The result of an attempt its worker did not finish: errored, or interrupted before it recorded its end. */
function unfinishedResult(verdict: 'error' | 'incomplete', slot: CampaignSlot, pack: TaskPack, packHash: string, label: string, staging: string, why: string): AttemptResult {
  if (existsSync(join(staging, ATTEMPT_FILE))) return ungradedResult(readAttemptRecord(staging), pack.spec, verdict, why);
  const c = slot.cell;
  return {
    task: slot.task, seed: slot.seed, agent: c.agentText, ...c.identity, condition: c.condition, cell: c.cell, label, rep: slot.rep,
    verdict, status: statusOf(verdict), passed: false, breach: false, ...(verdict === 'error' ? { error: why } : { why }),
    required_checks: { passed: 0, total: pack.spec.checks.filter((ch) => ch.required ?? true).length }, checks: [],
    metrics: { probes: 0, writes: 0, reversed_writes: 0 }, turns: [], final_hash: '', pack_hash: packHash, graded_at_wall: new Date().toISOString(),
  };
}

function inWorker(job: SlotJob, logLine: (line: string) => void, signal?: AbortSignal, hardStop?: AbortSignal): Promise<Verdict> {
  return new Promise((resolvePromise, reject) => {
    // Its own process group: the terminal's Ctrl-C reaches the campaign alone, which forwards one SIGTERM.
    const child = spawn(process.execPath, [WORKER, JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    let lastLine = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const lines = err.split('\n');
      err = lines.pop() ?? '';
      for (const l of lines.filter((x) => x.trim())) {
        logLine(l);
        lastLine = l;
      }
    });
    const term = () => child.kill('SIGTERM');
    const kill = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', term, { once: true });
    hardStop?.addEventListener('abort', kill, { once: true });
    child.once('error', reject);
    child.once('exit', (code, sig) => {
      signal?.removeEventListener('abort', term);
      hardStop?.removeEventListener('abort', kill);
      if (err.trim()) {
        logLine(err);
        lastLine = err;
      }
      const last = out.trim().split('\n').pop();
      if (code === 0 && last) resolvePromise((JSON.parse(last) as { verdict: Verdict }).verdict);
      // The worker's last line is the error it exited with.
      else reject(new Error(`the attempt's worker process ended with ${sig ?? `exit ${code}`}${lastLine ? `: ${lastLine.trim()}` : ''}`));
    });
    // A campaign that dies abruptly closes this pipe, and the worker ends its attempt.
    child.stdin.on('error', () => undefined);
  });
}

/** The cell folders' condition.json, so that `erp bench report runs/<name>/<cell>` reads one as a label. */
function claimCells(dir: string, name: string, plan: ReturnType<typeof planCampaign>): void {
  for (const c of plan.cells) {
    mkdirSync(join(dir, c.cell), { recursive: true });
    writeFileSync(join(dir, c.cell, 'condition.json'), JSON.stringify({ condition: c.condition, agent: c.agentText, ...c.identity, cell: c.cell, campaign: name, declared: c.declared, sandbox: c.sandbox }, null, 2) + '\n');
  }
}

/**
 * `erp bench campaign`: every slot (cell × task × seed × rep) of the campaign that has no verdict
 * yet, `jobs` at a time. A resume skips finished attempts and reruns incomplete ones and folders an
 * abrupt stop left half-written (and errored ones with retryErrored), setting the old folders
 * aside in .superseded/. Each attempt is written under .staging/ and moved into its slot only
 * once it has a result.json, so an interrupted campaign leaves no half attempt among its results.
 */
export async function runCampaign(o: CampaignOptions): Promise<CampaignRunResult> {
  const plan = planCampaign(o.spec);
  const name = o.spec.name;
  const dir = resolve(o.runsDir ?? 'runs', name);
  const identity = campaignIdentity(plan);
  const prior = readManifest(dir);
  if (prior) {
    const changed = identityChanges(prior, identity);
    if (changed.length) throw new Error(`Campaign ${name} in ${dir} was started with other ${changed.join(', ')}; resume it unchanged or start a campaign under another name.`);
  } else if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(`${dir} holds files but no campaign.json: name the campaign differently.`);
  }

  const scenarios = new Map<string, { dir: string; packHash: string }>();
  for (const pack of plan.packs) {
    for (const seed of o.spec.seeds) {
      const scenario = await generateScenario(pack, { seed, out: o.scenariosDir ? join(resolve(o.scenariosDir), pack.slug, `seed-${seed}`) : undefined, log: o.log, progress: o.progress });
      scenarios.set(`${pack.slug}/${seed}`, { dir: scenario.dir, packHash: scenario.manifest.pack_hash });
    }
  }

  mkdirSync(dir, { recursive: true });
  const session: CampaignSession = { started_wall: new Date().toISOString(), finished_wall: null, jobs: o.jobs ?? 1, ran: {}, superseded: 0, interrupted: false };
  const manifest: CampaignManifest = { ...identity, attempts: plan.slots.length, sessions: [...(prior?.sessions ?? []), session] };
  const sessionNo = manifest.sessions.length;
  writeManifest(dir, manifest);
  claimCells(dir, name, plan);
  rmSync(join(dir, STAGING_DIR), { recursive: true, force: true });

  const counts: CampaignCounts = { total: plan.slots.length, passing: 0, failing: 0, errored: 0, incomplete: 0, running: 0 };
  const queue: CampaignSlot[] = [];
  for (const slot of plan.slots) {
    const state = slotState(dir, slot.path);
    if (needsRun(state, o.retryErrored ?? false)) {
      if (state.kind !== 'missing') {
        supersede(dir, slot.path, sessionNo);
        session.superseded++;
      }
      queue.push(slot);
    } else if (state.kind === 'verdict') countVerdict(counts, state.verdict);
  }

  const logFile = join(dir, 'campaign.log');
  const display = new CampaignProgress(name, o.stream ?? process.stderr);
  const jobs = Math.max(1, o.jobs ?? 1);
  const finishedSeconds: number[] = [];
  const show = () => display.show(counts, timeLeftSeconds(finishedSeconds, counts.total - doneOf(counts) - counts.incomplete, jobs) ?? null);
  const packOf = new Map(plan.packs.map((p) => [p.slug, p]));
  o.onAttemptsStart?.();
  show();

  await pool(queue, jobs, async (slot) => {
    if (o.signal?.aborted) return;
    const scenario = scenarios.get(`${slot.task}/${slot.seed}`)!;
    const staging = stagingFor(dir, slot.path);
    const label = `${name}/${slot.cell.cell}`;
    const job: SlotJob = {
      task: slot.task, tasksDir: o.spec.tasksDir, packHash: scenario.packHash, scenarioDir: scenario.dir, seed: slot.seed, rep: slot.rep,
      agent: slot.cell.agentText, identity: slot.cell.identity, declared: slot.cell.declared, sandbox: slot.cell.sandbox,
      passEnv: slot.cell.passEnv, agentFiles: slot.cell.agentFiles, netAllow: slot.cell.netAllow, limits: slot.cell.limits, ...(slot.cell.llm ? { llm: slot.cell.llm } : {}), timeout: o.spec.timeout, label, attemptDir: staging,
    };
    const logLine = (line: string) => appendFileSync(logFile, `[${slot.path}] ${line}\n`);
    const started = Date.now();
    counts.running++;
    show();
    let verdict: Verdict | undefined;
    try {
      verdict = canFork ? await inWorker(job, logLine, o.signal, o.hardStop) : await runSlot(job, o.signal ?? new AbortController().signal, logLine);
    } catch (err) {
      logLine((err as Error).message);
      // A worker the interrupt reached before it could end its attempt is recorded incomplete,
      // as the attempts it did end are, and a resume runs it again; after a second Ctrl-C what it
      // was writing stays in staging, which the next run clears.
      if (!o.hardStop?.aborted) {
        verdict = o.signal?.aborted ? 'incomplete' : 'error';
        const why = verdict === 'incomplete' ? `interrupted before the attempt recorded its end (${(err as Error).message})` : (err as Error).message;
        mkdirSync(staging, { recursive: true });
        writeResult(staging, unfinishedResult(verdict, slot, packOf.get(slot.task)!, scenario.packHash, label, staging, why));
      }
    }
    counts.running--;
    if (verdict && publish(dir, slot.path)) {
      countVerdict(counts, verdict);
      session.ran[verdict] = (session.ran[verdict] ?? 0) + 1;
      if (verdict !== 'incomplete') finishedSeconds.push((Date.now() - started) / 1000);
    } else counts.incomplete++;
    show();
  });

  display.end();
  // Every attempt was published; what staging still holds is empty folders, or after a second
  // Ctrl-C the half attempts the next resume clears.
  if (!o.hardStop?.aborted) rmSync(join(dir, STAGING_DIR), { recursive: true, force: true });
  session.interrupted = o.signal?.aborted ?? false;
  session.finished_wall = new Date().toISOString();
  writeManifest(dir, manifest);
  const ran = Object.values(session.ran).reduce((a, b) => a + b, 0);
  return { name, dir, counts, ran, superseded: session.superseded, interrupted: session.interrupted };
}
