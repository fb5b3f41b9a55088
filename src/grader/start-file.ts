import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The start record's file (StartRecord), beside the scenario.db or company.db it was verified of. */
export const START_FILE = 'start.json';

/** SHA-256 of a file read in pieces, so that a large scenario is never held whole in memory. */
export function sha256File(file: string): string {
  const h = createHash('sha256');
  const buffer = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  try {
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) h.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

/**
 * True when `file` still has the bytes verified when it was generated: the start record beside it,
 * written once its hash chain was verified and the replay of its events equalled its tables,
 * records their SHA-256. False when there is no record, or it is unreadable or of other bytes.
 */
export function hasVerifiedBytes(file: string): boolean {
  const record = join(dirname(file), START_FILE);
  if (!existsSync(record)) return false;
  let recorded: unknown;
  try {
    recorded = (JSON.parse(readFileSync(record, 'utf8')) as { file_sha256?: unknown }).file_sha256;
  } catch {
    return false;
  }
  return typeof recorded === 'string' && sha256File(file) === recorded;
}
