import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../events/database';
import type { EventRow } from '../events/event-row';

/**
 * The audit log is append-only, so what one client can add to it is bounded twice: a refused
 * request keeps at most MAX_REFUSED_PAYLOAD bytes of what it sent (with the size and hash of the
 * whole), and each actor may add at most LOG_BYTES_PER_TURN bytes between two moves of the clock.
 */
export const MAX_REFUSED_PAYLOAD = 4096;
const KEPT_HEAD = 1024;
export const LOG_BYTES_PER_TURN = 16 * 1024 * 1024;
/** Columns other than the payload and the path (ids, dates, codes, the row hash), per row. */
const ROW_OVERHEAD = 256;

/** A truncated refused payload: the head of its JSON text, its size and a hash of the whole. */
export interface TruncatedPayload {
  truncated: true;
  bytes: number;
  sha256: string;
  head: string;
}

/** What a refused row stores of the request: all of it when small, else its head, size and hash. */
export function boundedPayload(data: unknown): unknown {
  const text = JSON.stringify(data ?? null);
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_REFUSED_PAYLOAD) return data;
  const truncated: TruncatedPayload = { truncated: true, bytes, sha256: createHash('sha256').update(text).digest('hex'), head: text.slice(0, KEPT_HEAD) };
  return truncated;
}

/** What a row costs the log, in bytes, as the budget counts it. */
export function rowBytes(row: Pick<EventRow, 'data' | 'path' | 'idempotencyKey'>): number {
  return Buffer.byteLength(JSON.stringify(row.data ?? null)) + Buffer.byteLength(row.path) + Buffer.byteLength(row.idempotencyKey ?? '') + ROW_OVERHEAD;
}

/**
 * Bytes each actor has added since the clock last moved (a turn: the runner moves the clock between
 * turns). Counted from the log itself the first time an actor is seen in a turn, so a restarted
 * server decides exactly as the first one would have.
 */
export class LogBudget {
  private turnStart = -1;
  private readonly spent = new Map<string, number>();
  private readonly lastAdvance: Statement;
  private readonly since: Statement;

  constructor(db: Db, readonly limit: number = LOG_BYTES_PER_TURN) {
    this.lastAdvance = db.prepare(`SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE type = 'ClockAdvanced'`);
    this.since = db.prepare(
      `SELECT COALESCE(SUM(length(CAST(data AS BLOB)) + length(CAST(path AS BLOB)) + COALESCE(length(CAST(idempotency_key AS BLOB)), 0) + ${ROW_OVERHEAD}), 0) AS bytes FROM events WHERE seq > ? AND actor = ?`,
    );
  }

  /** Whether the actor has used up this turn's budget. */
  exhausted(actor: string): boolean {
    return this.used(actor) >= this.limit;
  }

  used(actor: string): number {
    const start = (this.lastAdvance.get() as { seq: number }).seq;
    if (start !== this.turnStart) {
      this.turnStart = start;
      this.spent.clear();
    }
    let bytes = this.spent.get(actor);
    if (bytes === undefined) {
      bytes = (this.since.get(start, actor) as { bytes: number }).bytes;
      this.spent.set(actor, bytes);
    }
    return bytes;
  }

  /** Counts rows that were committed. */
  add(rows: readonly EventRow[]): void {
    for (const row of rows) {
      const bytes = this.spent.get(row.actor);
      if (bytes !== undefined) this.spent.set(row.actor, bytes + rowBytes(row));
    }
  }
}
