import { formatCents } from '../../../domain/money';
import type { Routine } from './context';

const dollars = (cents: number) => formatCents(cents, false);

/**
 * Customer receipts, deposited every Friday. Receivables are not modelled yet, so the staff
 * accountant books them straight to sales: the cash that pays the vendors.
 */
export const depositSales: Routine = (day) => {
  if (!day.businessDay || new Date(`${day.date}T00:00:00Z`).getUTCDay() !== 5) return;
  const amount = day.rng.cents(6_000_000, 8_500_000, 1);
  day.b.as('lena.park', 'POST', '/bank-accounts/BANK-OP/deposits', {
    date: day.date, amount: dollars(amount), credit_account: '4000', reference: `Lockbox ${day.date}`, memo: `Customer receipts, week ending ${day.date}`,
  });
};
