import type { Db } from './database';
import type { EventRow } from './event-row';
import { fromStoredRow } from './store';

export interface LogFilter {
  actor?: string;
  object?: string;
  action?: string;
  type?: string;
  outcome?: 'ok' | 'refused';
  kind?: 'write' | 'read';
  fromSeq?: number;
  untilSeq?: number;
  limit?: number;
}

/** Event rows matching a filter, in sequence order (operators' `erp log show`). */
export function* queryLog(db: Db, filter: LogFilter = {}): Generator<EventRow> {
  const clauses = ['seq >= ?', 'seq <= ?'];
  const params: unknown[] = [filter.fromSeq ?? 0, filter.untilSeq ?? Number.MAX_SAFE_INTEGER];
  if (filter.actor) { clauses.push('actor = ?'); params.push(filter.actor); }
  if (filter.object) { clauses.push('object_id = ?'); params.push(filter.object); }
  if (filter.action) { clauses.push('action = ?'); params.push(filter.action); }
  if (filter.type) { clauses.push('type = ?'); params.push(filter.type); }
  if (filter.outcome) { clauses.push('outcome = ?'); params.push(filter.outcome); }
  if (filter.kind) { clauses.push('kind = ?'); params.push(filter.kind); }
  const limit = filter.limit ?? -1;
  const stmt = db.prepare(`SELECT * FROM events WHERE ${clauses.join(' AND ')} ORDER BY seq LIMIT ?`);
  for (const raw of stmt.iterate(...params, limit)) yield fromStoredRow(raw as Record<string, unknown>);
}
