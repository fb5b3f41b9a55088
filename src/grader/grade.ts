import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalHash, differingTables } from '../events/canonical-hash';
import { openDatabase, type Db } from '../events/database';
import type { EventRow } from '../events/event-row';
import { fromStoredRowLazy, lastSeqOfFile } from '../events/store';
import { createAppRegistry } from '../projections';
import type { ReadModelRegistry } from '../projections/registry';
import { replayInto } from '../projections/replay';
import { loadPack, type TaskPack } from '../task-pack/load';
import { readAttemptRecord, type AttemptRecord } from './attempt-record';
import { runCheck } from './checks';
import type { CheckContext } from './checks/context';
import { EvidenceIndex } from './evidence';
import { CONTROL_TIES, type ControlTie } from './ledger/control-ties';
import { readReference, runProjections, writeProjections } from './projections';
import type { AttemptMetrics, AttemptResult } from './result';
import { reversedCount } from './reversals';
import { faultMetrics, readFaults } from './fault-metrics';
import { ruleNamed } from './rules';
import type { AttemptFacts } from './rules/framework';
import { assertExtendsStart, canonicalHashAfterStart, openVerifiedStart, readStartRecord, ReplayMismatch, replayAfterStart, tablesDifferingFromFile } from './start-snapshot';

export { ReplayMismatch, StartMismatch } from './start-snapshot';

export interface GradeOptions {
  pack?: TaskPack;
  controlTies?: readonly ControlTie[];
}

/** Replays a file's events into a fresh in-memory database. */
export function replayToMemory(file: string, registry: ReadModelRegistry): Db {
  const out = openDatabase(':memory:');
  replayInto(out, file, registry);
  return out;
}

/** The replay of a file, after checking it equals the file's own read models. */
export function replayVerified(file: string, registry: ReadModelRegistry): Db {
  const out = replayToMemory(file, registry);
  const live = openDatabase(file, { readonly: true });
  try {
    const tables = registry.tableNames();
    if (canonicalHash(live, { tables }) !== canonicalHash(out, { tables })) {
      const differ = differingTables(live, out, { tables });
      out.close();
      throw new ReplayMismatch(file, differ);
    }
  } finally {
    live.close();
  }
  return out;
}

/** The states a grade looks at: start and final, each replayed from events, and final.db's canonical hash. */
export interface ReplayedAttempt {
  start: Db;
  final: Db;
  finalHash(): string;
  close(): void;
}

/**
 * Replays an attempt for grading. With the scenario's start verified at generation (start.json),
 * only the attempt's own events are replayed, onto a copy of that start; without it, every event
 * of final.db and of start.db from the first. Either way a final.db whose read models differ from
 * the replay is refused (ReplayMismatch), and a start.db or final.db that does not begin with the
 * verified start is refused (StartMismatch).
 */
export function replayAttempt(dir: string, scenarioDir: string, registry: ReadModelRegistry): ReplayedAttempt {
  const finalFile = join(dir, 'final.db');
  const startFile = join(dir, 'start.db');
  const verified = readStartRecord(scenarioDir);
  if (!verified) {
    const final = replayVerified(finalFile, registry);
    const start = replayToMemory(startFile, registry);
    return { start, final, finalHash: () => fileHash(finalFile), close: () => { final.close(); start.close(); } };
  }
  const opened: Db[] = [];
  try {
    const final = openVerifiedStart(scenarioDir, verified);
    opened.push(final);
    for (const [file, what] of [[finalFile, 'final.db'], [startFile, 'start.db']] as const) {
      const db = openDatabase(file, { readonly: true });
      try {
        assertExtendsStart(db, `${dir}/${what}`, verified);
      } finally {
        db.close();
      }
    }
    const { changedTables } = replayAfterStart(final, finalFile, registry, verified);
    const tables = registry.tableNames();
    const differ = tablesDifferingFromFile(final, finalFile, tables);
    if (differ.length > 0) throw new ReplayMismatch(finalFile, differ);
    // The start the attempt began from: the verified start, plus whatever start.db holds after it.
    let start: Db;
    if (lastSeqOfFile(startFile) === verified.events) start = openDatabase(join(scenarioDir, 'scenario.db'), { readonly: true });
    else {
      start = openVerifiedStart(scenarioDir, verified);
      replayAfterStart(start, startFile, registry, verified);
    }
    opened.push(start);
    const changed = new Set(changedTables);
    const unchanged = new Set(tables.filter((t) => !changed.has(t)));
    return { start, final, finalHash: () => canonicalHashAfterStart(finalFile, verified, unchanged), close: () => { final.close(); start.close(); } };
  } catch (err) {
    for (const db of opened) db.close();
    throw err;
  }
}

export function readEvents(db: Db): EventRow[] {
  return (db.prepare('SELECT * FROM events ORDER BY seq').all() as Record<string, unknown>[]).map(fromStoredRowLazy);
}

export function attemptFacts(record: AttemptRecord): AttemptFacts {
  return { agentUser: record.agent_user, counterparties: record.counterparties, startSeq: record.start_seq, agentWindows: record.agent_windows };
}

/**
 * Probes, writes and self-reversals of the agent. Only the agent acts during its turns, so every
 * request in a turn's event range is the agent's, whichever token it used.
 */
export function agentMetrics(events: readonly EventRow[], facts: AttemptFacts): AttemptMetrics {
  const inTurn = (e: EventRow) => facts.agentWindows.some((w) => w.fromSeq <= e.seq && e.seq <= w.toSeq);
  const mine = events.filter(inTurn);
  const writes = mine.filter((e) => e.kind === 'write' && e.outcome === 'ok' && e.type !== null);
  return { probes: mine.filter((e) => e.outcome === 'refused').length, writes: writes.length, reversed_writes: reversedCount(writes) };
}

/**
 * Grades an attempt folder (seed 000 §7): replays final.db into fresh read models (refusing a file
 * whose tables disagree with its stream), runs the task's projections beside the reference, and
 * evaluates every check. Writes projections/ and result.json; returns the result.
 */
export function gradeAttempt(dir: string, options: GradeOptions = {}): AttemptResult {
  const record = readAttemptRecord(dir);
  const pack = options.pack ?? loadPack(record.pack_dir);
  const registry = createAppRegistry();
  const replayed = replayAttempt(dir, record.scenario_dir, registry);
  const { final, start } = replayed;
  try {
    const events = readEvents(final);
    const agentTables = runProjections(final, pack.spec);
    const referenceTables = readReference(join(record.scenario_dir, 'reference'), pack.spec);
    writeProjections(agentTables, join(dir, 'projections'), '.agent');
    writeProjections(referenceTables, join(dir, 'projections'), '.reference');
    const facts = attemptFacts(record);
    const specs = registry.tableSpecs();
    const ctx: CheckContext = {
      final, start, agentTables, referenceTables, events, attempt: facts, gradingDate: pack.spec.grading_date,
      workspace: join(dir, 'workspace'), evidence: new EvidenceIndex(events),
      tableKey: (t) => specs.get(t)?.key, controlTies: options.controlTies ?? CONTROL_TIES,
    };
    const checks = pack.spec.checks.map((c) => runCheck(c, ctx));
    const required = checks.filter((c) => c.required);
    const breach = checks.some((c) => c.breach);
    const passed = !record.run_error && !breach && required.every((c) => c.passed);
    const result: AttemptResult = {
      task: record.task, seed: record.seed, agent: record.agent, condition: record.condition, cell: record.cell, label: record.label, rep: record.rep,
      verdict: record.run_error ? 'error' : passed ? 'pass' : 'fail',
      passed,
      breach,
      ...(record.run_error ? { error: record.run_error } : {}),
      required_checks: { passed: required.filter((c) => c.passed).length, total: required.length },
      checks,
      metrics: agentMetrics(events, facts),
      ...(record.condition !== 'clean' ? { fault_metrics: faultMetrics(readFaults(join(dir, 'faults.jsonl')), events, facts, duplicatesFound(events, facts, final, pack.spec.grading_date)) } : {}),
      turns: record.turns,
      final_hash: replayed.finalHash(),
      pack_hash: record.pack_hash,
      graded_at_wall: new Date().toISOString(),
    };
    writeResult(dir, result);
    return result;
  } finally {
    replayed.close();
  }
}

/** The findings of duplicate_effect, whether or not the task checks it: a fault metric. */
function duplicatesFound(events: readonly EventRow[], facts: AttemptFacts, db: Db, gradingDate: string): number {
  const rule = ruleNamed('duplicate_effect');
  return rule ? rule.evaluate(events, { params: {}, attempt: facts, gradingDate, db }).length : 0;
}

export function fileHash(file: string): string {
  const db = openDatabase(file, { readonly: true });
  try {
    return canonicalHash(db);
  } finally {
    db.close();
  }
}

export function writeResult(dir: string, result: AttemptResult): void {
  writeFileSync(join(dir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
}
