import { Type } from '@sinclair/typebox';
import { BankReconciliationCompleted } from '../../events/contracts/ledger-close';
import type { Queries } from '../../projections';
import type { BankReconciliationRow, BankTransactionRow, StatementLineRow } from '../../projections/ledger-cash';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, refuse } from '../decision';
import { formatCents, fromCents, toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt } from '../schemas';
import { BANK_READ, BANK_RECONCILE } from './bank';
import { registerCloseCheck } from './close-checks';

/**
 * A bank account's reconciliation as of a date, in cents. The statement balance (the bank's lines)
 * equals the book balance less the book items the bank has not cleared by then (outstanding
 * payments, deposits in transit) plus the bank's lines the books do not have yet. `difference` is
 * what is left over: a line matched to a book item of another amount, or to nothing real.
 */
export interface Reconciliation {
  bankAccount: string;
  asOf: string;
  statementBalance: number;
  bookBalance: number;
  outstanding: BankTransactionRow[];
  unbooked: StatementLineRow[];
  difference: number;
}

export function reconcile(read: Queries, bankAccount: string, asOf: string): Reconciliation {
  const statementBalance = read.cash.statementBalance(bankAccount, asOf);
  const bookBalance = read.cash.bookBalance(bankAccount, asOf);
  const outstanding = read.cash.outstandingAsOf(bankAccount, asOf);
  const unbooked = read.cash.unbookedAsOf(bankAccount, asOf);
  const adjusted = bookBalance - outstanding.reduce((s, t) => s + t.amount, 0) + unbooked.reduce((s, l) => s + l.amount, 0);
  return { bankAccount, asOf, statementBalance, bookBalance, outstanding, unbooked, difference: statementBalance - adjusted };
}

const item = (t: BankTransactionRow) => ({ id: t.id, date: t.date, kind: t.kind, reference: t.reference, amount: fromCents(t.amount) });
const sum = (rows: readonly { amount: number }[]) => fromCents(rows.reduce((s, r) => s + r.amount, 0));

/** The reconciliation as the API and the report show it: decimals, outstanding items split by side. */
export function reconciliationView(read: Queries, r: Reconciliation) {
  const payments = r.outstanding.filter((t) => t.amount < 0);
  const deposits = r.outstanding.filter((t) => t.amount > 0);
  const last = read.cash.lastReconciliation(r.bankAccount);
  return {
    bank_account: r.bankAccount, as_of: r.asOf,
    statement_balance: fromCents(r.statementBalance),
    book_balance: fromCents(r.bookBalance),
    outstanding_payments: { total: sum(payments), items: payments.map(item) },
    deposits_in_transit: { total: sum(deposits), items: deposits.map(item) },
    unbooked_statement_lines: { total: sum(r.unbooked), items: r.unbooked.map((l) => ({ id: l.id, date: l.date, kind: l.kind, reference: l.reference, amount: fromCents(l.amount), matched: l.matched })) },
    adjusted_book_balance: fromCents(r.statementBalance - r.difference),
    difference: fromCents(r.difference),
    reconciled: r.difference === 0 && r.unbooked.length === 0,
    last_reconciliation: last ? { id: last.id, as_of: last.as_of } : null,
  };
}

const tag = 'ledger';
const objectType = 'bank_reconciliation';

function reconciliationRecordView(read: Queries, id: string) {
  const row = read.cash.reconciliation(id);
  if (!row) return undefined;
  return {
    ...withDecimals(row, ['statement_balance', 'book_balance']),
    outstanding: row.outstanding.map((o) => withDecimals(o, ['amount'])),
    links: [{ rel: 'bank_account', type: 'bank_account', id: row.bank_account }, ...row.outstanding.map((o) => ({ rel: 'outstanding', type: 'bank_transaction', id: o.id }))],
  };
}

export const bankReconciliationRoutes: RouteDef[] = [
  defineAction({
    action: 'bank_reconciliation.complete', method: 'POST', path: '/bank-reconciliations', tag, status: 201, objectType,
    summary: 'Reconcile a bank account as of a date: every statement line by then matched, and the statement balance equal to the book balance less what is outstanding',
    description: "statement_balance, when given, is the closing balance printed on the bank's statement; it must equal the lines on file.",
    body: Body({ bank_account: IdInput, as_of: DateInput, statement_balance: Opt(MoneyInput), note: Opt(NoteInput) }),
    permission: BANK_RECONCILE, emits: [BankReconciliationCompleted],
    decide: ({ body }, ctx) => {
      const account = ctx.read.cash.bankAccount(body.bank_account);
      if (!account) return refuse('not_found', `No bank account ${body.bank_account}.`);
      if (body.as_of > ctx.today) return refuse('invalid_request', `A reconciliation cannot be as of a day after today (${ctx.today}).`, 422);
      const r = reconcile(ctx.read, account.id, body.as_of);
      if (body.statement_balance !== undefined && toCents(body.statement_balance) !== r.statementBalance) {
        return refuse('invalid_state', `The statement's balance ${formatCents(toCents(body.statement_balance))} is not the ${formatCents(r.statementBalance)} of the statement lines on file to ${body.as_of}.`);
      }
      if (r.unbooked.length > 0) {
        const ids = r.unbooked.slice(0, 5).map((l) => `${l.id} (${l.kind} ${formatCents(l.amount)})`).join(', ');
        return refuse('invalid_state', `${r.unbooked.length} statement line${r.unbooked.length === 1 ? '' : 's'} to ${body.as_of} ${r.unbooked.length === 1 ? 'has' : 'have'} no book item: ${ids}${r.unbooked.length > 5 ? ', …' : ''}. Match or book them first.`);
      }
      if (r.difference !== 0) return refuse('invalid_state', `The statement (${formatCents(r.statementBalance)}) and the adjusted book balance differ by ${formatCents(r.difference)}: a line is matched to a book item of another amount.`);
      const id = ctx.nextId('BREC');
      return emit(BankReconciliationCompleted, {
        id, bank_account: account.id, as_of: body.as_of, statement_balance: r.statementBalance, book_balance: r.bookBalance,
        outstanding: r.outstanding.map((t) => ({ id: t.id, date: t.date, kind: t.kind, reference: t.reference, amount: t.amount })), note: body.note ?? '',
      }, objectType, id);
    },
    view: reconciliationRecordView,
  }),
  defineQuery({
    path: '/bank-reconciliations', tag, summary: 'Completed bank reconciliations, by account', permission: BANK_READ,
    query: ListQuery({ bank_account: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'bank_reconciliations', { bank_account: query.bank_account }, query, {
      orderBy: ['as_of', 'id'],
      map: (r) => {
        const { outstanding, ...row } = r as unknown as BankReconciliationRow;
        return { ...withDecimals(row, ['statement_balance', 'book_balance']), outstanding_items: outstanding.length };
      },
    }),
  }),
  defineQuery({
    path: '/bank-reconciliations/{id}', tag, summary: 'A completed bank reconciliation with its outstanding items', permission: BANK_READ, objectType,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => reconciliationRecordView(ctx.read, params.id!),
  }),
];

registerCloseCheck({
  id: 'bank_reconciled',
  summary: 'Every company bank account is reconciled as of the month end or later',
  blocking: false,
  run: (read, _period, end) => read.cash.bankAccounts().flatMap((b) => {
    const last = read.cash.lastReconciliation(b.id);
    return last && last.as_of >= end ? [] : [`${b.id} was last reconciled ${last ? `as of ${last.as_of}` : 'never'}.`];
  }),
});
