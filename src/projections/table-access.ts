import type { Statement } from 'better-sqlite3';
import { quoteIdent, type Db } from '../events/database';
import { ReadCache } from './read-cache';
import { decodeRow, encodeValue, keyValues, type ColumnType, type KeyValue, type Row, type TableSpec } from './table-spec';

export interface FindOptions {
  orderBy?: string | readonly string[];
  limit?: number;
  offset?: number;
}

export type Where = Readonly<Record<string, unknown>>;

/** ORDER BY terms (`due_date desc`, `id`) as SQL, each column quoted and, given an alias, qualified by it. */
export function orderClause(terms: readonly string[], alias?: string): string {
  return terms.map((o) => o.replace(/^(\w+)/, (c) => (alias ? `${alias}.${quoteIdent(c)}` : quoteIdent(c)))).join(', ');
}

/** A table's writes, prepared once: its columns, their types, and the statements. */
interface WritePlan {
  columns: string[];
  types: ColumnType[];
  nonKey: string[];
  insert: Statement;
  delete: Statement;
  /** UPDATE statements by the set of columns they set. */
  updates: Map<string, Statement>;
}

/** A query of one shape (table, filtered columns, order, paging), its SQL prepared once. */
interface Shape {
  stmt: Statement;
  paged: boolean;
}

/**
 * Typed row access to read-model tables. Read models write through it (inside the append
 * transaction); deciders, the API and reports read through it.
 *
 * Reads are answered from a cache while the tables they read are unchanged: every write through
 * here moves its table's version on, a rollback or another connection's commit empties the cache.
 * Rows it hands out are frozen, because the next reader gets the same object: a caller that
 * wants to change one copies it (immer's `produce` does).
 */
export class TableAccess {
  private readonly shapes = new Map<string, Shape>();
  private readonly plans = new Map<string, WritePlan>();
  private readonly tablesOf = new Map<string, string[]>();
  private readonly rewritten = new Set<string>();
  readonly cache: ReadCache;

  constructor(readonly db: Db, private readonly catalog: ReadonlyMap<string, TableSpec>) {
    this.cache = new ReadCache(db, [...catalog.keys()]);
  }

  spec(table: string): TableSpec {
    const spec = this.catalog.get(table);
    if (!spec) throw new Error(`No read-model table named ${table}.`);
    return spec;
  }

  /** A statement for SQL a query writes itself (joins across read models), prepared once. */
  prepared(sql: string): Statement {
    return this.db.prepare(sql);
  }

  /**
   * The rows of SQL a query writes itself (a join, a sum), answered from the cache while every
   * table the SQL names is unchanged: the tables are found in the text, so none can be left out.
   */
  all<R = Row>(sql: string, ...params: unknown[]): R[] {
    let tables = this.tablesOf.get(sql);
    if (!tables) {
      const words = new Set(sql.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
      tables = [...this.catalog.keys()].filter((t) => words.has(t));
      if (tables.length === 0) throw new Error(`The query names no read-model table: ${sql}`);
      this.tablesOf.set(sql, tables);
    }
    let stamp = 0;
    for (const t of tables) stamp = Math.max(stamp, this.cache.version(t));
    // Kept with the first table; an answer from before a change to another never matches again.
    const rows = this.cache.read(tables[0]!, `q${stamp}\u0001${sql}${paramKey(params)}`, () => this.db.prepare(sql).all(...params) as R[]);
    return rows.slice();
  }

  /** Tables a row was overwritten or deleted in through here: every other table was only added to. */
  rewrittenTables(): ReadonlySet<string> {
    return this.rewritten;
  }

  /** The version of a table: it changes with every write to it (see ReadCache). */
  version(table: string): number {
    return this.cache.version(table);
  }

  get<R = Row>(table: string, key: KeyValue): R | undefined {
    const spec = this.spec(table);
    const values = keyValues(spec, key);
    return this.cache.readRow(table, rowKeyOf(values), () => {
      const raw = this.shape(spec, 'get', () => `SELECT * FROM ${quoteIdent(table)} WHERE ${spec.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ')}`).stmt.get(...values) as Row | undefined;
      return raw ? decodeRow(spec, raw) : undefined;
    }) as R | undefined;
  }

  find<R = Row>(table: string, where: Where = {}, options: FindOptions = {}): R[] {
    const spec = this.spec(table);
    const { shape, params } = this.select(spec, 'rows', where, options);
    const rows = this.cache.read(table, `f${shape.stmt.source}${paramKey(params)}`, () => (shape.stmt.all(...params) as Row[]).map((r) => decodeRow(spec, r)));
    // The list is the caller's to sort or extend; the rows in it are shared.
    return (rows as R[]).slice();
  }

  count(table: string, where: Where = {}): number {
    const spec = this.spec(table);
    const { shape, params } = this.select(spec, 'count', where, {});
    return this.cache.read(table, `c${shape.stmt.source}${paramKey(params)}`, () => (shape.stmt.get(...params) as { n: number }).n) as number;
  }

  insert(table: string, row: Row): void {
    const plan = this.plan(table);
    this.cache.changed(table, this.rowKey(table, row));
    const values = new Array<unknown>(plan.columns.length);
    for (let i = 0; i < plan.columns.length; i++) values[i] = encodeValue(plan.types[i]!, row[plan.columns[i]!]);
    plan.insert.run(...values);
  }

  /**
   * Writes the non-key columns of an existing row: those that differ from `previous` when it is
   * given (an UPDATE that names a column rewrites every index on it, changed or not), else all.
   */
  overwrite(table: string, row: Row, previous?: Row): void {
    const plan = this.plan(table);
    const spec = this.spec(table);
    const cols = previous ? plan.nonKey.filter((c) => row[c] !== previous[c] && !(row[c] == null && previous[c] == null)) : plan.nonKey;
    if (cols.length === 0) return;
    const signature = cols.join(',');
    let stmt = plan.updates.get(signature);
    if (!stmt) {
      stmt = this.db.prepare(`UPDATE ${quoteIdent(table)} SET ${cols.map((c) => `${quoteIdent(c)} = ?`).join(', ')} WHERE ${spec.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ')}`);
      plan.updates.set(signature, stmt);
    }
    this.cache.changed(table, this.rowKey(table, row));
    this.rewritten.add(table);
    stmt.run(...cols.map((c) => encodeValue(spec.columns[c]!, row[c])), ...spec.key.map((k) => row[k]));
  }

  delete(table: string, key: KeyValue): number {
    const plan = this.plan(table);
    const values = keyValues(this.spec(table), key);
    this.cache.changed(table, rowKeyOf(values));
    this.rewritten.add(table);
    return plan.delete.run(...values).changes;
  }

  private rowKey(table: string, row: Row): string {
    return rowKeyOf(keyValues(this.spec(table), row));
  }

  private plan(table: string): WritePlan {
    let plan = this.plans.get(table);
    if (!plan) {
      const spec = this.spec(table);
      const columns = Object.keys(spec.columns);
      const where = spec.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ');
      plan = {
        columns, types: columns.map((c) => spec.columns[c]!), nonKey: columns.filter((c) => !spec.key.includes(c)),
        insert: this.db.prepare(`INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`),
        delete: this.db.prepare(`DELETE FROM ${quoteIdent(table)} WHERE ${where}`),
        updates: new Map(),
      };
      this.plans.set(table, plan);
    }
    return plan;
  }

  private shape(spec: TableSpec, signature: string, sql: () => string, paged = false): Shape {
    const cacheKey = `${spec.name}\u0001${signature}`;
    let shape = this.shapes.get(cacheKey);
    if (!shape) {
      shape = { stmt: this.db.prepare(sql()), paged };
      this.shapes.set(cacheKey, shape);
    }
    return shape;
  }

  /** The prepared query for a filter's shape and its parameters; the SQL is built once per shape. */
  private select(spec: TableSpec, head: 'rows' | 'count', where: Where, options: FindOptions): { shape: Shape; params: unknown[] } {
    let signature = head;
    const present: [string, unknown][] = [];
    for (const column in where) {
      const value = where[column];
      if (!(column in spec.columns)) throw new Error(`Table ${spec.name} has no column ${column}.`);
      if (value === undefined) continue;
      present.push([column, value]);
      signature += value === null ? `|${column} null` : Array.isArray(value) ? `|${column} in ${value.length}` : `|${column}`;
    }
    const order = head === 'count' || options.orderBy === undefined ? undefined : typeof options.orderBy === 'string' ? [options.orderBy] : options.orderBy;
    if (order) signature += `|order ${order.join(',')}`;
    const paged = head === 'rows' && options.limit !== undefined;
    if (paged) signature += '|paged';
    const shape = this.shape(spec, signature, () => this.selectSql(spec, head, present, order, paged), paged);
    const params: unknown[] = [];
    for (let i = 0; i < present.length; i++) {
      const [name, value] = present[i]!;
      const type = spec.columns[name]!;
      if (Array.isArray(value)) for (const v of value) params.push(encodeValue(type, v));
      else if (value !== null) params.push(encodeValue(type, value));
    }
    if (shape.paged) params.push(options.limit, options.offset ?? 0);
    return { shape, params };
  }

  private selectSql(spec: TableSpec, head: 'rows' | 'count', present: readonly [string, unknown][], orderBy: readonly string[] | undefined, paged: boolean): string {
    const clauses = present.map(([column, value]) => {
      if (value === null) return `${quoteIdent(column)} IS NULL`;
      if (Array.isArray(value)) return `${quoteIdent(column)} IN (${value.map(() => '?').join(', ') || 'NULL'})`;
      return `${quoteIdent(column)} = ?`;
    });
    const order = orderBy ?? spec.key;
    for (const o of order) {
      const column = o.replace(/ (asc|desc)$/i, '');
      if (!(column in spec.columns)) throw new Error(`Table ${spec.name} has no column ${column} to order by.`);
    }
    let sql = `${head === 'count' ? 'SELECT COUNT(*) AS n' : 'SELECT *'} FROM ${quoteIdent(spec.name)}${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''}`;
    if (head === 'rows') sql += ` ORDER BY ${orderClause(order)}`;
    if (paged) sql += ' LIMIT ? OFFSET ?';
    return sql;
  }
}

/**
 * A row's key in the row cache. SQLite's column affinity finds the row 5 for the key '5' too, so
 * the two must name one entry: a write under either drops what a read under the other cached.
 */
function rowKeyOf(values: readonly unknown[]): string {
  return values.map(String).join('\u0001');
}

/** Parameters as part of a cache key: types kept apart, so 1 is not '1' and null is not ''. */
function paramKey(params: readonly unknown[]): string {
  let key = '';
  for (const p of params) key += p === null || p === undefined ? '\u0001N' : typeof p === 'number' ? `\u0001n${p}` : `\u0001s${String(p)}`;
  return key;
}
