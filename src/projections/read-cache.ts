import type { Statement } from 'better-sqlite3';
import { inTransaction, watchTransactions, type Db } from '../events/database';

/** Cached answers the cache holds at most; past it, it starts again (an attempt's server stays small). */
const MAX_ENTRIES = 100_000;

/**
 * Answers of reads, kept per table while that table is unchanged. Most reads of a build repeat:
 * the same account, item or user hundreds of times a day, the same open orders between two
 * writes to them. Every write to a table moves its version on and drops its answers; a rollback,
 * or a commit by another connection to the file (PRAGMA data_version), drops every answer.
 *
 * Answers are frozen: every reader gets the same object, so none may change it.
 */
export class ReadCache {
  private readonly versions = new Map<string, number>();
  private readonly answers = new Map<string, Map<string, unknown>>();
  /** Rows read by key, per table: a write to one row drops only that row's answer. */
  private readonly rows = new Map<string, Map<string, unknown>>();
  private clock = 0;
  private entries = 0;
  private readonly dataVersion: Statement | undefined;
  private seenDataVersion = -1;

  constructor(private readonly db: Db, tables: readonly string[], private readonly otherConnectionCommitted?: () => void) {
    for (const t of tables) this.versions.set(t, 0);
    // An in-memory database has no other connection that could change it.
    this.dataVersion = db.memory ? undefined : db.prepare('PRAGMA data_version');
    this.seenDataVersion = this.readDataVersion();
    watchTransactions(db, { beforeOutermost: () => this.checkOtherConnections(), afterRollback: () => this.clear() });
  }

  /** The answer for `key` on `table`, from `load` the first time since the table last changed. */
  read<T>(table: string, key: string, load: () => T): T {
    this.checkOtherConnections();
    let answers = this.answers.get(table);
    if (answers === undefined) this.answers.set(table, (answers = new Map()));
    else if (answers.has(key)) return answers.get(key) as T;
    const value = deepFreeze(load());
    if (this.entries >= MAX_ENTRIES) this.clear();
    answers.set(key, value);
    this.entries += 1;
    return value;
  }

  /** The row of `table` with key `key`, from `load` the first time since that row last changed. */
  readRow<T>(table: string, key: string, load: () => T): T {
    this.checkOtherConnections();
    let rows = this.rows.get(table);
    if (rows === undefined) this.rows.set(table, (rows = new Map()));
    else if (rows.has(key)) return rows.get(key) as T;
    const value = deepFreeze(load());
    if (this.entries >= MAX_ENTRIES) this.clear();
    rows.set(key, value);
    this.entries += 1;
    return value;
  }

  /** Called before every write to `table`; `rowKey` names the row written when it is one row. */
  changed(table: string, rowKey?: string): void {
    this.versions.set(table, ++this.clock);
    const answers = this.answers.get(table);
    if (answers !== undefined && answers.size > 0) {
      this.entries -= answers.size;
      answers.clear();
    }
    const rows = this.rows.get(table);
    if (rows === undefined || rows.size === 0) return;
    if (rowKey === undefined) {
      this.entries -= rows.size;
      rows.clear();
    } else if (rows.delete(rowKey)) this.entries -= 1;
  }

  /**
   * A number that changes whenever `table` is written (or the cache is cleared): a stamp of
   * several tables is the largest of their versions, since every change takes a new, larger one.
   */
  version(table: string): number {
    this.checkOtherConnections();
    return this.versions.get(table) ?? 0;
  }

  /** Forgets every answer and moves every table's version on. */
  clear(): void {
    this.clock += 1;
    for (const t of this.versions.keys()) this.versions.set(t, this.clock);
    this.answers.clear();
    this.rows.clear();
    this.entries = 0;
  }

  /** Outside a transaction of its own (and as one begins), another connection may have committed to the file. */
  checkOtherConnections(): void {
    if (this.dataVersion === undefined || inTransaction(this.db)) return;
    const v = this.readDataVersion();
    if (v !== this.seenDataVersion) {
      this.clear();
      this.seenDataVersion = v;
      this.otherConnectionCommitted?.();
    }
  }

  private readDataVersion(): number {
    return this.dataVersion ? (this.dataVersion.get() as { data_version: number }).data_version : 0;
  }
}

/** Freezes a value and everything it holds: rows handed to every reader alike. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}
