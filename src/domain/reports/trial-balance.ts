import type { Queries } from '../../projections';
import type { AccountRow, AccountTotals } from '../../projections/ledger';
import { balanceOf } from '../../projections/ledger';
import { addDays, endOfMonth } from '../calendar';
import { LEDGER_READ } from '../ledger/accounts';
import { MonthInput } from '../master/inputs';
import { fromCents } from '../money';
import { DateInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

const ZERO = { debit: 0, credit: 0 };

/** An account's net as a debit or a credit column, and on its normal side. */
function columns(a: AccountRow, t: Pick<AccountTotals, 'debit' | 'credit'>) {
  const net = t.debit - t.credit;
  return { debit: Math.max(net, 0), credit: Math.max(-net, 0), balance: balanceOf(a, t) };
}

/**
 * Every account's balance as of a date: net debit or credit, and the balance on its normal side.
 * With `period`, the month's trial balance instead: each account's opening balance, the month's
 * debits and credits, and its closing balance at the month end.
 */
export const trialBalance = defineReport({
  id: 'trial-balance',
  summary: "Trial balance as of a date (default today), or for a month (period=YYYY-MM: opening, the month's debits and credits, closing); totals and whether they balance",
  params: ReportParams({ as_of: Opt(DateInput), period: Opt(MonthInput) }),
  permission: LEDGER_READ,
  run: (ctx, params) => {
    if (params.period) return periodTrialBalance(ctx.read, params.period);
    const asOf = params.as_of ?? ctx.today;
    const totals = new Map(ctx.read.ledger.totalsAsOf(asOf).map((t) => [t.account, t]));
    let debit = 0;
    let credit = 0;
    const rows = ctx.read.ledger.accounts().map((a) => {
      const c = columns(a, totals.get(a.code) ?? ZERO);
      debit += c.debit;
      credit += c.credit;
      return { account: a.code, name: a.name, type: a.type, normal_side: a.normal_side, control: a.control, status: a.status, debit: fromCents(c.debit), credit: fromCents(c.credit), balance: fromCents(c.balance) };
    });
    return { as_of: asOf, rows, totals: { debit: fromCents(debit), credit: fromCents(credit) }, balanced: debit === credit };
  },
});

function periodTrialBalance(read: Queries, period: string) {
  const from = `${period}-01`;
  const to = endOfMonth(from);
  const opening = new Map(read.ledger.totalsAsOf(addDays(from, -1)).map((t) => [t.account, t]));
  const activity = new Map(read.ledger.totalsBetween(from, to).map((t) => [t.account, t]));
  const sums = { period_debit: 0, period_credit: 0, debit: 0, credit: 0 };
  const rows = read.ledger.accounts().map((a) => {
    const o = opening.get(a.code) ?? ZERO;
    const m = activity.get(a.code) ?? ZERO;
    const closing = columns(a, { debit: o.debit + m.debit, credit: o.credit + m.credit });
    sums.period_debit += m.debit;
    sums.period_credit += m.credit;
    sums.debit += closing.debit;
    sums.credit += closing.credit;
    return {
      account: a.code, name: a.name, type: a.type, normal_side: a.normal_side, control: a.control, status: a.status,
      opening_balance: fromCents(balanceOf(a, o)), period_debit: fromCents(m.debit), period_credit: fromCents(m.credit),
      debit: fromCents(closing.debit), credit: fromCents(closing.credit), balance: fromCents(closing.balance),
    };
  });
  const status = read.ledger.period(period)?.status ?? null;
  return {
    period, from, to, period_status: status, rows,
    totals: { period_debit: fromCents(sums.period_debit), period_credit: fromCents(sums.period_credit), debit: fromCents(sums.debit), credit: fromCents(sums.credit) },
    balanced: sums.debit === sums.credit && sums.period_debit === sums.period_credit,
  };
}
