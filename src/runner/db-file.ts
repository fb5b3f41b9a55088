import Database from 'better-sqlite3';

/**
 * Leaves a closed database in rollback-journal mode: one self-contained file, which read-only
 * openers (the grader, `erp log`) read without leaving -wal and -shm files beside it. The server
 * switches it back to WAL when it opens it again.
 */
export function settleToSingleFile(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}
