import { openDatabase, type Db, type OpenOptions } from '../events/database';
import { EventStore, type WallClock } from '../events/store';
import type { ReadModelRegistry } from './registry';
import type { TableAccess, TableAccessOptions } from './table-access';

/**
 * How generators and replays open the file they build: no fsync, every table read from memory,
 * writes queued until the file is read or the transaction commits (OpenOptions.deferWrites).
 * Servers open theirs plainly: each request commits by itself, and tables stay on disk.
 */
export const BUILD_STORAGE = { fast: true, mirror: true, deferWrites: true } as const;

/** One scenario or attempt file: its event store with the read models applied inline. */
export class ErpDb {
  readonly store: EventStore;
  readonly tables: TableAccess;
  // One transaction function for every call: better-sqlite3 builds four variants each time one is made.
  private readonly inTransaction: <T>(fn: () => T) => T;

  private constructor(readonly db: Db, readonly registry: ReadModelRegistry, wallClock?: WallClock, access: TableAccessOptions = {}) {
    this.inTransaction = db.transaction(<T>(fn: () => T): T => fn()) as <T>(fn: () => T) => T;
    registry.createTables(db);
    this.tables = registry.access(db, access);
    this.store = new EventStore(db, registry.sink(this.tables), wallClock);
  }

  static open(file: string, registry: ReadModelRegistry, options: OpenOptions & TableAccessOptions & { wallClock?: WallClock } = {}): ErpDb {
    return new ErpDb(openDatabase(file, options), registry, options.wallClock, { mirror: options.mirror });
  }

  /** Runs fn in one transaction (a savepoint inside an open one). */
  transaction<T>(fn: () => T): T {
    return this.inTransaction(fn);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
