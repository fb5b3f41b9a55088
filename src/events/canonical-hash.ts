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
function feedRows(db: Db, table: string, columns: readonly string[], update: (text: string) => void, where?: { sql: string; seq: number } | { offset: number }): { rows: number; last: string | undefined } {
  const list = columns.map((c) => hashedExpression(table, c)).join(', ');
  const filter = where && 'sql' in where ? ` WHERE ${where.sql}` : '';
  const skip = where && 'offset' in where ? ' LIMIT -1 OFFSET ?' : '';
  const stmt = db.prepare(`SELECT ${list} FROM ${quoteIdent(table)}${filter} ORDER BY ${list}${skip}`).raw(true);
  // The same bytes as one update per row and newline, fed in chunks: far fewer calls into the hash.
  let chunk = '';
  let rows = 0;
  let last: string | undefined;
  for (const row of where ? stmt.iterate('sql' in where ? where.seq : where.offset) : stmt.iterate()) {
    last = JSON.stringify(row);
    chunk += last + '\n';
    rows += 1;
    if (chunk.length > 65536) {
      update(chunk);
      chunk = '';
    }
  }
  if (chunk) update(chunk);
  return { rows, last };
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
  return eventsHashAt(db, lastSeq).state;
}

/** The events table's hash over its events up to `lastSeq`, and the running state there (eventsHashStateAt). */
export function eventsHashAt(db: Db, lastSeq: number): { digest: string; state: Sha256State } {
  const { columns, header } = hashedColumns(db, 'events');
  if (columns[0] !== 'seq') throw new Error('the events table no longer hashes in sequence order');
  const h = new ResumableSha256().update(header);
  feedRows(db, 'events', columns, (text) => h.update(text), { sql: 'seq <= ?', seq: lastSeq });
  return { digest: h.digest(), state: h.state() };
}

/** tableHash(db, 'events') for a log whose first `lastSeq` events are the ones `state` was taken after. */
export function eventsTableHashAfter(db: Db, state: Sha256State, lastSeq: number): string {
  return eventsHashAfter(db, state, lastSeq).digest;
}

/** eventsTableHashAfter, and the running state after the last event (eventsHashStateAt of the whole log). */
export function eventsHashAfter(db: Db, state: Sha256State, lastSeq: number): { digest: string; state: Sha256State } {
  const { columns } = hashedColumns(db, 'events');
  if (columns[0] !== 'seq') throw new Error('the events table no longer hashes in sequence order');
  const h = new ResumableSha256(state);
  feedRows(db, 'events', columns, (text) => h.update(text), { sql: 'seq > ?', seq: lastSeq });
  return { digest: h.digest(), state: h.state() };
}

/**
 * Where a table's hash stood after its rows, for a table a later state may only have added rows
 * to: the rows hashed, the header and the last row as hashed, and the running state.
 */
export interface TableHashState {
  rows: number;
  header: string;
  last: string;
  state: Sha256State;
}

/** Tables of fewer rows are hashed whole when they change: quick, and no state is worth keeping. */
export const RESUMABLE_TABLE_ROWS = 1000;

function sortedRowAt(db: Db, table: string, columns: readonly string[], index: number): string | undefined {
  const list = columns.map((c) => hashedExpression(table, c)).join(', ');
  const row = db.prepare(`SELECT ${list} FROM ${quoteIdent(table)} ORDER BY ${list} LIMIT 1 OFFSET ?`).raw(true).get(index) as unknown[] | undefined;
  return row === undefined ? undefined : JSON.stringify(row);
}

/** The hash state of a read-model table after all its rows, when it has RESUMABLE_TABLE_ROWS or more. */
export function tableHashState(db: Db, table: string): TableHashState | undefined {
  return tableHashAndState(db, table).state;
}

/**
 * tableHash of a read-model table and, when it has RESUMABLE_TABLE_ROWS rows or more, its
 * tableHashState, from one pass over its rows.
 */
export function tableHashAndState(db: Db, table: string): { digest: string; state?: TableHashState } {
  if (table === 'events') return { digest: tableHash(db, table) };
  const { columns, header } = hashedColumns(db, table);
  const count = (db.prepare(`SELECT COUNT(*) AS n FROM ${quoteIdent(table)}`).get() as { n: number }).n;
  if (columns.length === 0 || count < RESUMABLE_TABLE_ROWS) return { digest: tableHash(db, table) };
  const h = new ResumableSha256().update(header);
  const { rows, last } = feedRows(db, table, columns, (text) => h.update(text));
  const state = { rows, header, last: last!, state: h.state() };
  return { digest: h.digest(), state };
}

/**
 * tableHash(db, table) for a table that holds the rows `recorded` was taken after and, perhaps,
 * rows added since (the caller knows nothing else was done to it): hashed on from the state, over
 * the added rows only. Undefined when the table does not begin with those rows as it sorts (an
 * added row sorting among them, other columns, fewer rows): hash it whole then.
 */
export function tableHashAfterRows(db: Db, table: string, recorded: TableHashState): string | undefined {
  return tableHashAndStateAfterRows(db, table, recorded)?.digest;
}

/** tableHashAfterRows, and the table's hash state after all its rows now. */
export function tableHashAndStateAfterRows(db: Db, table: string, recorded: TableHashState): { digest: string; state: TableHashState } | undefined {
  const { columns, header } = hashedColumns(db, table);
  if (header !== recorded.header || recorded.rows < 1) return undefined;
  // The rows are distinct (each table has a key), so a row added below the last recorded one
  // would move another row into its place.
  if (sortedRowAt(db, table, columns, recorded.rows - 1) !== recorded.last) return undefined;
  const h = new ResumableSha256(recorded.state);
  const added = feedRows(db, table, columns, (text) => h.update(text), { offset: recorded.rows });
  return { digest: h.digest(), state: { rows: recorded.rows + added.rows, header, last: added.last ?? recorded.last, state: h.state() } };
}

export function tableHashes(db: Db, options: HashOptions = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of options.tables ?? tableNames(db).filter((n) => !KERNEL_SIDE_TABLES.includes(n))) out[t] = tableHash(db, t);
  return out;
}

export function canonicalHash(db: Db, options: HashOptions = {}): string {
  const hashes = tableHashes(db, options);
  return hashOfTableHashes(hashes, Object.keys(hashes));
}

/** The canonical hash of the tables `tables` names, from their table hashes. */
export function hashOfTableHashes(hashes: Readonly<Record<string, string>>, tables: readonly string[]): string {
  const h = createHash('sha256');
  for (const table of [...tables].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) h.update(`${table}=${hashes[table]}\n`);
  return h.digest('hex');
}

/** Tables whose contents differ between two files (or exist in only one). */
export function differingTables(a: Db, b: Db, options: HashOptions = {}): string[] {
  const ha = tableHashes(a, options);
  const hb = tableHashes(b, options);
  const names = [...new Set([...Object.keys(ha), ...Object.keys(hb)])].sort();
  return names.filter((n) => ha[n] !== hb[n]);
}
