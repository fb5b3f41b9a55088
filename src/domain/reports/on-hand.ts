import { fromCents } from '../money';
import { DateInput, IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/** Stock per item, warehouse, location and lot with its value, from the inventory transactions. */
export const onHandReport = defineReport({
  id: 'on-hand',
  summary: 'On-hand per item, warehouse, location and lot as of a date (default today), with expiry, value and unit cost',
  params: ReportParams({ item: Opt(IdInput), warehouse: Opt(IdInput), lot: Opt(IdInput), as_of: Opt(DateInput) }),
  permission: null,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const stock = ctx.read.inventory.stock({ item: params.item, warehouse: params.warehouse, lot: params.lot }, asOf);
    const rows = stock.map((r) => {
      const item = ctx.read.items.item(r.item);
      return {
        item: r.item, description: item?.description ?? '', unit: item?.unit ?? '', warehouse: r.warehouse, location: r.location, lot: r.lot, expiry: r.expiry,
        qty: r.qty, value: fromCents(r.value), unit_cost: r.qty === 0 ? null : Math.round(r.value / r.qty) / 100,
      };
    });
    return { as_of: asOf, rows, totals: { rows: rows.length, value: fromCents(stock.reduce((s, r) => s + r.value, 0)) } };
  },
});
