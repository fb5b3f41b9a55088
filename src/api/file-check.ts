import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { verifyChain } from '../events/chain-verify';
import { hasVerifiedBytes } from '../grader/start-file';

/**
 * What is wrong with a database file before it is served, or undefined when nothing is: SQLite's
 * own integrity check, then the event log's hash chain (a row changed behind SQLite's back). A
 * file that does not exist yet is fine: the server creates it. So is a scenario (or company) that
 * still has the bytes verified when it was generated (hasVerifiedBytes): hashing them costs a
 * tenth of the two checks.
 */
export function databaseFileProblem(file: string): string | undefined {
  if (!existsSync(file) || hasVerifiedBytes(file)) return undefined;
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    return `it cannot be opened: ${(err as Error).message}`;
  }
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (integrity.length !== 1 || integrity[0] !== 'ok') return `SQLite's integrity check fails: ${integrity.slice(0, 3).join('; ')}${integrity.length > 3 ? ` (and ${integrity.length - 3} more)` : ''}`;
    const hasEvents = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'`).get();
    if (!hasEvents) return undefined;
    const chain = verifyChain(db);
    if (!chain.ok) return `the event log's hash chain breaks at event ${chain.brokenAt}: ${chain.reason}`;
    return undefined;
  } catch (err) {
    return `it cannot be read: ${(err as Error).message}`;
  } finally {
    db.close();
  }
}

/**
 * Why `erp server start` refuses to serve, or undefined: with `resetFrom`, the server serves
 * copies of that file (over `db`, whatever `db` holds), so that file is checked and must exist;
 * otherwise `db` itself.
 */
export function serveProblem(flags: { db: string; resetFrom?: string }): string | undefined {
  if (flags.resetFrom === undefined) {
    const problem = databaseFileProblem(flags.db);
    return problem && `Refusing to serve ${flags.db}: ${problem}.`;
  }
  const problem = existsSync(flags.resetFrom) ? databaseFileProblem(flags.resetFrom) : 'it does not exist';
  return problem && `Refusing to serve copies of ${flags.resetFrom}: ${problem}.`;
}
