import { isBusinessDay, nextBusinessDay, type WorkCalendar } from '../../../domain/calendar';
import { formatCents } from '../../../domain/money';
import { rng } from '../../random';
import type { Routine } from './context';
import { registerAsset } from './opening';

const dollars = (cents: number) => formatCents(cents, false);

const drawn = new Map<number, { day: string; cost: number }>();

/** The machine bought during the year: when (a business day in spring, drawn from the seed) and for how much. */
function purchase(seed: number, calendar: WorkCalendar) {
  let plan = drawn.get(seed);
  if (!plan) {
    const r = rng(seed, 'northgate.equipment');
    drawn.set(seed, (plan = { day: `2026-0${r.int(3, 6)}-${String(r.int(8, 22)).padStart(2, '0')}`, cost: r.cents(6_500_000, 11_000_000, 100) }));
  }
  return { date: isBusinessDay(plan.day, calendar) ? plan.day : nextBusinessDay(plan.day, calendar), cost: plan.cost };
}

/**
 * A CNC lathe bought outright during the year: the controller wires the vendor and capitalizes it
 * to machinery, and the accountant adds it to the fixed-asset register the same day, so its
 * depreciation starts the month after.
 */
export const buyEquipment: Routine = (day) => {
  if (!day.businessDay) return;
  const p = purchase(day.b.seed, day.calendar);
  if (day.date !== p.date) return;
  const reference = `Wire ${day.date} lathe`;
  day.b.as('grace.lin', 'POST', '/bank-accounts/BANK-OP/withdrawals', {
    date: day.date, amount: dollars(p.cost), debit_account: '1500', reference, memo: 'CNC turning center, second spindle, paid on delivery', department: 'PROD',
  });
  registerAsset(day.b, { description: 'CNC turning center, second spindle', cls: 'machinery', inService: day.date, life: 120, cost: p.cost }, `withdrawal ${reference}`);
};
