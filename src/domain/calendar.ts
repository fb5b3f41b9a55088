/** Business-date arithmetic on YYYY-MM-DD strings, in UTC, with no reference to the wall clock. */

export function parseDate(date: string): Date {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date) throw new Error(`Not a date: ${date}`);
  return d;
}

export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const d = parseDate(date);
  d.setUTCDate(d.getUTCDate() + days);
  return formatDate(d);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((parseDate(to).getTime() - parseDate(from).getTime()) / 86_400_000);
}

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const w = parseDate(date).getUTCDay();
  return w === 0 ? 7 : w;
}

export interface WorkCalendar {
  workdays: readonly number[];
  isHoliday(date: string): boolean;
}

export function isBusinessDay(date: string, cal: WorkCalendar): boolean {
  return cal.workdays.includes(isoWeekday(date)) && !cal.isHoliday(date);
}

export function nextBusinessDay(date: string, cal: WorkCalendar): string {
  let d = addDays(date, 1);
  for (let i = 0; i < 366 && !isBusinessDay(d, cal); i++) d = addDays(d, 1);
  return d;
}

export function previousBusinessDay(date: string, cal: WorkCalendar): string {
  let d = addDays(date, -1);
  for (let i = 0; i < 366 && !isBusinessDay(d, cal); i++) d = addDays(d, -1);
  return d;
}

export function addBusinessDays(date: string, n: number, cal: WorkCalendar): string {
  let d = date;
  for (let i = 0; i < n; i++) d = nextBusinessDay(d, cal);
  return d;
}

export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function endOfMonth(date: string): string {
  const d = parseDate(`${date.slice(0, 7)}-01`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  d.setUTCDate(0);
  return formatDate(d);
}

export function addMonths(date: string, n: number): string {
  const d = parseDate(`${date.slice(0, 7)}-01`);
  d.setUTCMonth(d.getUTCMonth() + n);
  const last = endOfMonth(formatDate(d));
  const day = Math.min(Number(date.slice(8, 10)), Number(last.slice(8, 10)));
  return `${formatDate(d).slice(0, 8)}${String(day).padStart(2, '0')}`;
}
