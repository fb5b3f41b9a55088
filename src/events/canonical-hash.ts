import { createHash } from 'node:crypto';
import { ResumableSha256, type Sha256State } from './resumable-sha256';
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

/** The columns of a table the canonical hash covers, and the header line its hash begins with. */
function hashedColumns(db: Db, table: string): { columns: string[]; header: string } {
  const columns = columnNames(db, table).filter((c) => !isUnhashedColumn(c));
  return { columns, header: `${table}(${columns.join(',')})\n` };
}

/**
 * Feeds `update` the table's rows as the canonical hash reads them, one JSON line each, sorted by
 * every hashed column; `where` (on the events table's seq) keeps a range of them.
 */
function feedRows(db: Db, table: string, columns: readonly string[], update: (text: string) => void, where?: { sql: string; seq: number }): void {
  const list = columns.map((c) => hashedExpression(table, c)).join(', ');
  const stmt = db.prepare(`SELECT ${list} FROM ${quoteIdent(table)}${where ? ` WHERE ${where.sql}` : ''} ORDER BY ${list}`).raw(true);
  // The same bytes as one update per row and newline, fed in chunks: far fewer calls into the hash.
  let chunk = '';
  for (const row of where ? stmt.iterate(where.seq) : stmt.iterate()) {
    chunk += JSON.stringify(row) + '\n';
    if (chunk.length > 65536) {
      update(chunk);
      chunk = '';
    }
  }
  if (chunk) update(chunk);
}

/**
 * The hash of one table's contents: rows sorted by every hashed column, wall-clock columns and
 * credentials' hashes left out. Two files with equal hashes hold the same facts, whatever order or
 * time they were written in and whatever random tokens their runs issued.
 */
export function tableHash(db: Db, table: string): string {
  const { columns, header } = hashedColumns(db, table);
  const h = createHash('sha256');
  h.update(header);
  if (columns.length > 0) feedRows(db, table, columns, (text) => h.update(text));
  return h.digest('hex');
}

/**
 * The events table's hash is over rows in sequence order (seq, unique, is its first hashed
 * column), so the rows of a start come before any event appended after it: the hash's running
 * state after the start's rows, recorded once, lets tableHash of a longer log be finished from
 * the rows after the start alone (eventsTableHashAfter).
 */
export function eventsHashStateAt(db: Db, lastSeq: number): Sha256State {
  const { columns, header } = hashedColumns(db, 'events');
  if (columns[0] !== 'seq') throw new Error('the events table no longer hashes in sequence order');
  const h = new ResumableSha256().update(header);
  feedRows(db, 'events', columns, (text) => h.update(text), { sql: 'seq <= ?', seq: lastSeq });
  return h.state();
}

/** tableHash(db, 'events') for a log whose first `lastSeq` events are the ones `state` was taken after. */
export function eventsTableHashAfter(db: Db, state: Sha256State, lastSeq: number): string {
  const { columns } = hashedColumns(db, 'events');
  if (columns[0] !== 'seq') throw new Error('the events table no longer hashes in sequence order');
  const h = new ResumableSha256(state);
  feedRows(db, 'events', columns, (text) => h.update(text), { sql: 'seq > ?', seq: lastSeq });
  return h.digest();
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
