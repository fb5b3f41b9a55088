import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

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

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  if (!options.readonly) {
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma(options.fast ? 'synchronous = OFF' : 'synchronous = NORMAL');
    db.exec(KERNEL_DDL);
  }
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
