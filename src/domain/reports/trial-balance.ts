import { balanceOf } from '../../projections/ledger';
import { fromCents } from '../money';
import { Opt, DateInput } from '../schemas';
import { LEDGER_READ } from '../ledger/accounts';
import { defineReport, ReportParams } from './registry';

/** Every account's balance as of a date: net debit or credit, and the balance on its normal side. */
export const trialBalance = defineReport({
  id: 'trial-balance',
  summary: 'Trial balance as of a date (default today): every account with its debit or credit balance; totals and whether they balance',
  params: ReportParams({ as_of: Opt(DateInput) }),
  permission: LEDGER_READ,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const totals = new Map(ctx.read.ledger.totalsAsOf(asOf).map((t) => [t.account, t]));
    let debit = 0;
    let credit = 0;
    const rows = ctx.read.ledger.accounts().map((a) => {
      const t = totals.get(a.code) ?? { debit: 0, credit: 0 };
      const net = t.debit - t.credit;
      debit += Math.max(net, 0);
      credit += Math.max(-net, 0);
      return {
        account: a.code, name: a.name, type: a.type, normal_side: a.normal_side, control: a.control, status: a.status,
        debit: fromCents(Math.max(net, 0)), credit: fromCents(Math.max(-net, 0)), balance: fromCents(balanceOf(a, t)),
      };
    });
    return { as_of: asOf, rows, totals: { debit: fromCents(debit), credit: fromCents(credit) }, balanced: debit === credit };
  },
});
