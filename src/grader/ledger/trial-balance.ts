import type { Db } from '../../events/database';
import type { ControlTieResult } from '../result';
import type { ControlTie } from './control-ties';

/** The ledger read model's table of posted journal lines (docs/ledger.md). */
export const GL_TABLE = 'gl_lines';

export function hasLedger(db: Db): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(GL_TABLE) !== undefined;
}

export function trialBalance(db: Db, asOf: string): { debits: number; credits: number } {
  return db.prepare(`SELECT COALESCE(SUM(debit), 0) AS debits, COALESCE(SUM(credit), 0) AS credits FROM ${GL_TABLE} WHERE date <= ?`).get(asOf) as { debits: number; credits: number };
}

/** The control's balance on its normal side, from the general ledger. */
export function controlBalance(db: Db, tie: ControlTie, asOf: string): number {
  const marks = tie.accounts.map(() => '?').join(', ');
  const row = db.prepare(`SELECT COALESCE(SUM(debit), 0) - COALESCE(SUM(credit), 0) AS net FROM ${GL_TABLE} WHERE account IN (${marks}) AND date <= ?`).get(...tie.accounts, asOf) as { net: number };
  return tie.normal === 'debit' ? row.net : -row.net;
}

export function subledgerBalance(db: Db, tie: ControlTie, asOf: string): number {
  const row = db.prepare(tie.subledgerSql).get({ as_of: asOf }) as { balance?: number | null } | undefined;
  if (!row || !('balance' in row)) throw new Error(`The ${tie.kind} subledger SQL returned no balance column.`);
  return row.balance ?? 0;
}

export function tieControl(db: Db, tie: ControlTie, asOf: string): ControlTieResult {
  const gl = controlBalance(db, tie, asOf);
  const sub = subledgerBalance(db, tie, asOf);
  return { kind: tie.kind, gl_cents: gl, subledger_cents: sub, ties: gl === sub };
}
