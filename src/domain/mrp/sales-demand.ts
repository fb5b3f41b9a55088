import { registerDemandSource } from './inputs';

/**
 * Customer orders are independent demand: what each open sales order line still has to ship, due
 * on its requested date (an overdue line counts as today's), consuming the forecast of its week.
 */
registerDemandSource('sales orders', (read, _from, to) =>
  read.mrp.openSalesLines(to).filter((l) => l.open_qty > 0).map((l) => ({ item: l.item, date: l.date, qty: l.open_qty, source: `${l.sales_order} line ${l.line}` })));
