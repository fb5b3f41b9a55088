import { fromCents } from '../money';
import { DateInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/** Work in process per work order as of a date, from the WIP movements: the subledger of the WIP account. */
export const wipReport = defineReport({
  id: 'wip',
  summary: 'Work in process per work order as of a date (default today): material, labour and overhead in, completions, scrap and variances out, the balance',
  params: ReportParams({ as_of: Opt(DateInput) }),
  permission: null,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const rows = ctx.read.manufacturing.wipByOrder(asOf).map((r) => ({
      work_order: r.work_order, item: r.item, status: r.status, material: fromCents(r.material), conversion: fromCents(r.conversion),
      completed: fromCents(r.completed), scrap: fromCents(r.scrap), variance: fromCents(r.variance), balance: fromCents(r.balance),
    }));
    return { as_of: asOf, rows: rows.filter((r) => r.balance !== 0), total: fromCents(ctx.read.manufacturing.wipAsOf(asOf)) };
  },
});
