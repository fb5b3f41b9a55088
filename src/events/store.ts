import type { Statement } from 'better-sqlite3';
import { inTransaction, watchTransactions, writeLater, writeQueueOf, type Db } from './database';
import type { EventRow, NewEvent } from './event-row';
import { isDomainEvent } from './event-row';
import { validateEvent } from './event-types';
import { GENESIS_HASH, HASHED_COLUMNS, rowHash, type StoredColumns } from './row-hash';

/** What the store calls, inside the append transaction, for every domain event it appends. */
export interface ProjectionSink {
  apply(event: EventRow): void;
}

export type WallClock = () => string;

/** The wall clock is read here and nowhere else: the audit row's wall-time column. */
export const systemWallClock: WallClock = () => new Date().toISOString();

export interface ReadOptions {
  fromSeq?: number;
  untilSeq?: number;
  /** Only accepted writes carrying a domain event: what read models fold. */
  domainOnly?: boolean;
}

/**
 * The append-only event log. Every append validates domain payloads against their contracts,
 * writes the rows, chains their hashes and applies the read models, all in one transaction:
 * if anything throws, nothing of the batch is written.
 */
export class EventStore {
  private readonly insert: Statement;
  private readonly lastHash: Statement;
  private readonly appendBatch: (events: readonly NewEvent[]) => EventRow[];
  /**
   * On a connection that defers writes, the last row appended, kept here (its rows may still be
   * queued), with the head each open transaction began from, to go back to when it rolls back.
   */
  private head: { seq: number; row_hash: string } | undefined;
  private readonly heads: ({ seq: number; row_hash: string } | undefined)[] = [];
  private readonly deferred: boolean;

  constructor(readonly db: Db, private readonly sink: ProjectionSink, private readonly wallClock: WallClock = systemWallClock) {
    this.insert = db.prepare(
      `INSERT INTO events (${HASHED_COLUMNS.join(', ')}, row_hash) VALUES (${HASHED_COLUMNS.map(() => '?').join(', ')}, ?)`,
    );
    this.lastHash = db.prepare('SELECT seq, row_hash FROM events ORDER BY seq DESC LIMIT 1');
    this.appendBatch = db.transaction((events: readonly NewEvent[]) => this.write(events));
    this.deferred = writeQueueOf(db) !== undefined;
    if (this.deferred) {
      watchTransactions(db, {
        begun: () => this.heads.push(this.head),
        committed: () => void this.heads.pop(),
        afterRollback: () => {
          this.head = this.heads.pop();
        },
      });
    }
  }

  /** The last row: read from the file, or kept here while writes are deferred. */
  private last(): { seq: number; row_hash: string } | undefined {
    if (!this.deferred) return this.lastHash.get() as { seq: number; row_hash: string } | undefined;
    return (this.head ??= this.lastHash.get() as { seq: number; row_hash: string } | undefined);
  }

  /** Appends the events in order, in one transaction (a savepoint when one is already open). */
  append(events: readonly NewEvent[]): EventRow[] {
    return this.appendBatch(events);
  }

  appendOne(event: NewEvent): EventRow {
    return this.appendBatch([event])[0]!;
  }

  /**
   * Appends one event without a savepoint of its own, for a caller inside a transaction that it
   * rolls back whole when this throws (the pipeline's request): the savepoint would be a second one.
   */
  appendOneWithin(event: NewEvent): EventRow {
    if (!inTransaction(this.db)) throw new Error('appendOneWithin needs an open transaction that rolls back when it throws.');
    return this.write([event])[0]!;
  }

  private write(events: readonly NewEvent[]): EventRow[] {
    const last = this.last();
    let previous = last?.row_hash ?? GENESIS_HASH;
    let seq = last?.seq ?? 0;
    const written: EventRow[] = [];
    // One reading of the wall clock per batch: its rows are written in one transaction, at one time.
    const wallTime = this.wallClock();
    for (const e of events) {
      const domain = isDomainEvent({ kind: e.kind, outcome: e.outcome, type: e.type ?? null });
      if (domain) validateEvent(e.type!, e.data);
      seq += 1;
      const row: EventRow = {
        seq,
        kind: e.kind,
        businessDate: e.businessDate,
        wallTime,
        actor: e.actor,
        tokenId: e.tokenId ?? null,
        method: e.method ?? 'INTERNAL',
        path: e.path ?? '',
        action: e.action,
        objectType: e.objectType ?? null,
        objectId: e.objectId ?? null,
        outcome: e.outcome,
        errorCode: e.errorCode ?? null,
        idempotencyKey: e.idempotencyKey ?? null,
        type: e.type ?? null,
        data: e.data,
        allocated: e.allocated && Object.keys(e.allocated).length > 0 ? e.allocated : null,
        rowHash: '',
      };
      const stored = toStoredColumns(row);
      row.rowHash = rowHash(previous, stored);
      previous = row.rowHash;
      writeLater(this.db, this.insert, [...HASHED_COLUMNS.map((c) => stored[c]), row.rowHash]);
      if (this.deferred) this.head = { seq, row_hash: row.rowHash };
      if (domain) this.sink.apply(row);
      written.push(row);
    }
    return written;
  }

  /** Rows in sequence order; a generator, so a replay of a large file never holds it all. */
  *read(options: ReadOptions = {}): Generator<EventRow> {
    const where: string[] = ['seq >= ?', 'seq <= ?'];
    if (options.domainOnly) where.push(`kind = 'write' AND outcome = 'ok' AND type IS NOT NULL`);
    const stmt = this.db.prepare(`SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY seq`);
    for (const raw of stmt.iterate(options.fromSeq ?? 0, options.untilSeq ?? Number.MAX_SAFE_INTEGER)) {
      yield fromStoredRow(raw as Record<string, unknown>);
    }
  }

  lastSeq(): number {
    return this.last()?.seq ?? 0;
  }
}

export function toStoredColumns(row: EventRow): StoredColumns {
  return {
    seq: row.seq,
    kind: row.kind,
    business_date: row.businessDate,
    wall_time: row.wallTime,
    actor: row.actor,
    token_id: row.tokenId,
    method: row.method,
    path: row.path,
    action: row.action,
    object_type: row.objectType,
    object_id: row.objectId,
    outcome: row.outcome,
    error_code: row.errorCode,
    idempotency_key: row.idempotencyKey,
    type: row.type,
    data: JSON.stringify(row.data ?? null),
    allocated: row.allocated ? JSON.stringify(row.allocated) : null,
  };
}

export function fromStoredRow(raw: Record<string, unknown>): EventRow {
  return {
    seq: raw.seq as number,
    kind: raw.kind as EventRow['kind'],
    businessDate: raw.business_date as string,
    wallTime: raw.wall_time as string,
    actor: raw.actor as string,
    tokenId: raw.token_id as string | null,
    method: raw.method as string,
    path: raw.path as string,
    action: raw.action as string,
    objectType: raw.object_type as string | null,
    objectId: raw.object_id as string | null,
    outcome: raw.outcome as EventRow['outcome'],
    errorCode: raw.error_code as string | null,
    idempotencyKey: raw.idempotency_key as string | null,
    type: raw.type as string | null,
    data: JSON.parse(raw.data as string),
    allocated: raw.allocated ? JSON.parse(raw.allocated as string) : null,
    rowHash: raw.row_hash as string,
  };
}

