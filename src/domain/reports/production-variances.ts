import { endOfMonth } from '../calendar';
import { MonthInput } from '../master/inputs';
import { fromCents } from '../money';
import { IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/** Work orders closed in a month range with the variances their close posted (seed 000 catalog D2). */
export const productionVariances = defineReport({
  id: 'production-variances',
  summary: 'Work orders closed in a month range (default this month) with their material and labour/overhead variances against standard',
  params: ReportParams({ from: Opt(MonthInput), to: Opt(MonthInput), item: Opt(IdInput) }),
  permission: null,
  run: (ctx, params) => {
    const to = params.to ?? ctx.today.slice(0, 7);
    const from = params.from ?? to;
    const rows = ctx.read.manufacturing.closedBetween(`${from}-01`, endOfMonth(`${to}-01`), params.item).map((r) => ({
      work_order: r.work_order, item: r.item, closed_date: r.closed_date, qty: r.qty, qty_completed: r.qty_completed, qty_scrapped: r.qty_scrapped,
      material_standard: fromCents(r.material_standard), material_actual: fromCents(r.material_actual), material_variance: fromCents(r.material_variance),
      conversion_standard: fromCents(r.conversion_standard), conversion_applied: fromCents(r.conversion_applied), conversion_variance: fromCents(r.conversion_variance),
      standard_difference: fromCents(r.standard_difference), total_variance: fromCents(r.material_variance + r.conversion_variance + r.standard_difference),
    }));
    return { from, to, rows };
  },
});
