import { balanceOf } from '../../projections/ledger';
import { subledgerFor } from '../ledger/subledgers';
import { LEDGER_READ } from '../ledger/accounts';
import { fromCents } from '../money';
import { DateInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/**
 * Each control account's GL balance beside its subledger, computed independently (docs/ledger.md).
 * A difference means something posted to the control account without moving its subledger, such
 * as a manual entry straight to cash. A kind whose area has not registered a subledger shows null.
 */
export const controlTies = defineReport({
  id: 'control-ties',
  summary: 'Control accounts (cash, AR, inventory, WIP, AP, GRNI) against their subledgers as of a date (default today), with differences',
  params: ReportParams({ as_of: Opt(DateInput) }),
  permission: LEDGER_READ,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const totals = new Map(ctx.read.ledger.totalsAsOf(asOf).map((t) => [t.account, t]));
    const rows = ctx.read.ledger.controlAccounts().map((a) => {
      const gl = balanceOf(a, totals.get(a.code) ?? { debit: 0, credit: 0 });
      const subledger = a.subledger ? subledgerFor(a.subledger) : undefined;
      const sub = subledger ? subledger(ctx.read, a, asOf) : null;
      return {
        account: a.code, name: a.name, subledger: a.subledger,
        gl_balance: fromCents(gl),
        subledger_balance: sub === null ? null : fromCents(sub),
        difference: sub === null ? null : fromCents(gl - sub),
        tied: sub === null ? null : gl === sub,
      };
    });
    const checked = rows.filter((r) => r.tied !== null);
    return { as_of: asOf, rows, tied: checked.every((r) => r.tied), unchecked: rows.filter((r) => r.tied === null).map((r) => r.account) };
  },
});
