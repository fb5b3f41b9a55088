import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { readAttemptRecord } from '../grader/attempt-record';
import { readEvents, replayAttempt } from '../grader/grade';
import { verifyScenarioStart } from '../grader/start-snapshot';
import { runProjections, writeProjections } from '../grader/projections';
import { writeHandbookTo } from '../handbook';
import { createAppRegistry } from '../projections';
import { loadPackCode } from '../task-pack/module-loader';
import { packHash } from '../task-pack/fingerprint';
import type { TaskPack } from '../task-pack/load';
import { gradeOrError, runAttempt } from './attempt';
import { verifiedCompany, type Progress } from './company';
import { unfinishedTurns } from './turn-outcome';
import { codeVersion } from './code-version';
import { buildStartState } from './start-state';

/** scenario.json: written last, so a scenario folder without it was never finished. */
export interface ScenarioManifest {
  task: string;
  seed: number;
  /** Hash of task, seed, pack files and code version: the cache key. */
  key: string;
  pack_hash: string;
  code_version: string;
  /** The business date of scenario.db. */
  start_date: string;
  /** The start as verified at generation (start.json holds its tables' hashes too). */
  start: { events: number; head: string; file_sha256: string };
  oracle: { verdict: string; final_hash: string; failed_checks: string[] };
  generated_wall: string;
}

export interface ScenarioOptions {
  seed: number;
  /** Default: scenarios/<task>/seed-<N> under the working directory. */
  out?: string;
  /** Generate again even when the cache matches. */
  force?: boolean;
  log?: (line: string) => void;
  /** Told how far the company's build has come, when it is not in the cache. */
  progress?: Progress;
}

export interface Scenario {
  dir: string;
  cached: boolean;
  manifest: ScenarioManifest;
}

export function defaultScenarioDir(task: string, seed: number): string {
  return resolve('scenarios', task, `seed-${seed}`);
}

export function scenarioKey(pack: TaskPack, seed: number): { key: string; pack_hash: string; code_version: string } {
  const pack_hash = packHash(pack);
  const code_version = codeVersion();
  return { key: createHash('sha256').update(JSON.stringify({ task: pack.slug, seed, pack_hash, code_version })).digest('hex'), pack_hash, code_version };
}

function readManifest(dir: string): ScenarioManifest | undefined {
  const file = join(dir, 'scenario.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ScenarioManifest) : undefined;
}

/**
 * `erp scenario gen` (seed 000 environment §10): the start state and its files, then the oracle
 * played through the real runner, and reference/ with its projections (CSV) and its event stream
 * (JSON lines, wall-clock fields left out). Cached by task, seed, pack files and code version.
 */
export async function generateScenario(pack: TaskPack, options: ScenarioOptions): Promise<Scenario> {
  const log = options.log ?? (() => undefined);
  const dir = resolve(options.out ?? defaultScenarioDir(pack.slug, options.seed));
  const id = scenarioKey(pack, options.seed);
  const prior = readManifest(dir);
  if (!options.force && prior?.key === id.key && existsSync(join(dir, 'scenario.db'))) {
    log(`${pack.slug} seed ${options.seed}: using the cached scenario in ${dir}`);
    return { dir, cached: true, manifest: prior };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const code = loadPackCode(pack);

  log(`${pack.slug} seed ${options.seed}: building the start state (${pack.spec.company})`);
  const { world, truth, startDate } = buildStartState(pack, code, options.seed, dir, options.progress);
  writeFileSync(join(dir, 'world.json'), JSON.stringify(world, null, 2) + '\n');
  writeFileSync(join(dir, 'truth.json'), JSON.stringify(truth, null, 2) + '\n');
  writeFileSync(join(dir, 'turns.yaml'), stringify({ task: pack.slug, agent_user: pack.spec.agent_user, grading_date: pack.spec.grading_date, turns: pack.spec.turns }, { lineWidth: 0, blockQuote: 'literal' }));
  writeHandbookTo(pack, join(dir, 'handbook'));
  // Verified once here, so that grading replays only an attempt's own events onto it; over the
  // company's verified history when it is cached, so that only the task's own events are replayed.
  const registry = createAppRegistry();
  const verified = verifyScenarioStart(dir, registry, verifiedCompany(pack.spec.company, options.seed, registry));
  const start = verified.record;
  log(`${pack.slug} seed ${options.seed}: start verified (${start.events} events replay to its tables${verified.replayed < start.events ? `; the last ${verified.replayed} replayed onto the company's verified history` : ''})`);

  log(`${pack.slug} seed ${options.seed}: playing the oracle through the runner`);
  const refDir = join(dir, 'reference');
  const run = await runAttempt({ pack, code, packHash: id.pack_hash, scenarioDir: dir, seed: options.seed, agent: { kind: 'oracle' }, attemptDir: join(refDir, 'oracle-run'), label: 'reference', rep: 1, grade: false, writesReference: true, log });
  if (run.record.run_error) throw new Error(`The oracle's run failed, so there is no reference: ${run.record.run_error}`);
  const [broken] = unfinishedTurns(run.record.turns);
  if (broken) {
    const stderr = join(run.dir, 'turns', String(broken.index), 'stderr.txt');
    const first = existsSync(stderr) ? readFileSync(stderr, 'utf8').split('\n').find((l) => l.trim()) : undefined;
    throw new Error(`The oracle's ${broken.text}, so there is no reference${first ? `: ${first.trim()}` : ''} (${stderr})`);
  }
  const reference = writeReference(pack, run.dir, dir, refDir);
  const result = gradeOrError(run.dir, pack, readAttemptRecord(run.dir));
  const failed = result.checks.filter((c) => !c.passed).map((c) => c.id);
  log(`${pack.slug} seed ${options.seed}: reference written (${reference.projections} projections, ${reference.events} events); the oracle ${result.verdict === 'pass' ? 'passes' : `does not pass (${result.error ?? failed.join(', ')})`}`);

  const manifest: ScenarioManifest = {
    task: pack.slug, seed: options.seed, key: id.key, pack_hash: id.pack_hash, code_version: id.code_version,
    start_date: startDate, start: { events: start.events, head: start.head, file_sha256: start.file_sha256 }, oracle: { verdict: result.verdict, final_hash: result.final_hash, failed_checks: failed }, generated_wall: new Date().toISOString(),
  };
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(manifest, null, 2) + '\n');
  return { dir, cached: false, manifest };
}

/** The oracle's projections and its part of the event stream, from its attempt folder. */
function writeReference(pack: TaskPack, attemptDir: string, scenarioDir: string, refDir: string): { projections: number; events: number } {
  const record = readAttemptRecord(attemptDir);
  const replayed = replayAttempt(attemptDir, scenarioDir, createAppRegistry(), record.start_seq);
  const { final } = replayed;
  try {
    const tables = runProjections(final, pack.spec);
    writeProjections(tables, refDir);
    const events = readEvents(final).filter((e) => e.seq > record.start_seq);
    writeFileSync(join(refDir, 'events.jsonl'), events.map(({ wallTime: _w, rowHash: _h, ...rest }) => JSON.stringify(rest) + '\n').join(''));
    return { projections: tables.size, events: events.length };
  } finally {
    replayed.close();
  }
}
