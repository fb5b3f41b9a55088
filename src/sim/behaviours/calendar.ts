import { isBusinessDay, nextBusinessDay, type WorkCalendar } from '../../domain/calendar';
import type { Queries } from '../../projections';

/** The company's working days and holidays, as the clock read model holds them. */
export function workCalendar(read: Queries): WorkCalendar {
  return { workdays: read.clock.company()?.workdays ?? [1, 2, 3, 4, 5], isHoliday: (d) => read.clock.isHoliday(d) };
}

/** The date itself when it is a business day, else the next one. */
export function onOrAfterBusinessDay(date: string, cal: WorkCalendar): string {
  return isBusinessDay(date, cal) ? date : nextBusinessDay(date, cal);
}
