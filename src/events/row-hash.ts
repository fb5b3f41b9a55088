import { createHash } from 'node:crypto';

/** The stored columns a row's hash covers, in order; `row_hash` chains each row to the one before. */
export const HASHED_COLUMNS = [
  'seq', 'kind', 'business_date', 'wall_time', 'actor', 'token_id', 'method', 'path', 'action',
  'object_type', 'object_id', 'outcome', 'error_code', 'idempotency_key', 'type', 'data', 'allocated',
] as const;

export type StoredColumns = Record<(typeof HASHED_COLUMNS)[number], string | number | null>;

export const GENESIS_HASH = '';

export function rowHash(previous: string, row: StoredColumns): string {
  const h = createHash('sha256');
  h.update(previous);
  for (const column of HASHED_COLUMNS) {
    const value = row[column];
    h.update(value === null ? '\u0000' : '\u0001' + String(value));
    h.update('\u001f');
  }
  return h.digest('hex');
}
