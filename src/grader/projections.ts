import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../events/database';
import type { TaskSpec } from '../task-pack/schema';
import { parseCsv, toCsv, type Table } from './csv';

/** A SQL value as the projection's text: NULL is empty, numbers print as JavaScript prints them. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return String(value);
}

/** Runs one named projection over a state (the SQL may use `:as_of`, the grading date). */
export function runProjection(db: Db, name: string, sql: string, asOf: string): Table {
  let stmt;
  try {
    stmt = db.prepare(sql);
  } catch (err) {
    throw new Error(`Projection ${name} does not compile: ${(err as Error).message}`);
  }
  const columns = stmt.columns().map((c) => c.name);
  const params = /:as_of\b/.test(sql) ? [{ as_of: asOf }] : [];
  const rows = (stmt.all(...params) as Record<string, unknown>[]).map((r) => Object.fromEntries(columns.map((c) => [c, cell(r[c])])));
  return { columns, rows };
}

export function runProjections(db: Db, spec: TaskSpec): Map<string, Table> {
  const out = new Map<string, Table>();
  for (const name of Object.keys(spec.projections).sort()) out.set(name, runProjection(db, name, spec.projections[name]!, spec.grading_date));
  return out;
}

export function writeProjections(tables: ReadonlyMap<string, Table>, dir: string, suffix = ''): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, table] of tables) writeFileSync(join(dir, `${name}${suffix}.csv`), toCsv(table));
}

/** The reference projections of a scenario (reference/<name>.csv). */
export function readReference(referenceDir: string, spec: TaskSpec): Map<string, Table> {
  const out = new Map<string, Table>();
  for (const name of Object.keys(spec.projections).sort()) {
    const file = join(referenceDir, `${name}.csv`);
    if (!existsSync(file)) throw new Error(`The scenario has no reference projection ${file}: generate the scenario again.`);
    out.set(name, parseCsv(readFileSync(file, 'utf8')));
  }
  return out;
}
