import type { Db } from './database';
import { fromStoredRow, toStoredColumns } from './store';
import { GENESIS_HASH, rowHash } from './row-hash';

export type ChainVerdict =
  | { ok: true; events: number; head: string }
  | { ok: false; events: number; brokenAt: number; reason: string };

/**
 * Recomputes the hash chain from the first row. An edit made behind SQLite's back (a row changed,
 * removed or inserted out of order) breaks the link at the first affected row.
 */
export function verifyChain(db: Db): ChainVerdict {
  let previous = GENESIS_HASH;
  let expectedSeq = 1;
  let count = 0;
  for (const raw of db.prepare('SELECT * FROM events ORDER BY seq').iterate()) {
    const r = raw as Record<string, unknown>;
    count += 1;
    let row;
    try {
      row = fromStoredRow(r);
    } catch {
      return { ok: false, events: count, brokenAt: r.seq as number, reason: 'payload is not valid JSON' };
    }
    if (row.seq !== expectedSeq) {
      return { ok: false, events: count, brokenAt: row.seq, reason: `expected event ${expectedSeq} here, found ${row.seq}` };
    }
    const stored = toStoredColumns(row);
    stored.data = r.data as string;
    stored.allocated = r.allocated as string | null;
    const expected = rowHash(previous, stored);
    if (expected !== row.rowHash) {
      return { ok: false, events: count, brokenAt: row.seq, reason: 'row hash does not match its contents and the previous row' };
    }
    previous = row.rowHash;
    expectedSeq += 1;
  }
  return { ok: true, events: count, head: previous };
}
