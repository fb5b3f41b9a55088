import { addDays, isBusinessDay, previousBusinessDay, nextBusinessDay, type WorkCalendar } from '../../../domain/calendar';
import { applyBasisPoints, formatCents, roundCents } from '../../../domain/money';
import type { Queries } from '../../../projections';
import type { ScenarioBuilder } from '../../builder';
import type { Rng } from '../../random';
import { STAFF } from '../roster';
import type { Routine } from './context';

const dollars = (cents: number) => formatCents(cents, false);
const PAYROLL_ADMIN = 'mia.santos';
/** The first Friday pay date of history; staff are paid every other Friday for the two weeks ending then. */
const FIRST_PAY_FRIDAY = '2025-10-10';
const PAYS_PER_YEAR = 26;
const WORKDAYS_PER_YEAR = 260;

/** Annual salary bands by title, in dollars. */
const SALARY_BANDS: Record<string, [number, number]> = {
  'President and CEO': [200_000, 240_000], Controller: [120_000, 140_000], 'AP Supervisor': [68_000, 78_000], 'AP Clerk': [44_000, 52_000],
  'Staff Accountant': [58_000, 68_000], 'Credit Manager': [70_000, 82_000], 'Purchasing Manager': [88_000, 100_000], Buyer: [55_000, 64_000],
  'Warehouse Manager': [70_000, 80_000], 'Receiving Clerk': [40_000, 46_000], 'Production Manager': [92_000, 105_000], 'Production Planner': [62_000, 72_000],
  'Operations Manager': [120_000, 135_000], 'Sales Manager': [105_000, 120_000], 'Order Entry': [42_000, 48_000], 'Maintenance Supervisor': [70_000, 80_000],
  'Quality Manager': [82_000, 92_000], 'IT Administrator': [78_000, 88_000], 'People and Office Manager': [72_000, 82_000],
};
/** The spring pay review: raises effective this day, decided two weeks before. */
const RAISES_EFFECTIVE = '2026-04-01';

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** What the payroll provider withholds from an employee, in basis points of gross: fixed per person by their W-4. */
const withholdingBp = (employee: string) => 1700 + (hash(employee) % 800);

/** Each employee's pay when history starts, set by the payroll administrator. */
export function setUpPayroll(b: ScenarioBuilder, r: Rng): void {
  for (const u of STAFF) {
    const [lo, hi] = SALARY_BANDS[u.title] ?? [50_000, 60_000];
    b.as(PAYROLL_ADMIN, 'POST', `/employees/${u.id}/compensation`, {
      kind: 'salary', annual_salary: dollars(r.cents(lo * 100, hi * 100, 10_000)), employer_burden_bp: r.int(900, 1300), effective_date: b.today(), note: 'Pay on file when the books moved to this system',
    });
  }
}

/** The pay review: every salary up 2.5 to 4%, effective on the first of April. */
export const payReview: Routine = (day) => {
  if (day.date !== addDays(RAISES_EFFECTIVE, -14)) return;
  for (const u of STAFF) {
    const pay = day.read.payroll.compensation(u.id, day.date)!;
    const raised = roundCents((pay.annual_salary! * (10_000 + 250 + (hash(`${u.id}:raise`) % 151))) / 10_000 / 100) * 100;
    day.b.as(PAYROLL_ADMIN, 'POST', `/employees/${u.id}/compensation`, { kind: 'salary', annual_salary: dollars(raised), employer_burden_bp: pay.employer_burden_bp, effective_date: RAISES_EFFECTIVE, note: 'Annual pay review' });
  }
};

interface PayDay { friday: string; payDate: string }

/** The pay day of the pay period ending on a Friday: that Friday, or the business day before when it is a holiday. */
function payDayEnding(friday: string, calendar: WorkCalendar): PayDay {
  return { friday, payDate: isBusinessDay(friday, calendar) ? friday : previousBusinessDay(friday, calendar) };
}

/** The pay period whose pay date is `date`, if any. */
function payPeriodPaidOn(date: string, calendar: WorkCalendar): PayDay | undefined {
  for (let friday = FIRST_PAY_FRIDAY; friday <= addDays(date, 7); friday = addDays(friday, 14)) {
    const p = payDayEnding(friday, calendar);
    if (p.payDate === date) return p;
  }
  return undefined;
}

/** One employee's pay for a period, in cents: a 26th of the salary, or for a short first period its share of a pay period's ten business days. */
function payLine(read: Queries, employee: string, date: string, businessDays = 10) {
  const pay = read.payroll.compensation(employee, date)!;
  const gross = roundCents((pay.annual_salary! * Math.min(businessDays, 10)) / (PAYS_PER_YEAR * 10));
  return { employee, gross, employee_taxes: applyBasisPoints(gross, withholdingBp(employee)), employer_taxes: applyBasisPoints(gross, pay.employer_burden_bp) };
}

function businessDaysBetween(from: string, to: string, calendar: WorkCalendar): number {
  let n = 0;
  for (let d = from; d <= to; d = addDays(d, 1)) if (isBusinessDay(d, calendar)) n += 1;
  return n;
}

/**
 * Payroll, every other Friday: the payroll administrator posts the run (net pay from the payroll
 * account, withholding and the employer's taxes to payroll taxes payable); the controller funds the
 * payroll account the business day before; the staff accountant remits the taxes the business day after.
 */
export const payroll: Routine = (day) => {
  if (!day.businessDay) return;
  const tomorrowsPay = payPeriodPaidOn(nextBusinessDay(day.date, day.calendar), day.calendar);
  if (tomorrowsPay) fundPayroll(day.b, day.read, day.date, tomorrowsPay.payDate);
  const today = payPeriodPaidOn(day.date, day.calendar);
  if (today) {
    const last = day.read.payroll.lastRun();
    const start = last ? addDays(last.period_end, 1) : day.read.payroll.compensationHistory(STAFF[0]!.id)[0]!.effective_date;
    const days = last ? 10 : businessDaysBetween(start, today.friday, day.calendar);
    const lines = STAFF.map((u) => payLine(day.read, u.id, day.date, days));
    day.b.as(PAYROLL_ADMIN, 'POST', '/payroll-runs', {
      pay_date: day.date, period_start: start, period_end: today.friday, bank_account: 'BANK-PR',
      lines: lines.map((l) => ({ employee: l.employee, gross: dollars(l.gross), employee_taxes: dollars(l.employee_taxes), employer_taxes: dollars(l.employer_taxes) })),
    });
  }
  const last = day.read.payroll.lastRun();
  if (last && nextBusinessDay(last.pay_date, day.calendar) === day.date) {
    day.b.as('lena.park', 'POST', '/bank-accounts/BANK-PR/withdrawals', {
      date: day.date, amount: dollars(last.employee_taxes + last.employer_taxes), debit_account: '2400', reference: `EFTPS ${last.id}`, memo: `Payroll tax deposit for ${last.id}`,
    });
  }
};

/** Tops the payroll account up from operating to cover tomorrow's net pay and its taxes above its minimum, in thousands. */
function fundPayroll(b: ScenarioBuilder, read: Queries, date: string, payDate: string): void {
  const expected = STAFF.reduce((s, u) => {
    const l = payLine(read, u.id, date);
    return s + l.gross + l.employer_taxes;
  }, 0);
  const account = read.cash.bankAccount('BANK-PR')!;
  const short = expected + account.minimum_balance - read.cash.bookBalance('BANK-PR', date);
  if (short <= 0) return;
  b.as('grace.lin', 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-PR', amount: dollars(Math.ceil(short / 100_000) * 100_000), date, memo: `Funding payroll of ${payDate}` });
}

/** Wages earned but not yet paid at a month end, per department, in cents: business days after the last pay period, at the daily rate, with the employer's burden. */
export function unpaidWages(read: Queries, monthEnd: string, calendar: WorkCalendar): { department: string; wages: number; burden: number }[] {
  const paid = read.payroll.lastRunEndingBy(monthEnd);
  if (!paid) return [];
  const days = businessDaysBetween(addDays(paid.period_end, 1), monthEnd, calendar);
  if (days === 0) return [];
  const byDept = new Map<string, { wages: number; burden: number }>();
  for (const u of STAFF) {
    const pay = read.payroll.compensation(u.id, monthEnd)!;
    const wages = roundCents((pay.annual_salary! * days) / WORKDAYS_PER_YEAR);
    const d = byDept.get(u.department) ?? { wages: 0, burden: 0 };
    d.wages += wages;
    d.burden += applyBasisPoints(wages, pay.employer_burden_bp);
    byDept.set(u.department, d);
  }
  return [...byDept.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([department, v]) => ({ department, ...v }));
}
