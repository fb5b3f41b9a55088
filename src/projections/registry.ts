import type { Db } from '../events/database';
import type { EventRow } from '../events/event-row';
import type { ProjectionSink } from '../events/store';
import { ProjectionTx, type Handler, type ReadModel } from './read-model';
import { TableAccess, type TableAccessOptions } from './table-access';
import { tableDdl, type TableSpec } from './table-spec';

/** The set of read models of one application. Names and tables are unique across it. */
export class ReadModelRegistry {
  private readonly models: ReadModel[] = [];
  private readonly tableOwner = new Map<string, string>();
  private readonly specs = new Map<string, TableSpec>();

  register(...models: ReadModel[]): this {
    for (const model of models) {
      if (this.models.some((m) => m.name === model.name)) throw new Error(`A read model named ${model.name} is already registered.`);
      for (const t of model.tables) {
        const owner = this.tableOwner.get(t.name);
        if (owner) throw new Error(`Table ${t.name} of ${model.name} already belongs to ${owner}.`);
      }
      this.models.push(model);
      for (const t of model.tables) {
        this.tableOwner.set(t.name, model.name);
        this.specs.set(t.name, t);
      }
    }
    return this;
  }

  list(): readonly ReadModel[] {
    return this.models;
  }

  get(name: string): ReadModel | undefined {
    return this.models.find((m) => m.name === name);
  }

  tableSpecs(): ReadonlyMap<string, TableSpec> {
    return this.specs;
  }

  tableNames(): string[] {
    return [...this.specs.keys()].sort();
  }

  createTables(db: Db): void {
    db.exec(this.models.flatMap((m) => m.tables.map(tableDdl)).join('\n'));
  }

  access(db: Db, options: TableAccessOptions = {}): TableAccess {
    return new TableAccess(db, this.specs, options);
  }

  /** The store's hook: applies each domain event to every read model that handles it, in registration order. */
  sink(tables: TableAccess): ProjectionSink {
    const byType = new Map<string, { handler: Handler; tx: ProjectionTx }[]>();
    const everyEvent: { handler: Handler; tx: ProjectionTx }[] = [];
    for (const model of this.models) {
      const tx = new ProjectionTx(tables, new Set(model.tables.map((t) => t.name)));
      for (const handler of model.handlers) {
        if (handler.type === '*') everyEvent.push({ handler, tx });
        else {
          const list = byType.get(handler.type) ?? [];
          list.push({ handler, tx });
          byType.set(handler.type, list);
        }
      }
    }
    return {
      apply(event: EventRow) {
        for (const { handler, tx } of byType.get(event.type!) ?? []) handler.apply(tx, event);
        for (const { handler, tx } of everyEvent) handler.apply(tx, event);
      },
    };
  }
}
