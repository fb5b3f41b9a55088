import type { Statement } from 'better-sqlite3';
import { quoteIdent, type Db } from '../events/database';
import { decodeRow, encodeValue, keyValues, type KeyValue, type Row, type TableSpec } from './table-spec';

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

/**
 * Typed row access to read-model tables with cached statements. Read models write through it
 * (inside the append transaction); deciders, the API and reports read through it.
 */
export class TableAccess {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Db, private readonly catalog: ReadonlyMap<string, TableSpec>) {}

  spec(table: string): TableSpec {
    const spec = this.catalog.get(table);
    if (!spec) throw new Error(`No read-model table named ${table}.`);
    return spec;
  }

  private statement(cacheKey: string, sql: () => string): Statement {
    let stmt = this.statements.get(cacheKey);
    if (!stmt) {
      stmt = this.db.prepare(sql());
      this.statements.set(cacheKey, stmt);
    }
    return stmt;
  }

  /** A statement for SQL a query writes itself (joins across read models), prepared once. */
  prepared(sql: string): Statement {
    return this.statement(sql, () => sql);
  }

  get<R = Row>(table: string, key: KeyValue): R | undefined {
    const spec = this.spec(table);
    const stmt = this.statement(`get:${table}`, () => `SELECT * FROM ${quoteIdent(table)} WHERE ${spec.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ')}`);
    const raw = stmt.get(...keyValues(spec, key)) as Row | undefined;
    return raw ? (decodeRow(spec, raw) as R) : undefined;
  }

  find<R = Row>(table: string, where: Where = {}, options: FindOptions = {}): R[] {
    const spec = this.spec(table);
    const { sql, params } = this.selectSql(spec, 'SELECT *', where, options);
    return (this.statement(sql, () => sql).all(...params) as Row[]).map((r) => decodeRow(spec, r) as R);
  }

  count(table: string, where: Where = {}): number {
    const spec = this.spec(table);
    const { sql, params } = this.selectSql(spec, 'SELECT COUNT(*) AS n', where, {});
    return (this.statement(sql, () => sql).get(...params) as { n: number }).n;
  }

  insert(table: string, row: Row): void {
    const spec = this.spec(table);
    const cols = Object.keys(spec.columns);
    const stmt = this.statement(`insert:${table}`, () => `INSERT INTO ${quoteIdent(table)} (${cols.map(quoteIdent).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
    stmt.run(...cols.map((c) => encodeValue(spec.columns[c]!, row[c])));
  }

  /** Writes every non-key column of an existing row. */
  overwrite(table: string, row: Row): void {
    const spec = this.spec(table);
    const cols = Object.keys(spec.columns).filter((c) => !spec.key.includes(c));
    if (cols.length === 0) return;
    const stmt = this.statement(`overwrite:${table}`, () => `UPDATE ${quoteIdent(table)} SET ${cols.map((c) => `${quoteIdent(c)} = ?`).join(', ')} WHERE ${spec.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ')}`);
    stmt.run(...cols.map((c) => encodeValue(spec.columns[c]!, row[c])), ...spec.key.map((k) => row[k]));
  }

  delete(table: string, key: KeyValue): number {
    const spec = this.spec(table);
    const stmt = this.statement(`delete:${table}`, () => `DELETE FROM ${quoteIdent(table)} WHERE ${spec.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ')}`);
    return stmt.run(...keyValues(spec, key)).changes;
  }

  private selectSql(spec: TableSpec, head: string, where: Where, options: FindOptions): { sql: string; params: unknown[] } {
    const clauses: string[] = [];
    const params: unknown[] = [];
    for (const [column, value] of Object.entries(where)) {
      if (!(column in spec.columns)) throw new Error(`Table ${spec.name} has no column ${column}.`);
      if (value === undefined) continue;
      if (value === null) clauses.push(`${quoteIdent(column)} IS NULL`);
      else if (Array.isArray(value)) {
        clauses.push(`${quoteIdent(column)} IN (${value.map(() => '?').join(', ') || 'NULL'})`);
        params.push(...value.map((v) => encodeValue(spec.columns[column]!, v)));
      } else {
        clauses.push(`${quoteIdent(column)} = ?`);
        params.push(encodeValue(spec.columns[column]!, value));
      }
    }
    const order = options.orderBy === undefined ? [...spec.key] : typeof options.orderBy === 'string' ? [options.orderBy] : [...options.orderBy];
    for (const o of order) {
      const column = o.replace(/ (asc|desc)$/i, '');
      if (!(column in spec.columns)) throw new Error(`Table ${spec.name} has no column ${column} to order by.`);
    }
    let sql = `${head} FROM ${quoteIdent(spec.name)}${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''}`;
    if (!head.startsWith('SELECT COUNT')) {
      sql += ` ORDER BY ${order.map((o) => o.replace(/^(\w+)/, (c) => quoteIdent(c))).join(', ')}`;
      if (options.limit !== undefined) {
        sql += ' LIMIT ? OFFSET ?';
        params.push(options.limit, options.offset ?? 0);
      }
    }
    return { sql, params };
  }
}
