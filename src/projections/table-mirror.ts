import type { ColumnType, Row, TableSpec } from './table-spec';

/** An ORDER BY term of a mirrored query: the column and its direction. */
interface SortTerm {
  column: string;
  desc: boolean;
}

/** The rows of one value of an index's columns, and their sorted lists by ORDER BY, kept until the rows change. */
interface Bucket {
  rows: Map<string, Row>;
  sorted?: Map<string, Row[]>;
}

/** Rows grouped by the values of some columns: what answers `col = ?` (and `col IS NULL`) without a scan. */
class MirrorIndex {
  readonly buckets = new Map<string, Bucket>();

  constructor(private readonly columns: readonly string[], private readonly types: readonly ColumnType[]) {}

  keyOf(row: Row): string {
    let key = '';
    for (let i = 0; i < this.columns.length; i++) key += storedPart(this.types[i]!, row[this.columns[i]!]) + '\u0001';
    return key;
  }

  add(rowKey: string, row: Row): void {
    const key = this.keyOf(row);
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { rows: new Map() }));
    bucket.rows.set(rowKey, row);
    bucket.sorted = undefined;
  }

  remove(rowKey: string, row: Row): void {
    const key = this.keyOf(row);
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    bucket.rows.delete(rowKey);
    bucket.sorted = undefined;
    if (bucket.rows.size === 0) this.buckets.delete(key);
  }
}

/** A condition of a query the mirror answers: a column equal to one of these stored parts (or IS NULL). */
interface Condition {
  column: string;
  type: ColumnType;
  /** One part for `=` or `IS NULL`, several (or none) for `IN`. */
  parts: string[];
  list: boolean;
}

/**
 * One read-model table held in memory beside its SQLite table, every row as SQLite would give it
 * back (decoded, frozen). The TableAccess that owns it writes SQLite first and the mirror after,
 * so SQL that reads the table directly always sees the same rows. Queries it answers here are the
 * plain ones (values of the column's own type, ORDER BY on non-JSON columns); for any other it
 * says `undefined` and SQLite answers.
 */
export class TableMirror {
  readonly rows = new Map<string, Row>();
  private readonly indexes = new Map<string, MirrorIndex>();
  private readonly orders = new Map<string, SortTerm[] | null>();

  constructor(readonly spec: TableSpec) {}

  set(rowKey: string, row: Row): void {
    const before = this.rows.get(rowKey);
    this.rows.set(rowKey, row);
    for (const index of this.indexes.values()) {
      if (before) index.remove(rowKey, before);
      index.add(rowKey, row);
    }
  }

  delete(rowKey: string): void {
    const before = this.rows.get(rowKey);
    if (!before) return;
    this.rows.delete(rowKey);
    for (const index of this.indexes.values()) index.remove(rowKey, before);
  }

  /**
   * The rows matching `where`, in ORDER BY order (then by key, as SQLite is asked to sort),
   * or undefined when the query is not one the mirror answers exactly.
   */
  find(where: Readonly<Record<string, unknown>>, orderBy: readonly string[] | undefined, limit: number | undefined, offset: number | undefined): Row[] | undefined {
    const conditions = this.conditions(where);
    if (!conditions) return undefined;
    const orderSignature = orderBy ? orderBy.join(',') : '';
    const order = this.order(orderSignature, orderBy);
    if (!order) return undefined;
    if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) return undefined;
    if (offset !== undefined && !(Number.isSafeInteger(offset) && offset >= 0)) return undefined;
    const { bucket, rest } = this.candidates(conditions);
    let sorted: Row[];
    if (bucket && rest.length === 0) {
      let cache = bucket.sorted;
      if (!cache) bucket.sorted = cache = new Map();
      let list = cache.get(orderSignature);
      if (!list) cache.set(orderSignature, (list = sortRows([...bucket.rows.values()], order)));
      sorted = list;
    } else {
      const source = bucket ? bucket.rows.values() : this.rows.values();
      const matched: Row[] = [];
      for (const row of source) if (matches(row, rest)) matched.push(row);
      sorted = sortRows(matched, order);
    }
    if (limit === undefined && offset === undefined) return sorted.slice();
    const from = offset ?? 0;
    return sorted.slice(from, limit === undefined ? undefined : from + limit);
  }

  /** How many rows match `where`, or undefined when the mirror does not answer it. */
  count(where: Readonly<Record<string, unknown>>): number | undefined {
    const conditions = this.conditions(where);
    if (!conditions) return undefined;
    const { bucket, rest } = this.candidates(conditions);
    if (rest.length === 0) return bucket ? bucket.rows.size : this.rows.size;
    let n = 0;
    for (const row of bucket ? bucket.rows.values() : this.rows.values()) if (matches(row, rest)) n += 1;
    return n;
  }

  /** The bucket of the index on every single-valued condition, and the conditions left to test row by row. */
  private candidates(conditions: Condition[]): { bucket: Bucket | undefined | null; rest: Condition[] } {
    const single = conditions.filter((c) => !c.list);
    const rest = conditions.filter((c) => c.list);
    if (single.length === 0) return { bucket: undefined, rest };
    single.sort((a, b) => (a.column < b.column ? -1 : a.column > b.column ? 1 : 0));
    const index = this.index(single.map((c) => c.column), single.map((c) => c.type));
    let key = '';
    for (const c of single) key += c.parts[0] + '\u0001';
    const bucket = index.buckets.get(key) ?? EMPTY_BUCKET;
    return { bucket, rest };
  }

  private index(columns: string[], types: ColumnType[]): MirrorIndex {
    const signature = columns.join(',');
    let index = this.indexes.get(signature);
    if (!index) {
      index = new MirrorIndex(columns, types);
      for (const [rowKey, row] of this.rows) index.add(rowKey, row);
      this.indexes.set(signature, index);
    }
    return index;
  }

  /** The conditions of `where` as stored parts, or undefined when one is not a plain value of its column's type. */
  private conditions(where: Readonly<Record<string, unknown>>): Condition[] | undefined {
    const out: Condition[] = [];
    for (const column in where) {
      const value = where[column];
      if (value === undefined) continue;
      const type = this.spec.columns[column];
      if (type === undefined) return undefined;
      if (Array.isArray(value)) {
        const parts: string[] = [];
        for (const v of value) {
          // NULL is never IN anything.
          if (v === null || v === undefined) continue;
          const part = askedPart(type, v);
          if (part === undefined) return undefined;
          parts.push(part);
        }
        out.push({ column, type, parts, list: true });
      } else {
        const part = value === null ? NULL_PART : askedPart(type, value);
        if (part === undefined) return undefined;
        out.push({ column, type, parts: [part], list: false });
      }
    }
    return out;
  }

  /** ORDER BY terms, then the key columns not among them (the order SQLite is asked for too); null when a term is not plain. */
  private order(signature: string, orderBy: readonly string[] | undefined): SortTerm[] | null {
    let terms = this.orders.get(signature);
    if (terms !== undefined) return terms;
    terms = [];
    for (const o of orderBy ?? []) {
      const m = /^(\w+)(?: (asc|desc))?$/i.exec(o);
      const type = m ? this.spec.columns[m[1]!] : undefined;
      if (!m || type === undefined || type === 'json') {
        terms = null;
        break;
      }
      terms.push({ column: m[1]!, desc: (m[2] ?? '').toLowerCase() === 'desc' });
    }
    if (terms) for (const k of this.spec.key) if (!terms.some((t) => t.column === k)) terms.push({ column: k, desc: false });
    this.orders.set(signature, terms);
    return terms;
  }
}

const EMPTY_BUCKET: Bucket = { rows: new Map() };
const NULL_PART = '\u0000';

function matches(row: Row, conditions: readonly Condition[]): boolean {
  for (const c of conditions) {
    const part = storedPart(c.type, row[c.column]);
    if (c.list ? part === NULL_PART || !c.parts.includes(part) : part !== c.parts[0]) return false;
  }
  return true;
}

/** A stored (decoded) value as an index part: SQLite's value, so 5 and 5.0 are one, '5' another. */
function storedPart(type: ColumnType, v: unknown): string {
  if (v === null || v === undefined) return NULL_PART;
  if (type === 'bool') return v ? 'n1' : 'n0';
  if (typeof v === 'number') return 'n' + v;
  if (typeof v === 'string') return 's' + v;
  return 'j' + JSON.stringify(v);
}

/**
 * A value a query asks for, as the stored part it equals, when comparing them in memory gives what
 * SQLite's comparison (with the column's affinity) gives: strings in text columns, finite numbers
 * in numeric ones, and anything in a bool column (bound as 1 or 0). Anything else is left to SQLite.
 */
function askedPart(type: ColumnType, v: unknown): string | undefined {
  switch (type) {
    case 'bool':
      return v ? 'n1' : 'n0';
    case 'text':
      // A number is bound as a REAL, which a TEXT column compares as its text ('12.0'): SQLite's to say.
      return typeof v === 'string' ? 's' + v : undefined;
    case 'integer':
    case 'real':
      return typeof v === 'number' && Number.isFinite(v) ? 'n' + (v === 0 ? 0 : v) : undefined;
    default:
      return undefined;
  }
}

function sortRows(rows: Row[], order: readonly SortTerm[]): Row[] {
  return rows.sort((a, b) => {
    for (const t of order) {
      const c = compareSqlValues(a[t.column], b[t.column]);
      if (c !== 0) return t.desc ? -c : c;
    }
    return 0;
  });
}

/**
 * SQLite's order of stored values: NULL, then numbers (integers and reals by value), then text
 * by the BINARY collation (UTF-8 bytes, which is code point order). Booleans are their 0 and 1.
 */
export function compareSqlValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  const x = typeof a === 'boolean' ? (a ? 1 : 0) : a;
  const y = typeof b === 'boolean' ? (b ? 1 : 0) : b;
  if (typeof x === 'number') {
    if (typeof y !== 'number') return -1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof y === 'number') return 1;
  return compareCodePoints(String(x), String(y));
}

/**
 * Strings in code point order. JavaScript's `<` compares UTF-16 code units, which differs only
 * where a surrogate (a code point above U+FFFF) meets a unit from U+E000 to U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** What storedValue says when SQLite may store a value otherwise than it was given: read the row back. */
export const READ_BACK: unique symbol = Symbol('read back');

/**
 * A value as SQLite stores and gives it back, from what was bound for it (encodeValue's output),
 * when it is of its column's type (json columns through their JSON text); READ_BACK when it is
 * not, and SQLite's affinity may have changed it.
 */
export function storedValue(type: ColumnType, v: unknown): unknown {
  if (v === null) return null;
  switch (type) {
    case 'json':
      return JSON.parse(v as string);
    case 'bool':
      return v === 1;
    case 'text':
      return typeof v === 'string' ? v : READ_BACK;
    default:
      return typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0) ? v : READ_BACK;
  }
}

/** A row's key in the mirror: the stored parts of its key columns. */
export function storedKey(types: readonly ColumnType[], values: readonly unknown[]): string {
  let key = '';
  for (let i = 0; i < values.length; i++) key += storedPart(types[i]!, values[i]) + '\u0001';
  return key;
}

/** A key asked for, as the mirror's key of the row SQLite would find; undefined when SQLite must look. */
export function askedKey(types: readonly ColumnType[], values: readonly unknown[]): string | undefined {
  let key = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) return undefined;
    const part = askedPart(types[i]!, v);
    if (part === undefined) return undefined;
    key += part + '\u0001';
  }
  return key;
}
