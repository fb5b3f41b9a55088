import { Type } from '@sinclair/typebox';
import { roundQty } from '../../projections/quantities';
import { monthOf } from '../calendar';
import { MonthInput } from '../master/inputs';
import { fromCents } from '../money';
import { IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

interface SalesRow { month: string; customer: string; item: string | null; qty: number; revenue: number; returns: number; allowances: number; cost: number }

/**
 * Gross margin on sales (seed 000 F1, E1): billed goods at their invoice's posting month with the
 * inventory cost of exactly what they billed, less returns (credit memos for returned units, and
 * the cost those units came back at), rebates and allowances (credit memos without items, accepted
 * deductions). Freight billed, sales tax and cash discounts are not margin. Voided invoices are left out.
 */
export const salesMargin = defineReport({
  id: 'sales-margin',
  summary: 'Revenue, returns, rebates and allowances, cost and gross margin of goods sold, by month, customer or item, for months from … to (default the current month)',
  params: ReportParams({
    from: Opt(MonthInput), to: Opt(MonthInput), by: Opt(Type.Union([Type.Literal('month'), Type.Literal('customer'), Type.Literal('item')])),
    customer: Opt(IdInput), item: Opt(IdInput),
  }),
  permission: null,
  run: (ctx, params) => {
    const to = params.to ?? monthOf(ctx.today);
    const from = params.from ?? to;
    const by = params.by ?? 'month';
    const rows = ctx.read.receivables.salesLines(from, to).filter((r) => (!params.customer || r.customer === params.customer) && (!params.item || r.item === params.item));
    const groups = new Map<string, SalesRow>();
    for (const r of rows as SalesRow[]) {
      const key = by === 'month' ? r.month : by === 'customer' ? r.customer : r.item ?? '';
      const g = groups.get(key) ?? { month: r.month, customer: r.customer, item: r.item, qty: 0, revenue: 0, returns: 0, allowances: 0, cost: 0 };
      g.qty = roundQty(g.qty + r.qty);
      g.revenue += r.revenue;
      g.returns += r.returns;
      g.allowances += r.allowances;
      g.cost += r.cost;
      groups.set(key, g);
    }
    const shape = (key: string, g: Omit<SalesRow, 'month' | 'customer' | 'item'>) => {
      const net = g.revenue - g.returns - g.allowances;
      return {
        [by]: by === 'item' && key === '' ? null : key, ...(by === 'customer' ? { name: ctx.read.customers.customer(key)?.name ?? key } : {}), ...(by === 'item' ? { description: key ? ctx.read.items.item(key)?.description ?? key : 'not by item (rebates, allowances)' } : {}),
        qty: g.qty, revenue: fromCents(g.revenue), returns: fromCents(g.returns), allowances: fromCents(g.allowances), net_revenue: fromCents(net), cost: fromCents(g.cost),
        margin: fromCents(net - g.cost), margin_pct: net > 0 ? Math.round(((net - g.cost) / net) * 10000) / 100 : null,
      };
    };
    const sorted = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const total = [...groups.values()].reduce((s, g) => ({ qty: roundQty(s.qty + g.qty), revenue: s.revenue + g.revenue, returns: s.returns + g.returns, allowances: s.allowances + g.allowances, cost: s.cost + g.cost }), { qty: 0, revenue: 0, returns: 0, allowances: 0, cost: 0 });
    const { [by]: _k, ...totals } = shape('', total) as Record<string, unknown>;
    return { from, to, by, rows: sorted.map(([k, g]) => shape(k, g)), totals };
  },
});
