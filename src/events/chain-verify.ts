import type { Db } from './database';
import { GENESIS_HASH, HASHED_COLUMNS, rowHashOfValues } from './row-hash';

export type ChainVerdict =
  | { ok: true; events: number; head: string }
  | { ok: false; events: number; brokenAt: number; reason: string };

const SEQ = 0;
const ROW_HASH = HASHED_COLUMNS.length;
const PAYLOAD_OK = ROW_HASH + 1;

/**
 * The stored columns as the hash covers them, and whether the payloads parse: SQLite's json_valid
 * (RFC 8259 text, as JSON.parse takes) answers without building the payload in JavaScript, and
 * the hash is of the stored text itself, so nothing is parsed to be written out again.
 */
const CHAIN_SQL = `SELECT ${HASHED_COLUMNS.join(', ')}, row_hash,
  (json_valid(data) AND (allocated IS NULL OR allocated = '' OR json_valid(allocated))) AS payload_ok
  FROM events WHERE seq > ? ORDER BY seq`;

/** Where a verification starts: after an event whose own chain is already known good, or from the first. */
export interface ChainFrom {
  seq: number;
  rowHash: string;
}

/**
 * Recomputes the hash chain from the first row (or from the row after `from`, whose hash the next
 * row must chain). An edit made behind SQLite's back (a row changed, removed or inserted out of
 * order) breaks the link at the first affected row. `events` counts the rows verified.
 */
export function verifyChain(db: Db, from?: ChainFrom): ChainVerdict {
  let previous = from?.rowHash ?? GENESIS_HASH;
  let expectedSeq = (from?.seq ?? 0) + 1;
  let count = 0;
  for (const raw of db.prepare(CHAIN_SQL).raw(true).iterate(from?.seq ?? 0)) {
    const r = raw as unknown[];
    const seq = r[SEQ] as number;
    count += 1;
    if (!r[PAYLOAD_OK]) return { ok: false, events: count, brokenAt: seq, reason: 'payload is not valid JSON' };
    if (seq !== expectedSeq) {
      return { ok: false, events: count, brokenAt: seq, reason: `expected event ${expectedSeq} here, found ${seq}` };
    }
    const stored = r[ROW_HASH] as string;
    if (rowHashOfValues(previous, r, HASHED_COLUMNS.length) !== stored) {
      return { ok: false, events: count, brokenAt: seq, reason: 'row hash does not match its contents and the previous row' };
    }
    previous = stored;
    expectedSeq += 1;
  }
  return { ok: true, events: count, head: previous };
}
