import { formatCents } from '../../../domain/money';
import { rng } from '../../random';
import type { Routine } from './context';
import { INSURANCE_YEAR_START } from './opening';

const dollars = (cents: number) => formatCents(cents, false);
/** The property and liability policy renews every July; the broker is paid by wire the week before. */
const RENEWAL_PAID = '2026-06-25';
const RENEWAL_START = '2026-07';

/**
 * The insurance renewal: the controller wires the year's premium to the broker (Dr prepaid
 * insurance), and the accountant registers it in the prepaid register, to be expensed a twelfth a
 * month from July. The premium rises 4 to 9% on the year the history opened with.
 */
export const renewInsurance: Routine = (day) => {
  if (day.date !== RENEWAL_PAID) return;
  const expiring = day.read.schedules.prepaids().find((s) => s.prepaid_account === '1410' && s.start_period === INSURANCE_YEAR_START);
  if (!expiring) return;
  const premium = Math.round((expiring.amount * (1 + rng(day.b.seed, 'northgate.insurance').int(4, 9) / 100)) / 100) * 100;
  const reference = `Wire ${day.date} insurance`;
  day.b.as('grace.lin', 'POST', '/bank-accounts/BANK-OP/withdrawals', { date: day.date, amount: dollars(premium), debit_account: '1410', reference, memo: `Property and liability insurance premium, ${RENEWAL_START} for twelve months` });
  day.b.as('lena.park', 'POST', '/prepaid-schedules', {
    description: `Property and liability insurance, ${RENEWAL_START} for twelve months`, prepaid_account: '1410', expense_account: '6400', department: 'OPS',
    amount: dollars(premium), start_period: RENEWAL_START, months: 12, source: `withdrawal ${reference}`,
  });
};
