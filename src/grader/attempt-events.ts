import { join } from 'node:path';
import { openDatabase, quoteIdent, type Db } from '../events/database';
import type { EventRow } from '../events/event-row';
import { fromStoredRowLazy, LEADING_EVENT_COLUMNS, lazyEventRow, type LaterColumns } from '../events/lazy-event-row';
import type { StartRecord } from './start-snapshot';

export interface ReadEventsOptions {
  /**
   * 'on-read': a payload's text is read from the database only when the payload is first read, and
   * the columns stored after it (allocated, row_hash) likewise, so the database must stay open
   * while the rows are used. A grade reads few of a year's payloads, and holding them all as text
   * was the largest part of its memory.
   */
  payloads?: 'with-rows' | 'on-read';
  /** Only the events after this one. */
  afterSeq?: number;
  /** Only the events up to this one. */
  untilSeq?: number;
}

/** The events of `db` in order, each payload parsed when first read. */
export function readEvents(db: Db, options: ReadEventsOptions = {}): EventRow[] {
  const range = [options.afterSeq ?? 0, options.untilSeq ?? Number.MAX_SAFE_INTEGER];
  if (options.payloads !== 'on-read') {
    return (db.prepare('SELECT * FROM events WHERE seq > ? AND seq <= ? ORDER BY seq').all(...range) as Record<string, unknown>[]).map((raw) => fromStoredRowLazy(raw));
  }
  const tail = db.prepare('SELECT allocated, row_hash FROM events WHERE seq = ?').raw(true);
  const later: LaterColumns = { data: payloadReader(db, range[1]!), tail: (row) => tail.get(row.seq) as [string | null, string] };
  return (db.prepare(`SELECT ${LEADING_EVENT_COLUMNS.map(quoteIdent).join(', ')} FROM events WHERE seq > ? AND seq <= ? ORDER BY seq`).raw(true).all(...range) as unknown[][])
    .map((values) => lazyEventRow(values, later));
}

/** How many payloads of a type one read fetches, from the one asked for on. */
export const PAYLOADS_AHEAD = 64;

/**
 * Reads payloads for rows whose payload is read on first use. Rules walk a year of one type's
 * events in order, so asking for one event's payload fetches the next PAYLOADS_AHEAD of its type in
 * one query. Only the latest batch of each type is held, so what is fetched and never read stays
 * bounded by the number of types.
 */
export function payloadReader(db: Db, untilSeq: number): (row: EventRow) => string {
  const one = db.prepare('SELECT data FROM events WHERE seq = ?').pluck();
  const ahead = db.prepare('SELECT seq, data FROM events WHERE type = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT ?').raw(true);
  const held = new Map<string, Map<number, string>>();
  return (row) => {
    if (row.type === null) return one.get(row.seq) as string;
    const batch = held.get(row.type);
    const text = batch?.get(row.seq);
    if (text !== undefined) {
      batch!.delete(row.seq);
      return text;
    }
    const next = new Map((ahead.all(row.type, row.seq, untilSeq, PAYLOADS_AHEAD) as [number, string][]));
    const own = next.get(row.seq);
    if (own === undefined) return one.get(row.seq) as string;
    next.delete(row.seq);
    held.set(row.type, next);
    return own;
  };
}

/** The verified starts whose events were read, most recent last; a validation grades a few scenarios in turn. */
const startsRead: { key: string; db: Db; rows: readonly EventRow[] }[] = [];
const STARTS_KEPT = 2;

/**
 * The events of an attempt's replayed final state. When its first events have been shown to be
 * the scenario's verified start, column for column (the tamper check shows it), those are the
 * start's rows read once in this process from scenario.db and shared by every grade of an attempt
 * at that scenario (their payloads are read from it too, and kept once parsed); only the attempt's
 * own events are read from `final`. Otherwise every event is read from `final`.
 */
export function readAttemptEvents(final: Db, scenarioDir: string, start: StartRecord | undefined, startShown: boolean): EventRow[] {
  if (!start || !startShown || start.events === 0) return readEvents(final, { payloads: 'on-read' });
  return [...startEvents(scenarioDir, start), ...readEvents(final, { payloads: 'on-read', afterSeq: start.events })];
}

function startEvents(scenarioDir: string, start: StartRecord): readonly EventRow[] {
  const file = join(scenarioDir, 'scenario.db');
  const key = `${file}\u0000${start.file_sha256}`;
  const at = startsRead.findIndex((s) => s.key === key);
  if (at >= 0) {
    const [hit] = startsRead.splice(at, 1);
    startsRead.push(hit!);
    return hit!.rows;
  }
  const db = openDatabase(file, { readonly: true });
  const rows = readEvents(db, { payloads: 'on-read', untilSeq: start.events });
  if (rows.length !== start.events || rows[rows.length - 1]?.rowHash !== start.head) {
    db.close();
    throw new Error(`${file} does not hold the verified start's ${start.events} events: generate the scenario again.`);
  }
  startsRead.push({ key, db, rows });
  if (startsRead.length > STARTS_KEPT) startsRead.shift()!.db.close();
  return rows;
}
