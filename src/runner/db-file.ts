import Database from 'better-sqlite3';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Leaves a closed database in rollback-journal mode: one self-contained file, which read-only
 * openers (the grader, `erp log`) read without leaving -wal and -shm files beside it. The server
 * switches it back to WAL when it opens it again. `fast`: without flushing it to disk, for a
 * working copy whose process outlives nothing that a crash would not leave unfinished anyway.
 */
export function settleToSingleFile(file: string, options: { fast?: boolean } = {}): void {
  const db = new Database(file);
  try {
    if (options.fast) db.pragma('synchronous = OFF');
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * The databases an attempt folder may hold: final.db, the state it left (whose events through the
 * record's start_seq are the start it was given), and in attempts of record version 2 start.db,
 * a copy of that start.
 */
export const ATTEMPT_DATABASES = ['start.db', 'final.db'] as const;

/** Left in an attempt folder whose databases a validation removed once its control held. */
export const DATABASES_DROPPED_FILE = 'databases-dropped.txt';

/**
 * Removes an attempt's databases (with any -wal and -shm beside them) and says so in a note the
 * tools that need them read: result.json, the record and the turns stay.
 */
export function dropAttemptDatabases(dir: string, why: string): void {
  for (const name of ATTEMPT_DATABASES) for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, name + suffix), { force: true });
  writeFileSync(join(dir, DATABASES_DROPPED_FILE), `${why}\n`);
}

/** An attempt's final.db, or a refusal that says why it is not there. */
export function attemptDatabase(dir: string, name: (typeof ATTEMPT_DATABASES)[number] = 'final.db'): string {
  const file = join(dir, name);
  if (existsSync(file)) return file;
  const note = join(dir, DATABASES_DROPPED_FILE);
  if (existsSync(note)) throw new Error(`${dir} has no ${name}: ${readFileSync(note, 'utf8').trim()}`);
  throw new Error(`${dir} has no ${name}: is it an attempt folder?`);
}
