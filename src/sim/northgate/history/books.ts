import { addMonths } from '../../../domain/calendar';
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

/** The month-end close: on the second business day of a month, the staff accountant closes the month before. */
export const closeMonth: Routine = (day) => {
  if (day.businessDayOfMonth !== 2) return;
  const period = addMonths(`${day.date.slice(0, 7)}-01`, -1).slice(0, 7);
  const row = day.read.ledger.period(period);
  if (!row || row.status === 'closed') return;
  day.b.as('lena.park', 'POST', `/periods/${period}/start-close`, {});
  day.b.as('lena.park', 'POST', `/periods/${period}/close`, {});
};
