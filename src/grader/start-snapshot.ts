import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventsHashAfter, eventsHashAt, eventsTableHashAfter, tableHash, tableHashAfterRows, tableHashAndState, tableHashAndStateAfterRows, type TableHashState } from '../events/canonical-hash';
import { verifyChain } from '../events/chain-verify';
import type { Sha256State } from '../events/resumable-sha256';
import { attachForScan, columnNames, SCAN_CACHE_KIB, isWallClockColumn, KERNEL_SIDE_TABLES, openDatabase, openScratchDatabase, quoteIdent, tableNames, type Db } from '../events/database';
import { fromStoredRow } from '../events/store';
import type { ReadModelRegistry } from '../projections/registry';
import { checkReplayAgainst } from '../projections/replay';
import { sha256File, START_FILE } from './start-file';

export { sha256File, START_FILE } from './start-file';

/**
 * start.json, beside a scenario's scenario.db: the start state as verified once, at generation.
 * Its replay equalled its tables; grading then replays only an attempt's own events onto a copy of
 * it instead of twelve months of history, and checks that the attempt's files extend it.
 */
export interface StartRecord {
  version: 1;
  /** The last event of the start; an attempt's events follow it. */
  events: number;
  /** That event's row hash: every event of the start is chained into it. */
  head: string;
  /** SHA-256 of scenario.db's bytes, as verified. */
  file_sha256: string;
  /** Canonical hash of each table of the start (the kernel's side tables left out). */
  table_hashes: Record<string, string>;
  /**
   * The events table's hash state after the start's rows: an attempt's events table is hashed
   * from here, over its own rows only (canonicalHashAfterStart). Absent in older records.
   */
  events_hash_state?: Sha256State;
  /**
   * Each large table's hash state after the start's rows: a table an attempt only added rows to is
   * hashed from here, over the added rows (canonicalHashAfterStart). Absent in older records.
   */
  table_states?: Record<string, TableHashState>;
}


/** A file that does not begin with the scenario's verified start, or a start file that is not the one verified. */
export class StartMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartMismatch';
  }
}

/** A file's read models are not what its own events say. */
export class ReplayMismatch extends Error {
  constructor(file: string, readonly tables: string[]) {
    super(`${file}: the read models differ from a replay of its events in ${tables.join(', ')}; refusing to grade a file whose tables do not follow from its stream.`);
    this.name = 'ReplayMismatch';
  }
}

/** A file's last event, or its event `seq`: its sequence number and row hash. */
export function headOf(db: Db, seq?: number): { seq: number; row_hash: string } | undefined {
  return (seq === undefined
    ? db.prepare('SELECT seq, row_hash FROM events ORDER BY seq DESC LIMIT 1').get()
    : db.prepare('SELECT seq, row_hash FROM events WHERE seq = ?').get(seq)) as { seq: number; row_hash: string } | undefined;
}

/**
 * A start verified before, and the file it was verified in: a company's cached database, which a
 * scenario built on it begins with.
 */
export interface VerifiedBase {
  file: string;
  record: StartRecord;
}

/**
 * Verifies a scenario's start once: a replay of scenario.db's events equals its read models
 * (ReplayMismatch otherwise), then records its head, its bytes' hash and its tables' hashes in
 * start.json. Call it on the settled file, after the last write to it. Given the verified start
 * the file was built on (`base`), only the events after it are replayed, onto a copy of it:
 * `replayed` says how many were.
 */
export function verifyScenarioStart(scenarioDir: string, registry: ReadModelRegistry, base?: VerifiedBase): { record: StartRecord; replayed: number } {
  const file = join(scenarioDir, 'scenario.db');
  const over = base && verifyStartOverBase(file, registry, base);
  const record = over ?? verifyStartFile(file, registry);
  writeFileSync(join(scenarioDir, START_FILE), JSON.stringify(record, null, 2) + '\n');
  return { record, replayed: over ? record.events - base!.record.events : record.events };
}

/**
 * The start record of `file` (verifyScenarioStart), written nowhere. Over `base`, when the file
 * begins with the base's events and the base's file is still the one verified: its own events
 * replayed onto a copy of the base must leave every table as the file holds it, and the hashes of
 * the tables they did not write are the base's. Otherwise every event is replayed.
 */
export function verifyStartFile(file: string, registry: ReadModelRegistry, base?: VerifiedBase): StartRecord {
  return (base && verifyStartOverBase(file, registry, base)) ?? withReadOnly(file, (live) => verifiedWhole(file, live, registry));
}

/**
 * The start record of `file` verified over `base` (verifyStartFile), or undefined when the file
 * does not begin with the base's events or the base's file is no longer the one verified.
 */
export function verifyStartOverBase(file: string, registry: ReadModelRegistry, base: VerifiedBase): StartRecord | undefined {
  return withReadOnly(file, (live) => verifiedOverBase(file, live, registry, base));
}

function withReadOnly<T>(file: string, fn: (db: Db) => T): T {
  const db = openDatabase(file, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function verifiedWhole(file: string, live: Db, registry: ReadModelRegistry): StartRecord {
  const chain = verifyChain(live);
  if (!chain.ok) throw new StartMismatch(`${file}: the hash chain breaks at event ${chain.brokenAt} (${chain.reason}); generate the scenario again.`);
  // Each table of the file is read once: its hash, and the state a later hash resumes from.
  const tableHashes: Record<string, string> = {};
  const tableStates: Record<string, TableHashState> = {};
  for (const t of registry.tableNames()) {
    const { digest, state } = tableHashAndState(live, t);
    tableHashes[t] = digest;
    if (state) tableStates[t] = state;
  }
  const check = checkReplayAgainst(file, tableHashes, registry);
  if (!check.equal) throw new ReplayMismatch(file, check.differingTables);
  const head = headOf(live);
  const events = head?.seq ?? 0;
  return startRecord(file, live, head, eventsHashAt(live, events), tableHashes, tableStates);
}

function verifiedOverBase(file: string, live: Db, registry: ReadModelRegistry, base: VerifiedBase): StartRecord | undefined {
  const b = base.record;
  if (b.events_hash_state === undefined || b.table_states === undefined) return undefined;
  // The base's chain and events were verified with it: a file whose first events are those, column
  // for column, has them chained as the base has.
  if (eventsDifferFromStartFile(live, base.file, b) !== undefined) return undefined;
  const chain = verifyChain(live, { seq: b.events, rowHash: b.head });
  if (!chain.ok) throw new StartMismatch(`${file}: the hash chain breaks at event ${chain.brokenAt} (${chain.reason}); generate the scenario again.`);
  let copy: Db;
  try {
    copy = openVerifiedStartFile(base.file, b);
  } catch (err) {
    // Another build has replaced the base since it was verified: verify the file whole.
    if (err instanceof StartMismatch) return undefined;
    throw err;
  }
  try {
    const replay = replayAfterStart(copy, file, registry, b);
    const differing = tablesDifferingFromFile(copy, file, registry.tableNames());
    if (differing.length > 0) throw new ReplayMismatch(file, differing);
    // The file's tables are the replay's: one it never wrote is the base's, one it only added to
    // is hashed on from the base's state.
    const written = new Set(replay.changedTables);
    const rewritten = new Set(replay.rewrittenTables);
    const tableHashes: Record<string, string> = {};
    const tableStates: Record<string, TableHashState> = {};
    for (const t of registry.tableNames()) {
      const recorded = b.table_states[t];
      const known = !written.has(t) && b.table_hashes[t] !== undefined ? { digest: b.table_hashes[t]!, state: recorded }
        : !rewritten.has(t) && recorded ? tableHashAndStateAfterRows(live, t, recorded) : undefined;
      const { digest, state } = known ?? tableHashAndState(live, t);
      tableHashes[t] = digest;
      if (state) tableStates[t] = state;
    }
    return startRecord(file, live, headOf(live), eventsHashAfter(live, b.events_hash_state, b.events), tableHashes, tableStates);
  } finally {
    copy.close();
  }
}

/** The record of a start whose replay held: every table but the kernel's side tables hashed, as canonicalHash reads the file. */
function startRecord(file: string, live: Db, head: { seq: number; row_hash: string } | undefined, eventsHash: { digest: string; state: Sha256State }, tableHashes: Record<string, string>, tableStates: Record<string, TableHashState>): StartRecord {
  for (const t of tableNames(live)) {
    if (t === 'events') tableHashes[t] = eventsHash.digest;
    else if (!KERNEL_SIDE_TABLES.includes(t) && tableHashes[t] === undefined) tableHashes[t] = tableHash(live, t);
  }
  return {
    version: 1, events: head?.seq ?? 0, head: head?.row_hash ?? '', file_sha256: sha256File(file), table_hashes: sortedKeys(tableHashes), events_hash_state: eventsHash.state,
    table_states: sortedKeys(tableStates),
  };
}

/** The record with its keys in name order, as tableHashes gives them. */
function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function readStartRecord(scenarioDir: string): StartRecord | undefined {
  const file = join(scenarioDir, START_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StartRecord) : undefined;
}

/**
 * Scenario files whose bytes this process has hashed, with their identity then: device, inode,
 * size, and modification and change times. Writing to a file moves its change time, which no
 * program sets back, so a file with the same identity still has the bytes hashed. A validation
 * grades tens of attempts at one scenario; each copy of it is hashed only when the file is not the
 * one hashed before.
 */
const hashedFiles = new Map<string, { identity: string; sha256: string }>();

/**
 * File times move in the kernel's clock ticks, not nanoseconds: a write in the same tick as the
 * last one leaves them as they were. A file is only remembered when its change time is this much
 * older than the copy just made of it, so no write can since have landed in its tick.
 */
const SETTLED_NS = 1_000_000_000n;

function fileIdentity(file: string): { key: string; ctimeNs: bigint } {
  const s = statSync(file, { bigint: true });
  return { key: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, ctimeNs: s.ctimeNs };
}

/**
 * A private copy of the verified start to replay onto, after checking it is the file verified:
 * scenario.db is copied to a scratch folder and the copy's bytes are hashed, so what is opened is
 * what was checked, and the start is never read into memory whole. When this process has hashed
 * the file before and it is still the same file, before and after the copy, the copy is not hashed
 * again (hashedFiles). Closing the database removes the copy.
 */
export function openVerifiedStart(scenarioDir: string, start: StartRecord): Db {
  return openVerifiedStartFile(join(scenarioDir, 'scenario.db'), start);
}

/** openVerifiedStart of the start verified in `file`. */
export function openVerifiedStartFile(file: string, start: StartRecord): Db {
  const scratch = mkdtempSync(join(tmpdir(), 'bb-erp-grade-'));
  try {
    const copy = join(scratch, 'start.db');
    const before = fileIdentity(file);
    copyFileSync(file, copy);
    const settled = fileIdentity(file).key === before.key && before.ctimeNs + SETTLED_NS < statSync(copy, { bigint: true }).ctimeNs;
    const known = hashedFiles.get(file);
    const sha256 = settled && known?.identity === before.key ? known.sha256 : sha256File(copy);
    if (settled) hashedFiles.set(file, { identity: before.key, sha256 });
    else hashedFiles.delete(file);
    if (sha256 !== start.file_sha256) {
      throw new StartMismatch(`${file} is not the start verified at generation (its bytes changed); generate the scenario again.`);
    }
    const db = openDatabase(copy, { fast: true });
    // An attempt's own events are few: a replay onto the copy touches little of it.
    db.pragma(`cache_size = -${SCAN_CACHE_KIB}`);
    const close = db.close.bind(db);
    db.close = () => {
      try {
        return close();
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    };
    return db;
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
}

/** Throws unless `db` holds the start's events: its event at the start's last sequence has the start's head. */
export function assertExtendsStart(db: Db, what: string, start: StartRecord): void {
  if (start.events === 0) return;
  const row = headOf(db, start.events);
  if (!row || row.row_hash !== start.head) throw new StartMismatch(`${what} does not begin with the scenario's verified start (event ${start.events} is not the one verified).`);
}

/**
 * Why the first `start.events` events of `db` are not, column for column, those of the verified
 * start (attached from `scenarioDir`); undefined when they are. The start's chain was verified at
 * generation, so rows equal to its rows chain as its rows do.
 */
export function eventsDifferFromStart(db: Db, scenarioDir: string, start: StartRecord): string | undefined {
  return eventsDifferFromStartFile(db, join(scenarioDir, 'scenario.db'), start);
}

/** eventsDifferFromStart for the start verified in `startFile`. */
export function eventsDifferFromStartFile(db: Db, startFile: string, start: StartRecord): string | undefined {
  if (start.events === 0) return undefined;
  const columns = columnNames(db, 'events');
  attachForScan(db, startFile, 'verified_start');
  try {
    const startColumns = (db.prepare(`SELECT name FROM pragma_table_info('events', 'verified_start') ORDER BY cid`).all() as { name: string }[]).map((r) => r.name);
    if (startColumns.join(',') !== columns.join(',')) return 'its events table has other columns than the verified start';
    const count = (db.prepare('SELECT COUNT(*) AS n FROM main.events WHERE seq <= ?').get(start.events) as { n: number }).n;
    if (count !== start.events) return `it holds ${count} of the start's ${start.events} events`;
    const differs = columns.map((c) => `m.${quoteIdent(c)} IS NOT s.${quoteIdent(c)}`).join(' OR ');
    const first = db.prepare(`SELECT m.seq AS seq FROM main.events m LEFT JOIN verified_start.events s ON s.seq = m.seq WHERE m.seq <= ? AND (s.seq IS NULL OR ${differs}) ORDER BY m.seq LIMIT 1`).get(start.events) as { seq: number } | undefined;
    return first ? `its event ${first.seq} is not the verified start's event ${first.seq}` : undefined;
  } finally {
    db.exec('DETACH DATABASE verified_start');
  }
}

/**
 * Replays onto `db`, a copy of the verified start, the events of `file` after the start (up to
 * `untilSeq`, and after `afterSeq` when the events before it are replayed already): they are
 * copied verbatim (idempotency rows too) and folded through the read models. Returns the tables
 * the fold wrote.
 */
export function replayAfterStart(db: Db, file: string, registry: ReadModelRegistry, start: StartRecord, range: { afterSeq?: number; untilSeq?: number } = {}): { events: number; changedTables: string[]; rewrittenTables: string[] } {
  registry.createTables(db);
  const tables = registry.access(db);
  const sink = registry.sink(tables);
  const before = new Map(registry.tableNames().map((t) => [t, tables.version(t)]));
  const bounds = [range.afterSeq ?? start.events, range.untilSeq ?? Number.MAX_SAFE_INTEGER];
  attachForScan(db, file, 'src');
  let events = 0;
  try {
    db.transaction(() => {
      events = db.prepare('INSERT INTO main.events SELECT * FROM src.events WHERE seq > ? AND seq <= ? ORDER BY seq').run(...bounds).changes;
      db.prepare('INSERT INTO main.idempotency SELECT * FROM src.idempotency WHERE seq > ? AND seq <= ?').run(...bounds);
      const rows = db.prepare(`SELECT * FROM main.events WHERE seq > ? AND seq <= ? AND kind = 'write' AND outcome = 'ok' AND type IS NOT NULL ORDER BY seq`).all(...bounds);
      for (const raw of rows) sink.apply(fromStoredRow(raw as Record<string, unknown>));
    })();
  } finally {
    db.exec('DETACH DATABASE src');
  }
  return { events, changedTables: registry.tableNames().filter((t) => tables.version(t) !== before.get(t)), rewrittenTables: [...tables.rewrittenTables()] };
}

/**
 * A state read through the verified start: an in-memory database holding copies of `tables` as
 * `replayed` (a file) holds them now, with scenario.db attached for every other table. SQLite
 * looks a table up in the main database first, so a query naming a table gets the copy when there
 * is one and the verified start's table otherwise. For the start an attempt began from, which is
 * the verified start plus a few events (its tokens) that write few tables.
 */
export function stateOverStart(scenarioDir: string, replayed: string, tables: readonly string[]): Db {
  const db = openScratchDatabase();
  try {
    if (tables.length > 0) {
      attachForScan(db, replayed, 'replayed');
      try {
        for (const t of tables) db.exec(`CREATE TABLE main.${quoteIdent(t)} AS SELECT * FROM replayed.${quoteIdent(t)}`);
      } finally {
        db.exec('DETACH DATABASE replayed');
      }
    }
    attachForScan(db, join(scenarioDir, 'scenario.db'), 'verified_start');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Tables whose rows differ between `db` and the file `file` (wall-clock columns left out), or that
 * exist in only one: compared by SQLite itself. A replay writes a table's rows in the order the
 * file's server did, so they have the same rowids: when every row pairs with the row of its rowid
 * in the other, column for column, and the counts agree, the tables are equal; otherwise they are
 * compared as sets, a difference each way on equal row counts.
 */
export function tablesDifferingFromFile(db: Db, file: string, tables: readonly string[]): string[] {
  attachForScan(db, file, 'other');
  try {
    const otherTables = new Set((db.prepare(`SELECT name FROM other.sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    const withoutRowid = new Set(db.prepare(`SELECT name FROM pragma_table_list WHERE schema IN ('main', 'other') AND wr = 1`).pluck().all() as string[]);
    return tables.filter((t) => {
      if (!otherTables.has(t)) return true;
      const cols = columnNames(db, t).filter((c) => !isWallClockColumn(c));
      const otherCols = (db.prepare(`SELECT name FROM pragma_table_info(?, 'other') ORDER BY cid`).all(t) as { name: string }[]).map((r) => r.name).filter((c) => !isWallClockColumn(c));
      if (cols.join('\u0000') !== otherCols.join('\u0000')) return true;
      const list = cols.map(quoteIdent).join(', ');
      const q = quoteIdent(t);
      if (!withoutRowid.has(t)) {
        const equal = cols.map((c) => `a.${quoteIdent(c)} IS b.${quoteIdent(c)}`).join(' AND ') || '1';
        const paired = db.prepare(`SELECT (SELECT COUNT(*) FROM main.${q}) = (SELECT COUNT(*) FROM other.${q})
          AND (SELECT COUNT(*) FROM main.${q}) = (SELECT COUNT(*) FROM main.${q} a JOIN other.${q} b ON b.rowid = a.rowid WHERE ${equal}) AS same`).get() as { same: number };
        if (paired.same === 1) return false;
      }
      const same = db.prepare(`SELECT (SELECT COUNT(*) FROM main.${q}) = (SELECT COUNT(*) FROM other.${q})
        AND NOT EXISTS (SELECT ${list} FROM main.${q} EXCEPT SELECT ${list} FROM other.${q}) AS same`).get() as { same: number };
      return same.same !== 1;
    });
  } finally {
    db.exec('DETACH DATABASE other');
  }
}

/**
 * The canonical hash of `file` (canonicalHash), reusing the start's table hashes for the tables
 * `unchanged` names: tables the attempt's replay never wrote and the file was shown to hold as
 * the replay does. The events table, when its first events are the start's (shown here, or by the
 * caller with `eventsAreStart`), is hashed on from the state recorded after them; so is a table
 * `addedTo` names (the replay only added rows to it, and the file holds it as the replay does) from
 * its recorded state, when it still begins with the start's rows. Every other table is hashed from
 * the file.
 */
export function canonicalHashAfterStart(file: string, scenarioDir: string, start: StartRecord, unchanged: ReadonlySet<string>, options: { eventsAreStart?: boolean; addedTo?: ReadonlySet<string> } = {}): string {
  const db = openDatabase(file, { readonly: true });
  try {
    const resumeEvents = start.events_hash_state !== undefined && (options.eventsAreStart === true || eventsDifferFromStart(db, scenarioDir, start) === undefined);
    const h = createHash('sha256');
    // As canonicalHash: every table but the kernel's side tables, in name order.
    for (const table of tableNames(db).filter((t) => !KERNEL_SIDE_TABLES.includes(t)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      const state = options.addedTo?.has(table) ? start.table_states?.[table] : undefined;
      const digest = unchanged.has(table) && start.table_hashes[table] !== undefined ? start.table_hashes[table]
        : table === 'events' && resumeEvents ? eventsTableHashAfter(db, start.events_hash_state!, start.events)
          : (state && tableHashAfterRows(db, table, state)) ?? tableHash(db, table);
      h.update(`${table}=${digest}\n`);
    }
    return h.digest('hex');
  } finally {
    db.close();
  }
}
