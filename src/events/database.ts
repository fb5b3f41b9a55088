import { existsSync, statSync } from 'node:fs';
import Database, { type Statement } from 'better-sqlite3';

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
}

/**
 * Page cache, in KiB, of a database read rather than served: read-only connections and files
 * attached to compare or copy from. They are read once through, so the cache holds nothing a later
 * read wants, and at SQLite's default here (16 MiB each) the several a grade opens made most of
 * its memory.
 */
export const SCAN_CACHE_KIB = 2048;

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
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    db.exec(KERNEL_DDL);
  }
  return db;
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
  /** After a transaction or savepoint was rolled back because its function threw. */
  afterRollback?(): void;
}

const watchers = new WeakMap<Db, TransactionWatcher[]>();

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

/** Wraps `db.transaction` so that watchers hear of outermost begins and of rollbacks. */
function observeTransactions(db: Db): Db {
  const list: TransactionWatcher[] = [];
  watchers.set(db, list);
  const make = db.transaction.bind(db) as (fn: TransactionFn) => Record<(typeof VARIANTS)[number], TransactionFn>;
  const guard = (variant: TransactionFn): TransactionFn => function (this: unknown, ...args: unknown[]) {
    if (!db.inTransaction) for (const w of list) w.beforeOutermost?.();
    try {
      return variant.apply(this, args);
    } catch (err) {
      for (const w of list) w.afterRollback?.();
      throw err;
    }
  };
  db.transaction = ((fn: TransactionFn) => {
    const tx = make(fn);
    const wrapped = guard(tx.default) as TransactionFn & Record<string, TransactionFn>;
    for (const v of VARIANTS) wrapped[v] = guard(tx[v]);
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
