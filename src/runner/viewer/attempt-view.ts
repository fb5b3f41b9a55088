import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../events/database';
import type { EventRow } from '../../events/event-row';
import { readAttemptRecord, type AttemptRecord } from '../../grader/attempt-record';
import { parseCsv, type Table } from '../../grader/csv';
import { readEvents } from '../../grader/grade';
import type { AttemptResult, CheckResult } from '../../grader/result';
import { loadPack } from '../../task-pack/load';
import { attemptDatabase } from '../db-file';
import { conversationOf, type ConversationView } from './conversation';
import { diffStreams, type StreamDiff } from './stream-diff';
import { projectionStates, type ProjectionState } from './time-travel';

/** The most of a turn's output the viewer shows; the files hold the rest. */
const MAX_TEXT = 20_000;

export interface TurnView {
  index: number;
  date: string;
  duration_s: number;
  exit: string;
  prompt: string;
  stdout: string;
  stderr: string;
  /** The reference LLM agent's turn as a conversation, read from its whole transcript; absent for other agents. */
  conversation?: ConversationView;
}

/** One request of the attempt, in order: the agent's (in a turn) or a counterparty's or the clock's. */
export interface CallView {
  seq: number;
  turn: number | null;
  businessDate: string;
  actor: string;
  kind: string;
  method: string;
  path: string;
  action: string;
  outcome: string;
  errorCode: string | null;
  /** A refused request of the agent's: a probe (seed 000 §8). */
  probe: boolean;
}

export interface AttemptView {
  dir: string;
  record: AttemptRecord;
  result: AttemptResult;
  turns: TurnView[];
  calls: CallView[];
  checks: CheckResult[];
  /** Each task projection: the agent's rows beside the reference's (projections/*.csv). */
  projections: { name: string; agent: Table | null; reference: Table | null }[];
  /** The task's projections after every event that changed them, from the start state on. */
  states: ProjectionState[];
  /** The attempt's writes against the oracle's, by business key. */
  diff: StreamDiff | null;
}

function text(file: string): string {
  if (!existsSync(file)) return '';
  const s = readFileSync(file, 'utf8');
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}\n… (${s.length - MAX_TEXT} more characters in ${file})` : s;
}

function csv(file: string): Table | null {
  return existsSync(file) ? parseCsv(readFileSync(file, 'utf8')) : null;
}

/** The oracle's stream as the scenario recorded it (reference/events.jsonl). */
function oracleEvents(scenarioDir: string): EventRow[] | null {
  const file = join(scenarioDir, 'reference', 'events.jsonl');
  if (!existsSync(file)) return null;
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => ({ wallTime: '', rowHash: '', ...JSON.parse(l) }) as EventRow);
}

/** Everything the attempt viewer shows of an attempt folder (one with result.json). */
export function attemptView(dir: string): AttemptView {
  const record = readAttemptRecord(dir);
  if (!existsSync(join(dir, 'result.json'))) throw new Error(`${dir} has no result.json: grade it first (erp bench grade ${dir}).`);
  const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as AttemptResult;
  const turns = record.turns.map((t) => {
    const turnDir = join(dir, 'turns', String(t.index));
    const stdoutFile = join(turnDir, 'stdout.txt');
    const conversation = existsSync(stdoutFile) ? conversationOf(readFileSync(stdoutFile, 'utf8')) : undefined;
    return {
      index: t.index, date: t.date, duration_s: t.duration_s, exit: t.timed_out ? 'timed out' : t.signal ? `signal ${t.signal}` : `exit ${t.exit_code}`,
      prompt: text(join(turnDir, 'prompt.md')), stdout: text(stdoutFile), stderr: text(join(turnDir, 'stderr.txt')),
      ...(conversation ? { conversation } : {}),
    };
  });
  const finalDb = attemptDatabase(dir);
  const db = openDatabase(finalDb, { readonly: true });
  let events: EventRow[];
  try {
    events = readEvents(db).filter((e) => e.seq > record.start_seq);
  } finally {
    db.close();
  }
  const turnOf = (seq: number) => record.agent_windows.find((w) => w.fromSeq <= seq && seq <= w.toSeq)?.turn ?? null;
  const calls = events.map((e) => {
    const turn = turnOf(e.seq);
    return { seq: e.seq, turn, businessDate: e.businessDate, actor: e.actor, kind: e.kind, method: e.method, path: e.path, action: e.action, outcome: e.outcome, errorCode: e.errorCode, probe: turn !== null && e.outcome === 'refused' };
  });
  const pack = loadPack(record.pack_dir);
  const projectionsDir = join(dir, 'projections');
  const names = Object.keys(pack.spec.projections).sort();
  const oracle = oracleEvents(record.scenario_dir);
  return {
    dir, record, result, turns, calls, checks: result.checks,
    projections: names.map((name) => ({ name, agent: csv(join(projectionsDir, `${name}.agent.csv`)), reference: csv(join(projectionsDir, `${name}.reference.csv`)) })),
    states: projectionStates(finalDb, record.start_seq, pack.spec),
    diff: oracle ? diffStreams(events, oracle) : null,
  };
}

