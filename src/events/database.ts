import { existsSync, statSync } from 'node:fs';
import Database, { type Statement } from 'better-sqlite3';
import { WriteQueue } from './write-queue';

export type Db = Database.Database;

/** Columns that carry wall-clock time (or are derived from it); the canonical hash leaves them out. */
export function isWallClockColumn(name: string): boolean {
  return name === 'wall_time' || name === 'row_hash' || name.endsWith('_wall');
}

/**
 * Fields holding a credential's hash, as a read-model column or as a field of an event's payload
 * (ApiTokenIssued). Each run issues random tokens, so these differ between two runs of the same
 * actions by design: the canonical hash leaves them out, as it leaves out wall time.
 */
export const SECRET_FIELDS: readonly string[] = ['token_sha256'];

/** Columns the canonical hash leaves out: wall-clock time and credentials' hashes. */
export function isUnhashedColumn(name: string): boolean {
  return isWallClockColumn(name) || SECRET_FIELDS.includes(name);
}

/**
 * Kernel tables that are neither events nor read models: the idempotency cache holds first
 * responses byte for byte, wall-clock fields included. Replay copies them; the canonical hash
 * leaves them out, since what they say the events already say.
 */
export const KERNEL_SIDE_TABLES: readonly string[] = ['idempotency'];

const KERNEL_DDL = `
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('write','read')),
  business_date TEXT NOT NULL,
  wall_time TEXT NOT NULL,
  actor TEXT NOT NULL,
  token_id TEXT,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  action TEXT NOT NULL,
  object_type TEXT,
  object_id TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('ok','refused')),
  error_code TEXT,
  idempotency_key TEXT,
  type TEXT,
  data TEXT NOT NULL,
  allocated TEXT,
  row_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_type ON events(type);
CREATE INDEX IF NOT EXISTS events_by_object ON events(object_id);
CREATE TRIGGER IF NOT EXISTS events_refuse_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is refused'); END;
CREATE TRIGGER IF NOT EXISTS events_refuse_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is refused'); END;
CREATE TABLE IF NOT EXISTS idempotency (
  actor TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  seq INTEGER NOT NULL,
  status INTEGER NOT NULL,
  response TEXT NOT NULL,
  PRIMARY KEY (actor, key)
);
`;

export interface OpenOptions {
  readonly?: boolean;
  /** Skip fsync on commit: for generators writing a file nobody reads until they finish. */
  fast?: boolean;
  /**
   * Hold writes made through writeLater in memory until the file is next read or the transaction
   * commits, and run nested transactions without SQLite savepoints (WriteQueue): for generators
   * and replays, whose requests are each a transaction inside their day's.
   */
  deferWrites?: boolean;
}

/**
 * Page cache, in KiB, of a database read rather than served: read-only connections and files
 * attached to compare or copy from. They are read once through, so the cache holds nothing a later
 * read wants, and at SQLite's default here (16 MiB each) the several a grade opens made most of
 * its memory.
 */
export const SCAN_CACHE_KIB = 2048;

/** Page cache, in KiB, of a connection that defers its writes (a build): more than a company's whole file. */
const BUILD_CACHE_KIB = 128 * 1024;

/** Attaches `file` as `schema` with the scanning page cache (SCAN_CACHE_KIB). */
export function attachForScan(db: Db, file: string, schema: string): void {
  db.prepare(`ATTACH DATABASE ? AS ${quoteIdent(schema)}`).run(file);
  db.pragma(`${quoteIdent(schema)}.cache_size = -${SCAN_CACHE_KIB}`);
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = observeTransactions(cacheStatements(new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false })));
  if (options.readonly) db.pragma(`cache_size = -${SCAN_CACHE_KIB}`);
  else {
    // Before the switch to WAL, which commits under the connection's synchronous setting: a fast
    // file (a fresh copy, most often) is not flushed to disk by it.
    db.pragma(options.fast ? 'synchronous = OFF' : 'synchronous = NORMAL');
    // Statement and savepoint journals in memory: past 64 KiB SQLite spills them to a temporary
    // file, and every request is a savepoint inside its day's transaction.
    db.pragma('temp_store = MEMORY');
    // A generator's one transaction dirties the whole file: held in the page cache, not spilled
    // to the WAL and read back page by page.
    if (options.deferWrites) db.pragma(`cache_size = -${BUILD_CACHE_KIB}`);
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    db.exec(KERNEL_DDL);
    if (options.deferWrites) deferWrites(db);
  }
  return db;
}

const queues = new WeakMap<Db, WriteQueue>();
/** Each statement's own run, which the queue calls: the statement's `run` itself first runs the queue. */
const directRun = new WeakMap<Statement, (...params: unknown[]) => Database.RunResult>();

/** The write queue of a connection opened with `deferWrites`. */
export function writeQueueOf(db: Db): WriteQueue | undefined {
  return queues.get(db);
}

/**
 * Runs a write now, or, on a connection that defers writes, when the file is next read or the
 * transaction commits. The caller gets no result: it must know from its own state what the
 * write changes.
 */
export function writeLater(db: Db, stmt: Statement, params: readonly unknown[]): void {
  const queue = queues.get(db);
  if (queue) queue.write(stmt, params);
  else stmt.run(...params);
}

/**
 * Makes `db` defer writes: every statement it prepares, and exec and pragma, first run the queued
 * writes, so that nothing reads the file without them; its transactions run the queue before they
 * commit, and nested ones are units of the queue instead of savepoints.
 */
function deferWrites(db: Db): void {
  const queue = new WriteQueue(
    () => inTransaction(db),
    (stmt, params) => (directRun.get(stmt) ?? stmt.run).apply(stmt, params as unknown[]),
    (sql) => execDirect(sql),
  );
  queues.set(db, queue);
  const prepare = db.prepare.bind(db) as (sql: string) => Statement;
  const wrapped = new WeakSet<Statement>();
  db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    if (wrapped.has(stmt)) return stmt;
    wrapped.add(stmt);
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const own = (stmt[method] as (...a: unknown[]) => unknown).bind(stmt);
      if (method === 'run') directRun.set(stmt, own as (...params: unknown[]) => Database.RunResult);
      (stmt as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => {
        if (!queue.busy) queue.flush();
        return own(...params);
      };
    }
    return stmt;
  }) as Db['prepare'];
  const execDirect = db.exec.bind(db);
  db.exec = ((sql: string) => {
    queue.flush();
    return execDirect(sql);
  }) as Db['exec'];
  const pragma = db.pragma.bind(db) as (source: string, options?: Database.PragmaOptions) => unknown;
  db.pragma = ((source: string, options?: Database.PragmaOptions) => {
    queue.flush();
    return pragma(source, options);
  }) as Db['pragma'];
}

/** An empty in-memory database, without the kernel's tables: a scratch space to copy or attach into. */
export function openScratchDatabase(): Db {
  return observeTransactions(cacheStatements(new Database(':memory:')));
}

/** Distinct SQL texts a connection keeps prepared; past it the cache starts again (SQL built with literal values). */
const STATEMENT_CACHE_LIMIT = 4096;

/**
 * Makes `db.prepare` return the statement it prepared before for the same SQL: queries that build
 * their statement on every call stop paying SQLite's parser and planner each time. A statement
 * still running (an open `iterate()`) is never handed out twice, and one whose last user switched
 * it to `raw`, `pluck` or `expand` is handed out back in its default mode.
 */
function cacheStatements(db: Db): Db {
  const prepareFresh = db.prepare.bind(db) as (sql: string) => Statement;
  const cache = new Map<string, Statement>();
  const moded = new WeakSet<Statement>();
  const track = (stmt: Statement): Statement => {
    for (const mode of ['raw', 'pluck', 'expand'] as const) {
      const set = stmt[mode].bind(stmt) as (...on: boolean[]) => Statement;
      (stmt as unknown as Record<string, unknown>)[mode] = (...on: boolean[]) => {
        moded.add(stmt);
        return set(...on);
      };
    }
    return stmt;
  };
  const prepare = (sql: string): Statement => {
    const cached = cache.get(sql);
    if (cached && !cached.busy) {
      if (moded.has(cached)) {
        cached.raw(false).pluck(false).expand(false);
        moded.delete(cached);
      }
      return cached;
    }
    const stmt = prepareFresh(sql);
    if (cached) return stmt;
    if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
    cache.set(sql, stmt.reader ? track(stmt) : stmt);
    return stmt;
  };
  db.prepare = prepare as Db['prepare'];
  return db;
}

export interface TransactionWatcher {
  /** Before an outermost transaction begins (not a savepoint inside one). */
  beforeOutermost?(): void;
  /** As a transaction or a savepoint inside one begins. */
  begun?(): void;
  /** After a transaction or savepoint committed (a savepoint's writes now belong to the one around it). */
  committed?(): void;
  /** After a transaction or savepoint was rolled back because its function threw. */
  afterRollback?(): void;
}

const watchers = new WeakMap<Db, TransactionWatcher[]>();
/** How deep in transactions made with `db.transaction` each connection is: read without a call into SQLite. */
const depths = new WeakMap<Db, { n: number }>();

/** Whether `db` is inside a transaction made with `db.transaction` (all of this package's are). */
export function inTransaction(db: Db): boolean {
  const depth = depths.get(db);
  return depth === undefined ? db.inTransaction : depth.n > 0;
}

/**
 * Tells `watcher` when transactions made with `db.transaction` begin and roll back. Connections
 * from openDatabase are watched from the start; another is watched from its first watcher on.
 */
export function watchTransactions(db: Db, watcher: TransactionWatcher): void {
  if (!watchers.has(db)) observeTransactions(db);
  watchers.get(db)!.push(watcher);
}

type TransactionFn = (...args: unknown[]) => unknown;
const VARIANTS = ['default', 'deferred', 'immediate', 'exclusive'] as const;

/**
 * Wraps `db.transaction` so that watchers hear of begins, commits and rollbacks. On a connection
 * that defers writes, a transaction nested in another is a unit of its queue, not a savepoint, and
 * an outermost one runs the queue before it commits.
 */
function observeTransactions(db: Db): Db {
  const list: TransactionWatcher[] = [];
  watchers.set(db, list);
  const depth = { n: 0 };
  depths.set(db, depth);
  const make = db.transaction.bind(db) as (fn: TransactionFn) => Record<(typeof VARIANTS)[number], TransactionFn>;
  const guard = (variant: TransactionFn, fn: TransactionFn): TransactionFn => function (this: unknown, ...args: unknown[]) {
    const queue = queues.get(db);
    const nested = depth.n > 0;
    if (!nested) for (const w of list) w.beforeOutermost?.();
    for (const w of list) w.begun?.();
    let result: unknown;
    depth.n += 1;
    try {
      if (queue && nested) {
        queue.begin();
        try {
          result = fn.apply(this, args);
        } catch (err) {
          queue.rollback();
          throw err;
        }
        queue.commit();
      } else {
        try {
          result = variant.apply(this, args);
        } finally {
          queue?.reset();
        }
      }
    } catch (err) {
      depth.n -= 1;
      for (const w of list) w.afterRollback?.();
      throw err;
    }
    depth.n -= 1;
    for (const w of list) w.committed?.();
    return result;
  };
  db.transaction = ((fn: TransactionFn) => {
    // The queue's writes run inside the transaction, before its COMMIT.
    const tx = make(function (this: unknown, ...args: unknown[]) {
      const result = fn.apply(this, args);
      queues.get(db)?.flush();
      return result;
    });
    const wrapped = guard(tx.default, fn) as TransactionFn & Record<string, TransactionFn>;
    for (const v of VARIANTS) wrapped[v] = guard(tx[v], fn);
    return wrapped;
  }) as unknown as Db['transaction'];
  return db;
}

/**
 * An existing file opened read-only, or an error that names it: missing, a folder, or not a
 * database SQLite can read (which SQLite itself only says at the first query, without the path).
 */
export function openExistingDatabase(file: string): Db {
  if (!existsSync(file)) throw new Error(`No database at ${file}.`);
  if (statSync(file).isDirectory()) throw new Error(`${file} is a folder, not a database file.`);
  let db: Db | undefined;
  try {
    db = openDatabase(file, { readonly: true });
    db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
    return db;
  } catch (err) {
    db?.close();
    throw new Error(`${file} cannot be read as a database: ${(err as Error).message}.`);
  }
}

/** User tables of the file, sorted by name, without SQLite's own. */
export function tableNames(db: Db): string[] {
  return (db.prepare(`SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
}

export function columnNames(db: Db, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).all(table) as { name: string }[]).map((r) => r.name);
}

export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}
