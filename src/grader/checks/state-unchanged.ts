import { columnNames, isWallClockColumn, quoteIdent, type Db } from '../../events/database';
import type { CheckOf } from '../../task-pack/schema';
import type { DifferingRow } from '../result';
import { plural, type CheckContext, type CheckOutcome } from './context';

type Row = Record<string, string>;

/** Rows of a table (wall-clock columns left out) keyed by its primary key, as text. */
function rowsOf(db: Db, table: string, key: readonly string[], where: string | undefined): Map<string, Row> {
  const columns = columnNames(db, table).filter((c) => !isWallClockColumn(c));
  const sql = `SELECT ${columns.map(quoteIdent).join(', ')} FROM ${quoteIdent(table)}${where ? ` WHERE ${where}` : ''}`;
  const out = new Map<string, Row>();
  for (const raw of db.prepare(sql).all() as Record<string, unknown>[]) {
    const row = Object.fromEntries(columns.map((c) => [c, raw[c] === null || raw[c] === undefined ? '' : String(raw[c])]));
    out.set(JSON.stringify(key.map((k) => row[k])), row);
  }
  return out;
}

function pick(row: Row, key: readonly string[]): Row {
  return Object.fromEntries(key.map((k) => [k, row[k] ?? '']));
}

/** The condition a table's rows are compared under: the check's one condition, or the table's own. */
export function whereFor(check: CheckOf<'state_unchanged'>, table: string): string | undefined {
  return typeof check.where === 'string' ? check.where : check.where?.[table];
}

function describeWhere(check: CheckOf<'state_unchanged'>): string {
  if (!check.where) return '';
  if (typeof check.where === 'string') return ` where ${check.where}`;
  return ` (${Object.entries(check.where).map(([t, w]) => `${t} where ${w}`).join('; ')})`;
}

/**
 * No collateral edits: the named read-model tables (rows matching `where`, one condition or one per table) are as they
 * were at the start. Rows are matched by the table's primary key; wall-clock columns are ignored.
 */
export function stateUnchanged(check: CheckOf<'state_unchanged'>, ctx: CheckContext): CheckOutcome {
  const differing: DifferingRow[] = [];
  const perTable: string[] = [];
  for (const table of check.tables) {
    const key = ctx.tableKey(table);
    if (!key) return { passed: false, detail: `${table} is not a read-model table.` };
    let before: Map<string, Row>;
    let after: Map<string, Row>;
    const where = whereFor(check, table);
    try {
      before = rowsOf(ctx.start, table, key, where);
      after = rowsOf(ctx.final, table, key, where);
    } catch (err) {
      return { passed: false, detail: `state_unchanged on ${table} failed: ${(err as Error).message}.` };
    }
    const n = differing.length;
    for (const k of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const was = before.get(k);
      const now = after.get(k);
      const keyValues = key.map((c) => (now ?? was)![c] ?? '');
      if (was && !now) differing.push({ key: pick(was, key), kind: 'missing', expected: was, event_ids: ctx.evidence.forRow(undefined, keyValues) });
      else if (!was && now) differing.push({ key: pick(now, key), kind: 'extra', agent: now, event_ids: ctx.evidence.forRow(now, keyValues) });
      else {
        const columns = Object.keys(was!).filter((c) => was![c] !== now![c]);
        if (columns.length) differing.push({ key: pick(now!, key), kind: 'changed', columns, agent: now, expected: was, event_ids: ctx.evidence.forRow(now, keyValues) });
      }
    }
    if (differing.length > n) perTable.push(`${table} (${plural(differing.length - n, 'row')})`);
  }
  return {
    passed: differing.length === 0,
    detail: differing.length === 0 ? `${check.tables.join(', ')} ${check.tables.length === 1 ? 'is' : 'are'} as at the start${describeWhere(check)}.` : `Changed since the start: ${perTable.join(', ')}.`,
    differing,
  };
}
