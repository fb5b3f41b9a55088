import { produce, setAutoFreeze, type Draft } from 'immer';
import type { EventRow } from '../events/event-row';
import type { EventContract, EventData } from '../events/event-types';
import type { TableAccess, FindOptions, Where } from './table-access';
import type { KeyValue, Row, TableSpec } from './table-spec';

// Rows are plain values read fresh from SQLite for each event; freezing them buys nothing.
setAutoFreeze(false);

/** What an evolve may do to its own tables, inside the append transaction. */
export class ProjectionTx {
  constructor(private readonly tables: TableAccess, private readonly owned: ReadonlySet<string>) {}

  private own(table: string): void {
    if (!this.owned.has(table)) throw new Error(`A read model may write only its own tables; ${table} is not one of them.`);
  }

  get<R extends Row = Row>(table: string, key: KeyValue): R | undefined {
    return this.tables.get<R>(table, key);
  }

  find<R extends Row = Row>(table: string, where: Where = {}, options: FindOptions = {}): R[] {
    return this.tables.find<R>(table, where, options);
  }

  insert<R extends Row>(table: string, row: R): void {
    this.own(table);
    this.tables.insert(table, row);
  }

  /** Applies an immer recipe to an existing row; throws when the row does not exist. */
  update<R extends Row = Row>(table: string, key: KeyValue, recipe: (draft: Draft<R>) => void): R {
    this.own(table);
    const current = this.tables.get<R>(table, key);
    if (!current) throw new Error(`${table}: no row ${JSON.stringify(key)} to update.`);
    const next = produce(current, recipe);
    if (next !== current) this.tables.overwrite(table, next, current);
    return next;
  }

  /** Inserts `initial` when the row is missing, then applies the recipe. */
  upsert<R extends Row = Row>(table: string, initial: R, recipe: (draft: Draft<R>) => void = () => undefined): R {
    this.own(table);
    const spec = this.tables.spec(table);
    const key = Object.fromEntries(spec.key.map((k) => [k, initial[k]]));
    const current = this.tables.get<R>(table, key);
    if (!current) {
      const created = produce(initial, recipe);
      this.tables.insert(table, created);
      return created;
    }
    const next = produce(current, recipe);
    if (next !== current) this.tables.overwrite(table, next, current);
    return next;
  }

  remove(table: string, key: KeyValue): void {
    this.own(table);
    this.tables.delete(table, key);
  }
}

export type Handler = {
  readonly type: string | '*';
  readonly apply: (tx: ProjectionTx, event: EventRow) => void;
};

/** Binds an evolve step to one event contract, with its payload typed. */
export function on<C extends EventContract>(contract: C, apply: (tx: ProjectionTx, data: EventData<C>, event: EventRow) => void): Handler {
  return { type: contract.type, apply: (tx, event) => apply(tx, event.data as EventData<C>, event) };
}

/** An evolve step for every domain event (ledger postings, id counters). */
export function onEvery(apply: (tx: ProjectionTx, event: EventRow) => void): Handler {
  return { type: '*', apply };
}

export interface ReadModel<Q = unknown> {
  readonly name: string;
  readonly tables: readonly TableSpec[];
  readonly handlers: readonly Handler[];
  /** The event types this read model folds ('*' for all). */
  readonly handles: readonly string[];
  readonly queries: (tables: TableAccess) => Q;
}

export function defineReadModel<Q = Record<string, never>>(def: {
  name: string;
  tables: readonly TableSpec[];
  handlers: readonly Handler[];
  queries?: (tables: TableAccess) => Q;
}): ReadModel<Q> {
  const handles = [...new Set(def.handlers.map((h) => h.type))];
  return {
    name: def.name,
    tables: def.tables,
    handlers: def.handlers,
    handles,
    queries: def.queries ?? (() => ({}) as Q),
  };
}
