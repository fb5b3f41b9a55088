import { openDatabase, type Db, type OpenOptions } from '../events/database';
import { EventStore, type WallClock } from '../events/store';
import type { ReadModelRegistry } from './registry';
import type { TableAccess } from './table-access';

/** One scenario or attempt file: its event store with the read models applied inline. */
export class ErpDb {
  readonly store: EventStore;
  readonly tables: TableAccess;

  private constructor(readonly db: Db, readonly registry: ReadModelRegistry, wallClock?: WallClock) {
    registry.createTables(db);
    this.tables = registry.access(db);
    this.store = new EventStore(db, registry.sink(this.tables), wallClock);
  }

  static open(file: string, registry: ReadModelRegistry, options: OpenOptions & { wallClock?: WallClock } = {}): ErpDb {
    return new ErpDb(openDatabase(file, options), registry, options.wallClock);
  }

  /** Runs fn in one transaction (a savepoint inside an open one). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
