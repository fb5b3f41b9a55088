import { openDatabase, type Db } from '../../events/database';
import { fromStoredRow } from '../../events/store';
import { isDomainEvent } from '../../events/event-row';
import type { Table } from '../../grader/csv';
import { runProjections } from '../../grader/projections';
import { createAppRegistry } from '../../projections';
import { replayInto } from '../../projections/replay';
import type { TaskSpec } from '../../task-pack/schema';

/** The task's projections as they stood after one event: recorded only where an event changed them. */
export interface ProjectionState {
  seq: number;
  tables: Record<string, Table>;
}

/**
 * Replays `file` up to `fromSeq` in memory, then folds each later event in turn, running the
 * task's projections after each: every state the graded views passed through, by event.
 */
export function projectionStates(file: string, fromSeq: number, spec: TaskSpec): ProjectionState[] {
  const registry = createAppRegistry();
  const out = openDatabase(':memory:');
  const source = openDatabase(file, { readonly: true });
  try {
    replayInto(out, file, registry, { untilSeq: fromSeq });
    const sink = registry.sink(registry.access(out));
    const snapshot = () => Object.fromEntries(runProjections(out, spec));
    const states: ProjectionState[] = [{ seq: fromSeq, tables: snapshot() }];
    let last = JSON.stringify(states[0]!.tables);
    for (const raw of source.prepare('SELECT * FROM events WHERE seq > ? ORDER BY seq').iterate(fromSeq)) {
      const event = fromStoredRow(raw as Record<string, unknown>);
      if (!isDomainEvent(event)) continue;
      out.transaction(() => sink.apply(event))();
      const tables = snapshot();
      const text = JSON.stringify(tables);
      if (text !== last) states.push({ seq: event.seq, tables });
      last = text;
    }
    return states;
  } finally {
    source.close();
    out.close();
  }
}

/** Any read-model table of `file` as it stood after event `untilSeq` (replay --until), rows in a stable order. */
export function tableAsOf(file: string, table: string, untilSeq: number): { columns: string[]; rows: Record<string, unknown>[] } {
  const registry = createAppRegistry();
  if (!registry.tableNames().includes(table)) throw new Error(`No read-model table ${table}; there are ${registry.tableNames().join(', ')}.`);
  const out: Db = openDatabase(':memory:');
  try {
    replayInto(out, file, registry, { untilSeq });
    const stmt = out.prepare(`SELECT * FROM "${table}"`);
    const rows = (stmt.all() as Record<string, unknown>[]).map((r) => [JSON.stringify(r), r] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return { columns: stmt.columns().map((c) => c.name), rows: rows.map(([, r]) => r) };
  } finally {
    out.close();
  }
}
