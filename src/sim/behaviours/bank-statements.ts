import { fromCents } from '../../domain/money';
import type { BankTransactionRow } from '../../projections/ledger-cash';
import type { SimContext } from '../simulator';
import { bankStatementsProfile, must } from './payables-profiles';

/** Book movements the bank puts on the statement by itself; AP payments clear through bank-payments, fees and interest start at the bank. */
const ON_STATEMENT = ['deposit', 'transfer', 'payroll'];

/** How the bank prints a book movement: a transfer between the company's accounts, a deposit, or a debit. */
function statementKind(t: BankTransactionRow): 'transfer' | 'deposit' | 'withdrawal' {
  if (t.source_type === 'BankTransferBooked') return 'transfer';
  return t.amount > 0 ? 'deposit' : 'withdrawal';
}

/**
 * The bank's statement of the money the company moved outside AP: each business day, a line for
 * every deposit, transfer, withdrawal and payroll booked on an earlier day, printed with the
 * company's reference and left for the accountant to match; and the planted interest on its date.
 */
export function bankStatements(ctx: SimContext): void {
  const profile = bankStatementsProfile(ctx);
  if (!profile) return;
  const bank = ctx.as(profile.as);
  for (const credit of profile.interest ?? []) {
    if (credit.date !== ctx.date) continue;
    must(bank.post('/bank-statement-lines', { bank_account: credit.bank_account, date: ctx.date, amount: fromCents(Math.abs(credit.amount_cents)), kind: 'interest', reference: 'INTEREST', description: credit.description }), 'interest');
  }
  if (!ctx.businessDay) return;
  for (const t of ctx.read.cash.notOnStatement(ON_STATEMENT, ctx.date)) {
    must(bank.post('/bank-statement-lines', {
      bank_account: t.bank_account, date: ctx.date, amount: fromCents(t.amount), kind: statementKind(t), reference: t.reference, description: `${statementKind(t)} ${t.reference}`,
    }), `statement line for ${t.id}`);
  }
}
