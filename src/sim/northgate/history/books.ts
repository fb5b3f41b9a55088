import { addMonths } from '../../../domain/calendar';
import type { Routine } from './context';

/** The month-end close: on the second business day of a month, the staff accountant closes the month before. */
export const closeMonth: Routine = (day) => {
  if (day.businessDayOfMonth !== 2) return;
  const period = addMonths(`${day.date.slice(0, 7)}-01`, -1).slice(0, 7);
  const row = day.read.ledger.period(period);
  if (!row || row.status === 'closed') return;
  day.b.as('lena.park', 'POST', `/periods/${period}/start-close`, {});
  day.b.as('lena.park', 'POST', `/periods/${period}/close`, {});
};
