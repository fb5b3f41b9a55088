import { isoWeekday } from '../../../domain/calendar';
import type { Routine } from './context';
import { isValve } from '../production-design';

/**
 * STAND-IN until order-to-cash lands (docs/manufacturing.md): finished valves leave stock every
 * Friday (a week of sales, as the forecast MRP plans from has it) and resale fittings at each
 * month's end (a month of sales), give or take a fifth as far as stock allows, issued to cost of
 * goods sold. The sales area replaces this with real orders and shipments.
 */
export const shipFinishedGoodsStandIn: Routine = (day) => {
  if (!day.businessDay) return;
  const friday = isoWeekday(day.date) === 5;
  if (!friday && !day.lastBusinessDay) return;
  const sold = day.master.items.filter((i) => i.type === 'stock' && ((friday && isValve(i.id)) || (day.lastBusinessDay && day.master.production.resale.has(i.id))));
  for (const item of sold) {
    const volume = isValve(item.id) ? (item.monthlyUse * 12) / 52 : item.monthlyUse;
    const qty = Math.min(day.read.inventory.onHand(item.id, 'DAY'), Math.round(volume * (0.8 + day.rng.float() * 0.4)));
    if (qty <= 0) continue;
    day.b.as('luis.romero', 'POST', '/inventory/issues', {
      item: item.id, warehouse: 'DAY', qty, destination: { type: 'cost_center', ref: `Sales ${day.date.slice(0, 7)}` }, account: '5000', department: 'SALES', date: day.date,
    });
  }
};
