import { formatCents } from '../../../domain/money';
import type { Routine } from './context';

const dollars = (cents: number) => formatCents(cents, false);
const LINE_OF_CREDIT = '2600';
/** Treasury keeps the operating account between these amounts above its minimum, drawing or repaying the line of credit in steps of $10,000. */
const DRAW_BELOW = 15_000_000;
const DRAW_TO = 30_000_000;
const REPAY_ABOVE = 70_000_000;
const REPAY_TO = 40_000_000;
const STEP = 1_000_000;

/**
 * The controller's cash management, at the end of each business day: when the operating account
 * nears its minimum balance she draws on the bank line of credit, and repays it when cash builds
 * up again (deposits and withdrawals against account 2600, which the bank puts on the statement).
 */
export const manageCash: Routine = (day) => {
  if (!day.businessDay) return;
  const account = day.read.cash.bankAccount('BANK-OP')!;
  const balance = day.read.cash.bookBalance('BANK-OP', day.date);
  const floor = account.minimum_balance;
  if (balance < floor + DRAW_BELOW) {
    const amount = Math.ceil((floor + DRAW_TO - balance) / STEP) * STEP;
    day.b.as('grace.lin', 'POST', '/bank-accounts/BANK-OP/deposits', { date: day.date, amount: dollars(amount), credit_account: LINE_OF_CREDIT, reference: `LOC draw ${day.date}`, memo: 'Draw on the line of credit' });
    return;
  }
  const owed = day.read.ledger.balance(LINE_OF_CREDIT, day.date);
  if (owed > 0 && balance > floor + REPAY_ABOVE) {
    const amount = Math.min(owed, Math.floor((balance - floor - REPAY_TO) / STEP) * STEP);
    if (amount > 0) day.b.as('grace.lin', 'POST', '/bank-accounts/BANK-OP/withdrawals', { date: day.date, amount: dollars(amount), debit_account: LINE_OF_CREDIT, reference: `LOC repayment ${day.date}`, memo: 'Repayment of the line of credit' });
  }
};
