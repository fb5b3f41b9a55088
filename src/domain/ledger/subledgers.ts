import type { Queries } from '../../projections';
import { balanceOf, type AccountRow } from '../../projections/ledger';

export type SubledgerKind = NonNullable<AccountRow['subledger']>;

/**
 * The balance of a control account's subledger as of a date, in cents on the account's normal
 * side, computed from the owning area's read models and never from gl_lines (docs/ledger.md).
 */
export type SubledgerBalance = (read: Queries, account: AccountRow, asOf: string) => number;

const subledgers = new Map<SubledgerKind, SubledgerBalance>();

/** Called once by the area that owns a subledger's documents (payables for AP, receiving for GRNI, …). */
export function registerSubledger(kind: SubledgerKind, balance: SubledgerBalance): void {
  if (subledgers.has(kind)) throw new Error(`A subledger for ${kind} is already registered.`);
  subledgers.set(kind, balance);
}

export function subledgerFor(kind: SubledgerKind): SubledgerBalance | undefined {
  return subledgers.get(kind);
}

/** Cash: the book balances of the company bank accounts that post to the account. */
registerSubledger('cash', (read, account, asOf) => read.cash.subledgerBalance(account.code, asOf));

/** A control account's GL balance beside its subledger, in cents on its normal side; null when no area keeps that subledger. */
export interface ControlTie {
  account: string;
  name: string;
  subledger: SubledgerKind | null;
  gl: number;
  sub: number | null;
}

/** Every control account against its subledger as of a date, each side computed independently. */
export function controlTiesAsOf(read: Queries, asOf: string): ControlTie[] {
  const totals = new Map(read.ledger.totalsAsOf(asOf).map((t) => [t.account, t]));
  return read.ledger.controlAccounts().map((a) => {
    const balance = a.subledger ? subledgerFor(a.subledger) : undefined;
    return { account: a.code, name: a.name, subledger: a.subledger, gl: balanceOf(a, totals.get(a.code) ?? { debit: 0, credit: 0 }), sub: balance ? balance(read, a, asOf) : null };
  });
}
