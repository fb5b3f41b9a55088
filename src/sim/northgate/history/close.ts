import { addMonths, endOfMonth } from '../../../domain/calendar';
import { formatCents } from '../../../domain/money';
import type { ScenarioBuilder } from '../../builder';
import type { HistoryDay, Routine } from './context';
import { MONTHLY_BILLS } from './payables';
import { unpaidWages } from './payroll';

const dollars = (cents: number) => formatCents(cents, false);
const ACCOUNTANT = 'lena.park';
const ACCRUED_LIABILITIES = '2300';
const ACCRUED_PAYROLL = '2310';

/**
 * The recurring entries the accountant keeps: the monthly accrual of earned vacation (about one and
 * a half days a month of each salary), drafted every month end and approved like any entry.
 */
export function setUpRecurringEntries(b: ScenarioBuilder): void {
  const start = b.today();
  const monthlyPayroll = b.api.read.org.users().filter((u) => u.kind === 'staff').reduce((s, u) => s + (b.api.read.payroll.compensation(u.id, start)?.annual_salary ?? 0), 0) / 12;
  const vacation = Math.round((monthlyPayroll * 0.055) / 100) * 100;
  b.as(ACCOUNTANT, 'POST', '/recurring-entries', {
    memo: 'Vacation earned this month', day: 0, start_period: start.slice(0, 7),
    lines: [{ account: '6320', debit: dollars(vacation), department: 'HR' }, { account: '2320', credit: dollars(vacation) }],
    attachments: [{ kind: 'file', ref: 'vacation-accrual-policy', description: 'Vacation accrual schedule: 1.25 days a month per employee' }],
  });
}

/** An accrual the accountant drafts with its support and submits for the controller's approval; it reverses on the 1st. */
function submitAccrual(b: ScenarioBuilder, monthEnd: string, memo: string, lines: { account: string; debit?: number; credit?: number; department?: string }[], support: { kind: string; ref: string; description: string }): void {
  const je = b.as(ACCOUNTANT, 'POST', '/journal-entries', {
    date: monthEnd, memo, auto_reverse_on: addMonths(`${monthEnd.slice(0, 7)}-01`, 1), attachments: [support],
    lines: lines.map((l) => ({ account: l.account, ...(l.debit ? { debit: dollars(l.debit) } : {}), ...(l.credit ? { credit: dollars(l.credit) } : {}), ...(l.department ? { department: l.department } : {}) })),
  });
  b.as(ACCOUNTANT, 'POST', `/journal-entries/${je.id}/submit`, {});
}

/** The bills that arrive after the month they are for (utilities, professional fees), estimated at the last bill of each vendor. */
function arrearsAccrual(day: HistoryDay): { account: string; debit: number; department: string }[] {
  const lines: { account: string; debit: number; department: string }[] = [];
  for (const [category, account, department, lo, hi, , arrears] of MONTHLY_BILLS) {
    if (!arrears) continue;
    for (const vendor of day.master.vendors.filter((v) => v.category === category)) {
      const last = day.db.prepare(`SELECT total FROM ap_invoices WHERE vendor = ? AND status <> 'voided' ORDER BY id DESC LIMIT 1`).get(vendor.id) as { total: number } | undefined;
      lines.push({ account, department, debit: last?.total ?? Math.round((lo + hi) / 2) * 100 });
    }
  }
  return lines;
}

/** Matches every unmatched statement line of the account to the book item it names (same account, reference and amount), then reconciles as of the month end. */
function reconcileBank(day: HistoryDay, bankAccount: string, monthEnd: string): void {
  for (const line of day.read.cash.unmatchedLines(bankAccount)) {
    const book = day.read.cash.transactionsByReference(line.reference).find((t) => t.bank_account === bankAccount && t.amount === line.amount && t.statement_line === null);
    if (book) day.b.as(ACCOUNTANT, 'POST', `/bank-statement-lines/${line.id}/match`, { reference: book.id });
  }
  day.b.as(ACCOUNTANT, 'POST', '/bank-reconciliations', { bank_account: bankAccount, as_of: monthEnd, note: `Month-end reconciliation, ${monthEnd.slice(0, 7)}` });
}

/**
 * The month-end close, by the staff accountant (docs/close.md). On the first business day of a
 * month, for the month before: depreciation and prepaid amortization runs, the month's recurring
 * entries, the payroll accrual for days worked and not yet paid, the accrual of bills that come in
 * arrears, and both bank accounts reconciled; the entries are submitted with their support. On the
 * second, after the controller has approved them (the managers' counterparty), she posts them
 * (each accrual reversing on the 1st) and closes the month, which the ledger refuses unless every
 * control account ties to its subledger.
 */
export const monthEndClose: Routine = (day) => {
  if (day.businessDayOfMonth !== 1 && day.businessDayOfMonth !== 2) return;
  const period = addMonths(day.date, -1).slice(0, 7);
  const row = day.read.ledger.period(period);
  if (!row || row.status === 'closed' || period > day.closeThrough) return;
  const monthEnd = endOfMonth(`${period}-01`);
  if (day.businessDayOfMonth === 1) {
    day.b.as(ACCOUNTANT, 'POST', `/periods/${period}/start-close`, { note: 'Close under way' });
    day.b.as(ACCOUNTANT, 'POST', '/depreciation-runs', { period });
    day.b.as(ACCOUNTANT, 'POST', '/amortization-runs', { period });
    for (const t of day.read.recurringEntries.active()) {
      const je = day.b.as(ACCOUNTANT, 'POST', `/recurring-entries/${t.id}/generate`, { period });
      day.b.as(ACCOUNTANT, 'POST', `/journal-entries/${je.id}/submit`, {});
    }
    const wages = unpaidWages(day.read, monthEnd, day.calendar);
    if (wages.length > 0) {
      const lines = wages.flatMap((w) => [{ account: '6300', debit: w.wages, department: w.department }, { account: '6310', debit: w.burden, department: w.department }]);
      const total = lines.reduce((s, l) => s + l.debit, 0);
      submitAccrual(day.b, monthEnd, `Payroll accrual: days worked to ${monthEnd} and paid in the next pay run`, [...lines, { account: ACCRUED_PAYROLL, credit: total }],
        { kind: 'report', ref: `payroll-register-${period}`, description: 'Payroll register: days worked after the last pay period' });
    }
    const bills = arrearsAccrual(day);
    if (bills.length > 0) {
      const total = bills.reduce((s, l) => s + l.debit, 0);
      submitAccrual(day.b, monthEnd, `Accrued utilities and professional fees for ${period}, billed next month`, [...bills, { account: ACCRUED_LIABILITIES, credit: total }],
        { kind: 'file', ref: `accrual-schedule-${period}`, description: 'Meter readings and engagement hours, at the last bills' });
    }
    for (const b of day.read.cash.bankAccounts()) reconcileBank(day, b.id, monthEnd);
    return;
  }
  for (const e of day.read.journalEntries.withStatus('approved')) {
    if (e.period === period) day.b.as(ACCOUNTANT, 'POST', `/journal-entries/${e.id}/post`, {});
  }
  day.b.as(ACCOUNTANT, 'POST', `/periods/${period}/close`, { note: 'Month-end close complete' });
};
