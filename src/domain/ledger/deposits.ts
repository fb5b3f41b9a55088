import { Type } from '@sinclair/typebox';
import { CashDepositBooked, CashWithdrawalBooked } from '../../events/contracts/ledger';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, Opt } from '../schemas';
import { bankAccountView } from './bank';
import { assertPeriodOpen, JournalBuilder } from './journal';

export const DEPOSIT_BOOK = 'journal_entry.post';

export const depositRoutes: RouteDef[] = [
  defineAction({
    action: 'bank_account.book_deposit', method: 'POST', path: '/bank-accounts/{id}/deposits', tag: 'ledger', status: 201,
    summary: 'Book money received into a company bank account: Dr its cash account, Cr the account named (opening equity, sales, a refund)',
    body: Body({
      date: DateInput,
      amount: MoneyInput,
      credit_account: Type.String({ pattern: '^[0-9]{4}$' }),
      reference: Type.String({ minLength: 1, maxLength: 200 }),
      memo: Opt(Type.String({ maxLength: 400 })),
      department: Opt(IdInput),
    }),
    permission: DEPOSIT_BOOK, objectType: 'bank_account', emits: [CashDepositBooked],
    decide: ({ params, body }, ctx) => {
      const account = ctx.read.cash.bankAccount(params.id!);
      if (!account) return refuse('not_found', `No bank account ${params.id}.`);
      const amount = toCents(body.amount);
      if (amount <= 0) return refuse('invalid_request', 'A deposit is a positive amount.', 422);
      if (body.date > ctx.today) return refuse('invalid_request', `A deposit cannot be dated after today (${ctx.today}).`, 422);
      if (body.credit_account === account.gl_account) return refuse('invalid_request', 'A deposit cannot be credited to the cash account it debits.', 422);
      const closed = assertPeriodOpen(ctx, body.date);
      if (closed) return closed;
      const id = ctx.nextId('DEP');
      const memo = body.memo ?? `Deposit ${body.reference}`;
      const journal = new JournalBuilder(body.date, memo)
        .debit(account.gl_account, amount, { document_id: id })
        .balanceTo(body.credit_account, { document_id: id, ...(body.department ? { department: body.department } : {}) })
        .build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(CashDepositBooked, {
        id, bank_account: account.id, date: body.date, amount, credit_account: body.credit_account, reference: body.reference, memo, journal,
        cash: [{ bank_account: account.id, amount, kind: 'deposit', reference: id }],
      }, 'bank_account', account.id);
    },
    view: (read, id) => bankAccountView(read, id, read.clock.today()),
  }),
  defineAction({
    action: 'bank_account.book_withdrawal', method: 'POST', path: '/bank-accounts/{id}/withdrawals', tag: 'ledger', status: 201,
    summary: 'Book money paid out of a company bank account outside AP (a wire for equipment, a tax payment): Dr the account named, Cr its cash account',
    body: Body({
      date: DateInput,
      amount: MoneyInput,
      debit_account: Type.String({ pattern: '^[0-9]{4}$' }),
      reference: Type.String({ minLength: 1, maxLength: 200 }),
      memo: Opt(Type.String({ maxLength: 400 })),
      department: Opt(IdInput),
    }),
    permission: DEPOSIT_BOOK, objectType: 'bank_account', emits: [CashWithdrawalBooked],
    decide: ({ params, body }, ctx) => {
      const account = ctx.read.cash.bankAccount(params.id!);
      if (!account) return refuse('not_found', `No bank account ${params.id}.`);
      const amount = toCents(body.amount);
      if (amount <= 0) return refuse('invalid_request', 'A withdrawal is a positive amount.', 422);
      if (body.date > ctx.today) return refuse('invalid_request', `A withdrawal cannot be dated after today (${ctx.today}).`, 422);
      if (body.debit_account === account.gl_account) return refuse('invalid_request', 'A withdrawal cannot be debited to the cash account it credits.', 422);
      const closed = assertPeriodOpen(ctx, body.date);
      if (closed) return closed;
      const id = ctx.nextId('WDL');
      const memo = body.memo ?? `Withdrawal ${body.reference}`;
      const journal = new JournalBuilder(body.date, memo)
        .debit(body.debit_account, amount, { document_id: id, ...(body.department ? { department: body.department } : {}) })
        .balanceTo(account.gl_account, { document_id: id })
        .build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(CashWithdrawalBooked, {
        id, bank_account: account.id, date: body.date, amount, debit_account: body.debit_account, reference: body.reference, memo, journal,
        cash: [{ bank_account: account.id, amount: -amount, kind: 'transfer', reference: id }],
      }, 'bank_account', account.id);
    },
    view: (read, id) => bankAccountView(read, id, read.clock.today()),
  }),
];
