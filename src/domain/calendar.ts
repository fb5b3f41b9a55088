/** Business-date arithmetic on YYYY-MM-DD strings, in UTC, with no reference to the wall clock. */

const DAY_MS = 86_400_000;

/** Dates already parsed and checked, as their UTC midnight: a build parses the same few hundred days many thousand times. */
const midnights = new Map<string, number>();

function midnightOf(date: string): number {
  let t = midnights.get(date);
  if (t === undefined) {
    const d = new Date(`${date}T00:00:00Z`);
    t = d.getTime();
    if (Number.isNaN(t) || d.toISOString().slice(0, 10) !== date) throw new Error(`Not a date: ${date}`);
    if (midnights.size >= 100_000) midnights.clear();
    midnights.set(date, t);
  }
  return t;
}

/** A new Date at the date's UTC midnight, the caller's to change. */
export function parseDate(date: string): Date {
  return new Date(midnightOf(date));
}

export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return formatDate(new Date(midnightOf(date) + Math.trunc(days) * DAY_MS));
}

export function daysBetween(from: string, to: string): number {
  return Math.round((midnightOf(to) - midnightOf(from)) / DAY_MS);
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
