import type { Statement } from 'better-sqlite3';

/** A write held back: the statement and what to bind to it. */
interface QueuedWrite {
  stmt: Statement;
  params: readonly unknown[];
}

/**
 * A transaction nested in another (a request inside its day's batch). It stays a mark in the
 * queue, with no SQLite savepoint, until something reads the file while writes of its own are
 * queued: then the writes before it are run and a savepoint opened where it began.
 */
interface Unit {
  mark: number;
  savepoint: string | undefined;
}

/**
 * Writes of a generating connection, held in memory and run in order when anything reads the
 * file or its transaction commits. A generator's requests are each a transaction nested in its
 * day's: as SQLite savepoints, every page a request touched that its day had already written was
 * copied aside first, most of a build's SQLite time. Here a nested transaction is a mark in the
 * queue: rolling it back drops what it queued. Reads see every write before them (the connection
 * runs the queue before any statement of its own), so the file never answers otherwise than it
 * would have with each write run at once.
 *
 * Writers must not rely on SQLite to refuse a write (a UNIQUE key): the queue runs it later.
 * TableAccess checks keys in its mirror first; anything the queue cannot run is an error of the
 * build, thrown where the queue runs. Writes of requests that committed before it are lost with
 * it, so from then on the queue refuses every write and read until the outermost transaction has
 * rolled back: whoever catches the error (a request turning a fault into a refusal) cannot go on
 * building on a file that lacks them.
 */
export class WriteQueue {
  private readonly writes: QueuedWrite[] = [];
  private readonly units: Unit[] = [];
  private running = false;
  private savepoints = 0;
  private failure: Error | undefined;

  constructor(private readonly inTransaction: () => boolean, private readonly run: (stmt: Statement, params: readonly unknown[]) => void, private readonly exec: (sql: string) => void) {}

  /** Whether a write now would be queued: inside a transaction, where a commit will run it. */
  get holding(): boolean {
    return this.inTransaction();
  }

  /** Whether the queue is running its writes (its own statements must not run it again). */
  get busy(): boolean {
    return this.running;
  }

  /** Queues a write inside a transaction; runs it at once outside one. */
  write(stmt: Statement, params: readonly unknown[]): void {
    this.refuseIfFailed();
    if (!this.inTransaction()) {
      this.flush();
      this.runOne(stmt, params);
      return;
    }
    this.writes.push({ stmt, params });
  }

  /** Runs every queued write, opening the savepoint of each nested transaction that queued some. */
  flush(): void {
    this.refuseIfFailed();
    if (this.running || this.writes.length === 0) return;
    this.running = true;
    try {
      let from = 0;
      for (const unit of this.units) {
        if (unit.savepoint !== undefined || unit.mark >= this.writes.length) continue;
        for (; from < unit.mark; from++) this.runOne(this.writes[from]!.stmt, this.writes[from]!.params);
        unit.savepoint = `queued_${++this.savepoints}`;
        this.exec(`SAVEPOINT ${unit.savepoint}`);
      }
      for (; from < this.writes.length; from++) this.runOne(this.writes[from]!.stmt, this.writes[from]!.params);
    } catch (err) {
      this.failure = new Error(`A queued write failed, and the writes queued with it are lost until the transaction rolls back: ${(err as Error).message}`);
      throw err;
    } finally {
      this.writes.length = 0;
      for (const unit of this.units) if (unit.savepoint === undefined) unit.mark = 0;
      this.running = false;
    }
  }

  /** A nested transaction begins. */
  begin(): void {
    this.units.push({ mark: this.writes.length, savepoint: undefined });
  }

  /** The innermost nested transaction committed: what it queued is its parent's now. */
  commit(): void {
    const unit = this.units.pop();
    if (unit?.savepoint !== undefined) this.exec(`RELEASE ${unit.savepoint}`);
  }

  /** The innermost nested transaction failed: what it queued is dropped, what it ran rolled back. */
  rollback(): void {
    const unit = this.units.pop();
    if (!unit) return;
    if (unit.savepoint === undefined) {
      this.writes.length = Math.min(this.writes.length, unit.mark);
      return;
    }
    this.writes.length = 0;
    this.exec(`ROLLBACK TO ${unit.savepoint}`);
    this.exec(`RELEASE ${unit.savepoint}`);
  }

  /** The outermost transaction ended (committed after a flush, or rolled back): nothing is held. */
  reset(): void {
    this.writes.length = 0;
    this.units.length = 0;
    this.failure = undefined;
  }

  private refuseIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  private runOne(stmt: Statement, params: readonly unknown[]): void {
    this.run(stmt, params);
  }
}
