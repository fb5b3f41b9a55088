import { addMonths, endOfMonth } from '../calendar';
import { MonthInput } from '../master/inputs';
import { fromCents } from '../money';
import { roundQty } from '../../projections/quantities';
import { IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

function monthsFrom(from: string, to: string): string[] {
  const months: string[] = [];
  for (let m = from; m <= to && months.length < 240; m = addMonths(`${m}-01`, 1).slice(0, 7)) months.push(m);
  return months;
}

/** Stock used per item and month (issued, and shipped to customers net of returns), with the monthly average over the whole range (months without use count as zero). */
export const itemUsage = defineReport({
  id: 'item-usage',
  summary: 'Quantity and value used per item per month (issues to cost centers and work orders net of reversals, shipments net of returns) over a month range (default the twelve months to this one), with the monthly average',
  params: ReportParams({ item: Opt(IdInput), from: Opt(MonthInput), to: Opt(MonthInput) }),
  permission: null,
  run: (ctx, params) => {
    const to = params.to ?? ctx.today.slice(0, 7);
    const from = params.from ?? addMonths(`${to}-01`, -11).slice(0, 7);
    const months = monthsFrom(from, to);
    const usage = ctx.read.inventory.issuesByMonth(`${from}-01`, endOfMonth(`${to}-01`), params.item);
    const items = [...new Set(usage.map((u) => u.item))].sort();
    const rows = items.map((id) => {
      const own = new Map(usage.filter((u) => u.item === id).map((u) => [u.month, u]));
      const perMonth = months.map((month) => ({ month, qty: own.get(month)?.qty ?? 0, value: fromCents(own.get(month)?.value ?? 0) }));
      const totalQty = roundQty(perMonth.reduce((s, m) => s + m.qty, 0));
      const totalValue = [...own.values()].reduce((s, u) => s + u.value, 0);
      const item = ctx.read.items.item(id);
      return {
        item: id, description: item?.description ?? '', unit: item?.unit ?? '', months: perMonth, total_qty: totalQty, total_value: fromCents(totalValue),
        average_monthly_qty: months.length ? roundQty(totalQty / months.length) : 0,
        average_monthly_value: months.length ? Math.round(totalValue / months.length) / 100 : 0,
      };
    });
    return { from, to, months: months.length, rows };
  },
});
