import { SqliteError, type Statement } from 'better-sqlite3';
import { columnNames, quoteIdent, watchTransactions, writeQueueOf, type Db } from '../events/database';
import type { WriteQueue } from '../events/write-queue';
import { deepFreeze, ReadCache } from './read-cache';
import { askedKey, READ_BACK, storedKey, storedValue, TableMirror } from './table-mirror';
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
  keyColumns: readonly string[];
  keyTypes: ColumnType[];
  /** Where each key column is among `columns`. */
  keyIndexes: number[];
  insert: Statement;
  delete: Statement;
  /** The row by its key, as stored. */
  select: Statement;
  /** UPDATE statements by the set of columns they set. */
  updates: Map<string, Statement>;
}

export interface TableAccessOptions {
  /**
   * Hold each table in memory once it is first read (TableMirror), answering reads from there:
   * for builds and replays, which read their own writes thousands of times. SQLite is still
   * written first, so SQL written by hand reads the same rows.
   */
  mirror?: boolean;
}

/** A write to a mirrored table, to undo when the transaction or savepoint it was made in rolls back. */
interface MirrorUndo {
  mirror: TableMirror;
  key: string;
  before: Row | undefined;
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
 *
 * With `mirror`, each table read is held whole in memory from then on (TableMirror) and kept in
 * step with every write through here; a rollback undoes the mirror's writes with SQLite's.
 */
export class TableAccess {
  private readonly shapes = new Map<string, Shape>();
  private readonly plans = new Map<string, WritePlan>();
  private readonly tablesOf = new Map<string, string[]>();
  private readonly rewritten = new Set<string>();
  readonly cache: ReadCache;
  /** Mirrors loaded, by table; null for a table whose columns in the file are not the spec's, which SQLite answers. */
  private readonly mirrors = new Map<string, TableMirror | null>();
  /** The transaction depth each mirror was loaded at: what a rollback at that depth or above must drop, since it may hold the rolled-back writes. */
  private readonly loadedAt = new Map<TableMirror, number>();
  private readonly undo: MirrorUndo[] = [];
  private readonly marks: number[] = [];
  /** The connection's write queue when it defers writes: then every written table is mirrored, so keys are checked here. */
  private readonly queue: WriteQueue | undefined;

  constructor(readonly db: Db, private readonly catalog: ReadonlyMap<string, TableSpec>, private readonly options: TableAccessOptions = {}) {
    this.cache = new ReadCache(db, [...catalog.keys()], () => this.dropMirrors());
    this.queue = writeQueueOf(db);
    if (this.queue && !options.mirror) throw new Error('A connection that defers writes needs its tables mirrored (TableAccessOptions.mirror).');
    if (options.mirror) {
      watchTransactions(db, {
        begun: () => this.marks.push(this.undo.length),
        committed: () => this.committed(),
        afterRollback: () => this.rolledBack(),
      });
    }
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
    const mirror = this.mirrorOf(table);
    if (mirror) {
      const asked = askedKey(this.plan(table).keyTypes, values);
      if (asked !== undefined) return mirror.rows.get(asked) as R | undefined;
    }
    return this.cache.readRow(table, rowKeyOf(values), () => {
      const raw = this.shape(spec, 'get', () => `SELECT * FROM ${quoteIdent(table)} WHERE ${spec.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ')}`).stmt.get(...values) as Row | undefined;
      return raw ? decodeRow(spec, raw) : undefined;
    }) as R | undefined;
  }

  find<R = Row>(table: string, where: Where = {}, options: FindOptions = {}): R[] {
    const spec = this.spec(table);
    const mirror = this.mirrorOf(table);
    if (mirror) {
      const order = options.orderBy === undefined ? undefined : typeof options.orderBy === 'string' ? [options.orderBy] : options.orderBy;
      const rows = mirror.find(where, order, options.limit, options.limit === undefined ? undefined : options.offset ?? 0);
      if (rows) return rows as R[];
    }
    const { shape, params } = this.select(spec, 'rows', where, options);
    const rows = this.cache.read(table, `f${shape.stmt.source}${paramKey(params)}`, () => (shape.stmt.all(...params) as Row[]).map((r) => decodeRow(spec, r)));
    // The list is the caller's to sort or extend; the rows in it are shared.
    return (rows as R[]).slice();
  }

  count(table: string, where: Where = {}): number {
    const spec = this.spec(table);
    const mirror = this.mirrorOf(table);
    if (mirror) {
      const n = mirror.count(where);
      if (n !== undefined) return n;
    }
    const { shape, params } = this.select(spec, 'count', where, {});
    return this.cache.read(table, `c${shape.stmt.source}${paramKey(params)}`, () => (shape.stmt.get(...params) as { n: number }).n) as number;
  }

  insert(table: string, row: Row): void {
    const plan = this.plan(table);
    this.cache.changed(table, this.rowKey(table, row));
    const values = new Array<unknown>(plan.columns.length);
    for (let i = 0; i < plan.columns.length; i++) values[i] = encodeValue(plan.types[i]!, row[plan.columns[i]!]);
    const stored = this.storedRow(plan, values);
    if (this.queue?.holding && stored) {
      const mirror = this.mirrorOf(table);
      const key = mirror && this.plainKey(plan, plan.keyColumns.map((k) => stored[k]));
      if (mirror && key !== undefined) {
        // SQLite would refuse it only when the queue runs: refused here as it would be.
        if (mirror.rows.has(key)) throw new SqliteError(`UNIQUE constraint failed: ${plan.keyColumns.map((k) => `${table}.${k}`).join(', ')}`, 'SQLITE_CONSTRAINT_PRIMARYKEY');
        this.queue.write(plan.insert, values);
        this.mirrorWrite(mirror, key, deepFreeze(stored));
        return;
      }
    }
    plan.insert.run(...values);
    const mirror = this.mirrors.get(table);
    if (!mirror) return;
    const keys = plan.keyIndexes.map((i) => values[i]);
    const written = stored ?? this.readBack(table, plan, keys);
    if (written) this.mirrorWrite(mirror, storedKey(plan.keyTypes, plan.keyColumns.map((k) => written[k])), deepFreeze(written));
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
    const encoded = cols.map((c) => encodeValue(spec.columns[c]!, row[c]));
    const keys = spec.key.map((k) => row[k]);
    const mirror = this.queue?.holding ? this.mirrorOf(table) : this.mirrors.get(table);
    const key = mirror ? this.plainKey(plan, keys) : undefined;
    const before = key === undefined ? undefined : mirror!.rows.get(key);
    let stored: Row | undefined;
    if (before) {
      stored = { ...before };
      for (let i = 0; i < cols.length; i++) {
        const v = storedValue(spec.columns[cols[i]!]!, encoded[i]);
        if (v === READ_BACK) {
          stored = undefined;
          break;
        }
        stored[cols[i]!] = v;
      }
    }
    if (this.queue?.holding && key !== undefined && (stored || !before)) {
      // The mirror knows whether the row is there: a write that changes nothing is not queued.
      if (!stored) return;
      this.queue.write(stmt, [...encoded, ...keys]);
      this.mirrorWrite(mirror!, key, deepFreeze(stored));
      return;
    }
    const changes = stmt.run(...encoded, ...keys).changes;
    if (!mirror || changes === 0) return;
    const written = stored ?? this.readBack(table, plan, keys);
    if (written) this.mirrorWrite(mirror, storedKey(plan.keyTypes, plan.keyColumns.map((k) => written[k])), deepFreeze(written));
  }

  delete(table: string, key: KeyValue): number {
    const plan = this.plan(table);
    const values = keyValues(this.spec(table), key);
    this.cache.changed(table, rowKeyOf(values));
    this.rewritten.add(table);
    const mirror = this.queue?.holding ? this.mirrorOf(table) : this.mirrors.get(table);
    const asked = mirror ? this.plainKey(plan, values) : undefined;
    const gone = asked === undefined ? undefined : mirror!.rows.get(asked);
    if (this.queue?.holding && asked !== undefined) {
      if (!gone) return 0;
      this.queue.write(plan.delete, values);
      this.mirrorDelete(mirror!, asked, gone);
      return 1;
    }
    const changes = plan.delete.run(...values).changes;
    if (mirror && changes > 0) {
      // A key SQLite matched by affinity: the mirror cannot tell which row went, so it is reloaded.
      if (gone === undefined) this.dropMirror(table, mirror);
      else this.mirrorDelete(mirror, asked!, gone);
    }
    return changes;
  }

  /** The key of a row in the mirror, for key values SQLite compares as the mirror does; else undefined. */
  private plainKey(plan: WritePlan, values: readonly unknown[]): string | undefined {
    for (let i = 0; i < values.length; i++) {
      // An integer key that is not a safe integer may be a rowid SQLite refuses or converts.
      if (plan.keyTypes[i] === 'integer' && !Number.isSafeInteger(values[i])) return undefined;
    }
    return askedKey(plan.keyTypes, values);
  }

  /** The row SQLite stores for these bound values, or undefined when its affinity may store one otherwise. */
  private storedRow(plan: WritePlan, values: readonly unknown[]): Row | undefined {
    const row: Row = {};
    for (let i = 0; i < plan.columns.length; i++) {
      const v = storedValue(plan.types[i]!, values[i]);
      if (v === READ_BACK) return undefined;
      row[plan.columns[i]!] = v;
    }
    return row;
  }

  /**
   * The mirror of `table`, loaded on first use; undefined without `mirror` or when SQLite must
   * answer. Outside a transaction another connection may have written the file since: then every
   * mirror is dropped (ReadCache tells).
   */
  private mirrorOf(table: string): TableMirror | undefined {
    if (!this.options.mirror) return undefined;
    if (this.marks.length === 0) this.cache.checkOtherConnections();
    const known = this.mirrors.get(table);
    if (known !== undefined) return known ?? undefined;
    const spec = this.spec(table);
    const plan = this.plan(table);
    const columns = columnNames(this.db, table);
    if (columns.length !== plan.columns.length || columns.some((c, i) => c !== plan.columns[i])) {
      this.mirrors.set(table, null);
      return undefined;
    }
    const mirror = new TableMirror(spec);
    for (const raw of this.db.prepare(`SELECT * FROM ${quoteIdent(table)}`).all() as Row[]) {
      const row = deepFreeze(decodeRow(spec, raw));
      mirror.set(storedKey(plan.keyTypes, spec.key.map((k) => row[k])), row);
    }
    this.mirrors.set(table, mirror);
    if (this.marks.length > 0) this.loadedAt.set(mirror, this.marks.length);
    return mirror;
  }

  /** The row as SQLite now holds it: for a value its column's affinity may have stored otherwise. */
  private readBack(table: string, plan: WritePlan, keys: readonly unknown[]): Row | undefined {
    const raw = plan.select.get(...keys) as Row | undefined;
    return raw ? decodeRow(this.spec(table), raw) : undefined;
  }

  private mirrorWrite(mirror: TableMirror, key: string, row: Row): void {
    if (this.marks.length > 0) this.undo.push({ mirror, key, before: mirror.rows.get(key) });
    mirror.set(key, row);
  }

  private mirrorDelete(mirror: TableMirror, key: string, before: Row): void {
    if (this.marks.length > 0) this.undo.push({ mirror, key, before });
    mirror.delete(key);
  }

  private committed(): void {
    this.marks.pop();
    const depth = this.marks.length;
    if (depth === 0) this.undo.length = 0;
    // What a committed savepoint loaded now belongs to the transaction around it.
    for (const [mirror, at] of this.loadedAt) {
      if (depth === 0) this.loadedAt.delete(mirror);
      else if (at > depth) this.loadedAt.set(mirror, depth);
    }
  }

  private rolledBack(): void {
    const depth = this.marks.length;
    const mark = this.marks.pop() ?? 0;
    while (this.undo.length > mark) {
      const { mirror, key, before } = this.undo.pop()!;
      if (before) mirror.set(key, before);
      else mirror.delete(key);
    }
    for (const [mirror, at] of this.loadedAt) {
      if (at >= depth) this.dropMirror(mirror.spec.name, mirror);
    }
  }

  private dropMirror(table: string, mirror: TableMirror): void {
    if (this.mirrors.get(table) === mirror) this.mirrors.delete(table);
    this.loadedAt.delete(mirror);
  }

  /** Another connection wrote the file: every mirror is stale. */
  private dropMirrors(): void {
    this.mirrors.clear();
    this.loadedAt.clear();
    this.undo.length = 0;
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
        keyColumns: spec.key, keyTypes: spec.key.map((k) => spec.columns[k]!), keyIndexes: spec.key.map((k) => columns.indexOf(k)),
        select: this.db.prepare(`SELECT * FROM ${quoteIdent(table)} WHERE ${where}`),
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
    // The key ends every ORDER BY: rows that tie on the columns asked for come in one order, the
    // key's, whatever plan SQLite picks (and the table's mirror sorts the same way).
    const asked = orderBy ?? [];
    const order = [...asked, ...spec.key.filter((k) => !asked.some((o) => o.replace(/ (asc|desc)$/i, '') === k))];
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
