import { Type } from '@sinclair/typebox';
import { BankMinimumBalanceSet, BankTransferBooked } from '../../events/contracts/ledger-close';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { fromCents, toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt } from '../schemas';
import { LEDGER_MANAGE } from './accounts';
import { bankAccountView } from './bank';
import { assertPeriodOpen, JournalBuilder } from './journal';

/** Moving money between the company's own bank accounts (funding payroll, sweeping to operating). */
export const BANK_TRANSFER = 'bank.transfer';

export const treasuryRoutes: RouteDef[] = [
  defineAction({
    action: 'bank_transfer.book', method: 'POST', path: '/bank-transfers', tag: 'ledger', status: 201, objectType: 'bank_transfer',
    summary: "Move money between two of the company's bank accounts: Dr the receiving account's cash, Cr the sending one's",
    body: Body({
      from_account: IdInput, to_account: IdInput, amount: MoneyInput, date: Opt(DateInput),
      reference: Opt(Type.String({ minLength: 1, maxLength: 200 })), memo: Opt(Type.String({ maxLength: 400 })),
    }),
    permission: BANK_TRANSFER, emits: [BankTransferBooked],
    decide: ({ body }, ctx) => {
      const from = ctx.read.cash.bankAccount(body.from_account);
      if (!from) return refuse('not_found', `No bank account ${body.from_account}.`);
      const to = ctx.read.cash.bankAccount(body.to_account);
      if (!to) return refuse('not_found', `No bank account ${body.to_account}.`);
      if (from.id === to.id) return refuse('invalid_request', 'A transfer moves money between two different accounts.', 422);
      const amount = toCents(body.amount);
      if (amount <= 0) return refuse('invalid_request', 'A transfer is a positive amount.', 422);
      const date = body.date ?? ctx.today;
      if (date > ctx.today) return refuse('invalid_request', `A transfer cannot be dated after today (${ctx.today}).`, 422);
      const closed = assertPeriodOpen(ctx, date);
      if (closed) return closed;
      const id = ctx.nextId('TRF');
      const memo = body.memo ?? `Transfer ${id} from ${from.id} to ${to.id}`;
      const journal = new JournalBuilder(date, memo).transfer(to.gl_account, from.gl_account, amount, { document_id: id }).build(ctx.read);
      if (isRefusal(journal)) return journal;
      const reference = body.reference ?? id;
      return emit(BankTransferBooked, {
        id, from_account: from.id, to_account: to.id, date, amount, reference, memo, journal,
        cash: [
          { bank_account: from.id, amount: -amount, kind: 'transfer', reference: id },
          { bank_account: to.id, amount, kind: 'transfer', reference: id },
        ],
      }, 'bank_transfer', id);
    },
    view: (read, id) => {
      const moves = read.cash.transactionsByReference(id);
      return moves.length ? { id, movements: moves.map((m) => ({ id: m.id, bank_account: m.bank_account, date: m.date, amount: fromCents(m.amount) })) } : undefined;
    },
  }),
  defineAction({
    action: 'bank_account.set_minimum', method: 'POST', path: '/bank-accounts/{id}/minimum-balance', tag: 'ledger', objectType: 'bank_account',
    summary: 'Set the minimum balance treasury keeps a bank account above (cash-position shows the room above it)',
    body: Body({ amount: MoneyInput, note: Opt(NoteInput) }),
    permission: LEDGER_MANAGE, emits: [BankMinimumBalanceSet],
    decide: ({ params, body }, ctx) => {
      const account = ctx.read.cash.bankAccount(params.id!);
      if (!account) return refuse('not_found', `No bank account ${params.id}.`);
      const cents = toCents(body.amount);
      if (cents < 0) return refuse('invalid_request', 'A minimum balance cannot be negative.', 422);
      return emit(BankMinimumBalanceSet, { bank_account: account.id, minimum_balance: cents, note: body.note ?? '' }, 'bank_account', account.id);
    },
    view: (read, id) => bankAccountView(read, id, read.clock.today()),
  }),
];
