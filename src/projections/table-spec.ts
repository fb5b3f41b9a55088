import { quoteIdent } from '../events/database';

export type ColumnType = 'text' | 'integer' | 'real' | 'json' | 'bool';

/**
 * A read-model table. Columns named `*_wall` hold wall-clock time and are left out of the
 * canonical hash; `json` columns hold structured values, `bool` columns 0/1.
 */
export interface TableSpec {
  readonly name: string;
  readonly columns: Readonly<Record<string, ColumnType>>;
  readonly key: readonly string[];
  readonly indexes?: readonly (readonly string[])[];
}

export type Row = Record<string, unknown>;
/** A key: the value of a single-column key, or an object naming each key column. */
export type KeyValue = string | number | Readonly<Record<string, unknown>>;

const SQL_TYPE: Record<ColumnType, string> = { text: 'TEXT', integer: 'INTEGER', real: 'REAL', json: 'TEXT', bool: 'INTEGER' };

export function tableDdl(spec: TableSpec): string {
  for (const k of spec.key) if (!(k in spec.columns)) throw new Error(`Table ${spec.name}: key column ${k} is not a column.`);
  const cols = Object.entries(spec.columns).map(([name, type]) => `${quoteIdent(name)} ${SQL_TYPE[type]}${spec.key.includes(name) ? ' NOT NULL' : ''}`);
  const stmts = [
    `CREATE TABLE IF NOT EXISTS ${quoteIdent(spec.name)} (${cols.join(', ')}, PRIMARY KEY (${spec.key.map(quoteIdent).join(', ')}))`,
  ];
  for (const index of spec.indexes ?? []) {
    for (const c of index) if (!(c in spec.columns)) throw new Error(`Table ${spec.name}: index column ${c} is not a column.`);
    stmts.push(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${spec.name}__${index.join('_')}`)} ON ${quoteIdent(spec.name)} (${index.map(quoteIdent).join(', ')})`);
  }
  return stmts.join(';\n') + ';';
}

export function keyValues(spec: TableSpec, key: KeyValue): unknown[] {
  if (typeof key === 'object') return spec.key.map((k) => {
    const v = (key as Record<string, unknown>)[k];
    if (v === undefined) throw new Error(`Table ${spec.name}: key column ${k} is missing.`);
    return v;
  });
  if (spec.key.length !== 1) throw new Error(`Table ${spec.name} has a composite key; pass an object.`);
  return [key];
}

export function encodeValue(type: ColumnType, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'json':
      return JSON.stringify(value);
    case 'bool':
      return value ? 1 : 0;
    default:
      return value;
  }
}

const decoders = new WeakMap<TableSpec, { json: string[]; bool: string[] }>();

/** A row as SQLite returns it, with its json columns parsed and bool columns true/false (in place). */
export function decodeRow(spec: TableSpec, raw: Row): Row {
  let d = decoders.get(spec);
  if (!d) {
    d = { json: [], bool: [] };
    for (const [name, type] of Object.entries(spec.columns)) {
      if (type === 'json') d.json.push(name);
      else if (type === 'bool') d.bool.push(name);
    }
    decoders.set(spec, d);
  }
  for (const name of d.json) {
    const v = raw[name];
    if (v !== null && v !== undefined) raw[name] = JSON.parse(v as string);
  }
  for (const name of d.bool) {
    const v = raw[name];
    if (v !== null && v !== undefined) raw[name] = v === 1;
  }
  return raw;
}
