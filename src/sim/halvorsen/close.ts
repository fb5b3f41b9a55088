import { addMonths, endOfMonth, isBusinessDay, nextBusinessDay, type WorkCalendar } from '../../domain/calendar';
import type { ScenarioBuilder } from '../builder';
import { OPERATING_ACCOUNT } from './master';
import { CFO } from './roster';

/** The months Halvorsen's history closes: the quarter before the tasks. */
export const CLOSED_MONTHS = ['2026-07', '2026-08', '2026-09'];

/** The n-th business day (1-based) of a month. */
function businessDayOf(month: string, n: number, calendar: WorkCalendar): string {
  let d = `${month}-01`;
  if (!isBusinessDay(d, calendar)) d = nextBusinessDay(d, calendar);
  for (let i = 1; i < n; i++) d = nextBusinessDay(d, calendar);
  return d;
}

/**
 * Halvorsen's month-end close, by the CFO: on the first business day of the next month she matches
 * the bank's statement lines to the books and reconciles the operating account as of the month
 * end; on the second she closes the month, which the ledger refuses unless AP, GRNI, inventory and
 * cash tie to their subledgers. Nothing the AP tasks plant is dated in a closed month: they enter
 * and post on the first business day of October, after September is closed.
 */
export function closeSteps(calendar: WorkCalendar): { date: string; run: (b: ScenarioBuilder) => void }[] {
  return CLOSED_MONTHS.flatMap((period) => {
    const next = addMonths(`${period}-01`, 1).slice(0, 7);
    const monthEnd = endOfMonth(`${period}-01`);
    return [
      { date: businessDayOf(next, 1, calendar), run: (b: ScenarioBuilder) => {
        b.as(CFO, 'POST', `/periods/${period}/start-close`, { note: 'Close under way' });
        for (const line of b.api.read.cash.unmatchedLines(OPERATING_ACCOUNT)) {
          const book = b.api.read.cash.transactionsByReference(line.reference).find((t) => t.bank_account === OPERATING_ACCOUNT && t.amount === line.amount && t.statement_line === null);
          if (book) b.as(CFO, 'POST', `/bank-statement-lines/${line.id}/match`, { reference: book.id });
        }
        b.as(CFO, 'POST', '/bank-reconciliations', { bank_account: OPERATING_ACCOUNT, as_of: monthEnd, note: `Month-end reconciliation, ${period}` });
      } },
      { date: businessDayOf(next, 2, calendar), run: (b: ScenarioBuilder) => void b.as(CFO, 'POST', `/periods/${period}/close`, { note: 'Month-end close complete' }) },
    ];
  });
}
