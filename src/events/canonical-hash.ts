import { createHash } from 'node:crypto';
import { columnNames, isUnhashedColumn, KERNEL_SIDE_TABLES, quoteIdent, SECRET_FIELDS, tableNames, type Db } from './database';

export interface HashOptions {
  /** Hash only these tables (default: every table of the file but the kernel's side tables). */
  tables?: readonly string[];
}

/**
 * An event's payload without its secret fields. Only payloads that name one are parsed: the test
 * on the text is cheap, and json_remove rewrites nothing else.
 */
const PAYLOAD_WITHOUT_SECRETS = `CASE WHEN ${SECRET_FIELDS.map((f) => `instr(data, '"${f}"') > 0`).join(' OR ')} THEN json_remove(data, ${SECRET_FIELDS.map((f) => `'$.${f}'`).join(', ')}) ELSE data END`;

function hashedExpression(table: string, column: string): string {
  return table === 'events' && column === 'data' ? PAYLOAD_WITHOUT_SECRETS : quoteIdent(column);
}

/**
 * The hash of one table's contents: rows sorted by every hashed column, wall-clock columns and
 * credentials' hashes left out. Two files with equal hashes hold the same facts, whatever order or
 * time they were written in and whatever random tokens their runs issued.
 */
export function tableHash(db: Db, table: string): string {
  const columns = columnNames(db, table).filter((c) => !isUnhashedColumn(c));
  const h = createHash('sha256');
  h.update(`${table}(${columns.join(',')})\n`);
  if (columns.length === 0) return h.digest('hex');
  const list = columns.map((c) => hashedExpression(table, c)).join(', ');
  const stmt = db.prepare(`SELECT ${list} FROM ${quoteIdent(table)} ORDER BY ${list}`).raw(true);
  // The same bytes as one update per row and newline, fed in chunks: far fewer calls into the hash.
  let chunk = '';
  for (const row of stmt.iterate()) {
    chunk += JSON.stringify(row) + '\n';
    if (chunk.length > 65536) {
      h.update(chunk);
      chunk = '';
    }
  }
  if (chunk) h.update(chunk);
  return h.digest('hex');
}

export function tableHashes(db: Db, options: HashOptions = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of options.tables ?? tableNames(db).filter((n) => !KERNEL_SIDE_TABLES.includes(n))) out[t] = tableHash(db, t);
  return out;
}

export function canonicalHash(db: Db, options: HashOptions = {}): string {
  const h = createHash('sha256');
  for (const [table, digest] of Object.entries(tableHashes(db, options)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    h.update(`${table}=${digest}\n`);
  }
  return h.digest('hex');
}

/** Tables whose contents differ between two files (or exist in only one). */
export function differingTables(a: Db, b: Db, options: HashOptions = {}): string[] {
  const ha = tableHashes(a, options);
  const hb = tableHashes(b, options);
  const names = [...new Set([...Object.keys(ha), ...Object.keys(hb)])].sort();
  return names.filter((n) => ha[n] !== hb[n]);
}
