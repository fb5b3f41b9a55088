import { Type } from '@sinclair/typebox';
import { BankStatementLineMatched, BankStatementLinePosted, BankStatementLineUnmatched, CompanyBankAccountOpened } from '../../events/contracts/ledger';
import type { Queries } from '../../projections';
import type { BankAccountRow, BankTransactionRow, StatementLineRow } from '../../projections/ledger-cash';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { maskNumber } from '../master/bank-masking';
import { fromCents, toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { LEDGER_MANAGE } from './accounts';
import { assertPeriodOpen, JournalBuilder } from './journal';

export const BANK_READ = 'bank.read';
export const BANK_STATEMENT_POST = 'bank_statement.post';
export const BANK_RECONCILE = 'bank.reconcile';
/** Bank fees and interest earned (docs/ledger.md, standard postings). */
export const BANK_FEES_ACCOUNT = '6800';
export const INTEREST_INCOME_ACCOUNT = '4950';

export const StatementKind = Type.Union(['payment_cleared', 'fee', 'returned_payment', 'deposit', 'interest', 'withdrawal', 'transfer'].map((t) => Type.Literal(t)));
type StatementKind = StatementLineRow['kind'];

/** The sign each kind of line carries, as the bank shows it: money out negative, money in positive, 0 either. */
const SIGN: Record<StatementKind, -1 | 1 | 0> = { payment_cleared: -1, withdrawal: -1, returned_payment: 1, deposit: 1, interest: 1, fee: 0, transfer: 0 };

/** Lines the bank books by itself: a fee (Dr bank fees) or interest earned (Cr interest income), against cash. */
const SELF_BOOKING: Partial<Record<StatementKind, { account: string; what: string }>> = {
  fee: { account: BANK_FEES_ACCOUNT, what: 'Bank fee' },
  interest: { account: INTEREST_INCOME_ACCOUNT, what: 'Interest' },
};

export function bankAccountView(read: Queries, id: string, asOf: string) {
  const account = read.cash.bankAccount(id);
  if (!account) return undefined;
  const position = read.cash.statementPosition(id, asOf);
  const last = read.cash.lastReconciliation(id);
  return {
    ...withDecimals(account, ['minimum_balance']),
    as_of: asOf,
    book_balance: fromCents(read.cash.bookBalance(id, asOf)),
    statement_net: fromCents(position.statement_net),
    unmatched_statement_lines: position.unmatched_statement_lines,
    uncleared_book_items: position.uncleared_book_items,
    last_reconciled_as_of: last?.as_of ?? null,
    links: [{ rel: 'gl_account', type: 'account', id: account.gl_account }, ...(last ? [{ rel: 'last_reconciliation', type: 'bank_reconciliation', id: last.id }] : [])],
  };
}

export function statementLineView(read: Queries, id: string) {
  const line = read.cash.statementLine(id);
  if (!line) return undefined;
  const booked = read.cash.transactionsByReference(id);
  return {
    ...withDecimals(line, ['amount']),
    links: [
      { rel: 'bank_account', type: 'bank_account', id: line.bank_account },
      ...booked.map((t) => ({ rel: 'bank_transaction', type: 'bank_transaction', id: t.id })),
      ...(line.matched && line.matched !== booked[0]?.id ? [{ rel: 'matched', type: read.cash.bankTransaction(line.matched) ? 'bank_transaction' : 'reference', id: line.matched }] : []),
    ],
  };
}

/**
 * The date a fee or interest is booked on: the statement date when its period takes postings;
 * otherwise (a late line for a month already closed) the business date, as an accountant books a late charge.
 */
function bookingDate(ctx: DecideContext, date: string): string | Refusal {
  if (!assertPeriodOpen(ctx, date)) return date;
  return assertPeriodOpen(ctx, ctx.today) ?? ctx.today;
}

export const bankRoutes: RouteDef[] = [
  defineAction({
    action: 'bank_account.open', method: 'POST', path: '/bank-accounts', tag: 'ledger', status: 201,
    summary: 'Register a company bank account and the cash account it posts to',
    body: Body({
      id: Type.String({ pattern: '^BANK-[A-Z0-9]{1,20}$' }),
      name: Type.String({ minLength: 1, maxLength: 200 }),
      gl_account: Type.String({ pattern: '^[0-9]{4,6}$' }),
      bank_name: Type.String({ minLength: 1, maxLength: 200 }),
      account_number: Type.String({ pattern: '^[0-9]{4,17}$', description: 'Stored masked: only the last four digits are kept' }),
    }),
    permission: LEDGER_MANAGE, objectType: 'bank_account', emits: [CompanyBankAccountOpened],
    decide: ({ body }, ctx) => {
      if (ctx.read.cash.bankAccount(body.id)) return refuse('already_exists', `Bank account ${body.id} already exists.`);
      const gl = ctx.read.ledger.account(body.gl_account);
      if (!gl) return refuse('not_found', `No account ${body.gl_account}.`);
      if (gl.subledger !== 'cash') return refuse('invalid_request', `Account ${gl.code} ${gl.name} is not a cash control account.`, 422);
      return emit(CompanyBankAccountOpened, { id: body.id, name: body.name, gl_account: gl.code, bank_name: body.bank_name, masked_number: maskNumber(body.account_number) }, 'bank_account', body.id);
    },
    view: (read, id) => bankAccountView(read, id, read.clock.today()),
  }),
  defineAction({
    action: 'bank_statement_line.post', method: 'POST', path: '/bank-statement-lines', tag: 'ledger', status: 201,
    summary: "Post a line of the bank's statement (the bank); a fee line books Dr 6800 bank fees / Cr cash, an interest line Dr cash / Cr 4950",
    body: Body({
      bank_account: IdInput,
      date: DateInput,
      amount: MoneyInput,
      kind: StatementKind,
      reference: Type.String({ maxLength: 200 }),
      description: Opt(Type.String({ maxLength: 400 })),
    }),
    permission: BANK_STATEMENT_POST, objectType: 'bank_statement_line', emits: [BankStatementLinePosted],
    decide: ({ body }, ctx) => {
      const account = ctx.read.cash.bankAccount(body.bank_account);
      if (!account) return refuse('not_found', `No bank account ${body.bank_account}.`);
      if (body.date > ctx.today) return refuse('invalid_request', `A statement line cannot be dated after today (${ctx.today}).`, 422);
      const amount = toCents(body.amount);
      const kind = body.kind as StatementKind;
      const sign = SIGN[kind];
      if (amount === 0 || (sign !== 0 && Math.sign(amount) !== sign)) {
        return refuse('invalid_request', `A ${kind} line carries a ${sign < 0 ? 'negative' : sign > 0 ? 'positive' : 'non-zero'} amount.`, 422);
      }
      const id = ctx.nextId('BSL');
      const line = { id, bank_account: account.id, date: body.date, amount, kind, reference: body.reference, description: body.description ?? '' };
      const booking = SELF_BOOKING[kind];
      if (!booking) return emit(BankStatementLinePosted, line, 'bank_statement_line', id);
      return bookBankItem(ctx, account, line, booking);
    },
    view: statementLineView,
  }),
  defineAction({
    action: 'bank_statement_line.match', method: 'POST', path: '/bank-statement-lines/{id}/match', tag: 'ledger',
    summary: 'Match a statement line to the book item it clears (a bank transaction BT-… or a document reference)',
    body: Body({ reference: Type.String({ minLength: 1, maxLength: 200 }), note: Opt(NoteInput) }),
    permission: BANK_RECONCILE, objectType: 'bank_statement_line', emits: [BankStatementLineMatched],
    decide: ({ params, body }, ctx) => {
      const line = ctx.read.cash.statementLine(params.id!);
      if (!line) return refuse('not_found', `No bank statement line ${params.id}.`);
      if (line.status === 'matched') return refuse('invalid_state', `Statement line ${line.id} is already matched to ${line.matched}; unmatch it first.`);
      const bt = ctx.read.cash.bankTransaction(body.reference);
      if (/^BT-/.test(body.reference)) {
        if (!bt) return refuse('not_found', `No bank transaction ${body.reference}.`);
        if (bt.bank_account !== line.bank_account) return refuse('invalid_request', `${bt.id} moved ${bt.bank_account}, not ${line.bank_account}.`, 422);
        if (bt.statement_line) return refuse('invalid_state', `${bt.id} is already cleared by statement line ${bt.statement_line}.`);
      }
      return emit(BankStatementLineMatched, { bank_matches: [{ statement_line: line.id, reference: body.reference }], note: body.note ?? '' }, 'bank_statement_line', line.id);
    },
    view: statementLineView,
  }),
  defineAction({
    action: 'bank_statement_line.unmatch', method: 'POST', path: '/bank-statement-lines/{id}/unmatch', tag: 'ledger',
    summary: 'Undo the match of a statement line, with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: BANK_RECONCILE, objectType: 'bank_statement_line', emits: [BankStatementLineUnmatched],
    decide: ({ params, body }, ctx) => {
      const line = ctx.read.cash.statementLine(params.id!);
      if (!line) return refuse('not_found', `No bank statement line ${params.id}.`);
      if (line.status !== 'matched') return refuse('invalid_state', `Statement line ${line.id} is not matched.`);
      return emit(BankStatementLineUnmatched, { bank_matches: [{ statement_line: line.id, reference: null }], reason: body.reason, note: body.note ?? '' }, 'bank_statement_line', line.id);
    },
    view: statementLineView,
  }),
  defineQuery({
    path: '/bank-accounts', tag: 'ledger', summary: 'Company bank accounts', permission: null,
    query: ListQuery({}),
    run: ({ query }, ctx) => listPage(ctx.tables, 'bank_accounts', {}, query, { map: (r) => withDecimals(r as unknown as BankAccountRow, ['minimum_balance']) }),
  }),
  defineQuery({
    path: '/bank-accounts/{id}', tag: 'ledger', summary: 'A company bank account with its book balance and reconciliation position (as_of, default today)', permission: BANK_READ, objectType: 'bank_account',
    query: Type.Object({ as_of: Opt(DateInput) }, { additionalProperties: false }),
    run: ({ params, query }, ctx) => bankAccountView(ctx.read, params.id!, query.as_of ?? ctx.today),
  }),
  defineQuery({
    path: '/bank-transactions', tag: 'ledger', summary: 'Book-side cash movements (the cash subledger); uncleared=true lists those no statement line has cleared', permission: BANK_READ,
    query: ListQuery({ bank_account: Opt(IdInput), reference: Opt(Type.String({ maxLength: 200 })), kind: Opt(IdInput), period: Opt(IdInput), uncleared: Opt(Type.Boolean()) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'bank_transactions', {
      bank_account: query.bank_account, reference: query.reference, kind: query.kind, period: query.period, ...(query.uncleared ? { statement_line: null } : {}),
    }, query, { orderBy: ['date', 'id'], map: (r) => withDecimals(r as unknown as BankTransactionRow, ['amount']) }),
  }),
  defineQuery({
    path: '/bank-statement-lines', tag: 'ledger', summary: "The bank's statement lines, filtered by account, kind and status", permission: BANK_READ,
    query: ListQuery({ bank_account: Opt(IdInput), kind: Opt(StatementKind), status: Opt(Type.Union([Type.Literal('unmatched'), Type.Literal('matched')])), reference: Opt(Type.String({ maxLength: 200 })) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'bank_statement_lines', { bank_account: query.bank_account, kind: query.kind, status: query.status, reference: query.reference }, query, {
      orderBy: ['date', 'id'], map: (r) => withDecimals(r as unknown as StatementLineRow, ['amount']),
    }),
  }),
  defineQuery({
    path: '/bank-statement-lines/{id}', tag: 'ledger', summary: 'A statement line with what it was matched to', permission: BANK_READ, objectType: 'bank_statement_line',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => statementLineView(ctx.read, params.id!),
  }),
];

type LineData = { id: string; bank_account: string; date: string; amount: number; kind: StatementKind; reference: string; description: string };

function bookBankItem(ctx: DecideContext, account: BankAccountRow, line: LineData, booking: { account: string; what: string }) {
  const date = bookingDate(ctx, line.date);
  if (typeof date !== 'string') return date;
  const journal = new JournalBuilder(date, `${booking.what} ${line.id} on ${account.id}${line.description ? `: ${line.description}` : ''}`)
    .debit(booking.account, -line.amount, { document_id: line.id })
    .balanceTo(account.gl_account, { document_id: line.id })
    .build(ctx.read);
  if (isRefusal(journal)) return journal;
  const cash = [{ bank_account: account.id, amount: line.amount, kind: line.kind === 'fee' ? 'fee' as const : 'interest' as const, reference: line.id, statement_line: line.id }];
  return emit(BankStatementLinePosted, { ...line, journal, cash }, 'bank_statement_line', line.id);
}
