import { formatCents } from '../../../domain/money';
import { availableQty } from '../../../domain/sales/allocation';
import type { ScenarioBuilder } from '../../builder';
import type { NorthgateMaster } from '../master';
import type { HistoryDay, Routine } from './context';

const dollars = (cents: number) => formatCents(cents, false);
const roundUp = (qty: number, multiple: number) => Math.ceil(qty / multiple) * multiple;

/** The share of finished-goods demand shipped to the west, from the Reno distribution center: the weight of customers shipping there. */
export function westShare(master: NorthgateMaster): number {
  let west = 0;
  let all = 0;
  for (const c of master.customers) {
    const w = master.sales.customers[c.id]!.weight;
    all += w;
    west += (w * c.shipTos.filter((s) => s.region === 'west').length) / c.shipTos.length;
  }
  return all === 0 ? 0 : west / all;
}

/** Finished valves counted in on the first day of history: about a month of demand, split between Dayton and Reno. */
export function openFinishedGoods(b: ScenarioBuilder, master: NorthgateMaster, date: string): void {
  const share = westShare(master);
  for (const item of master.sales.finishedGoods) {
    const reno = roundUp(item.monthlyUse * share, item.orderMultiple);
    for (const [warehouse, qty] of [['DAY', roundUp(item.monthlyUse * 1.1, item.orderMultiple)], ['RNO', reno]] as const) {
      if (qty <= 0) continue;
      b.as('luis.romero', 'POST', '/inventory/adjustments', { item: item.id, warehouse, location: 'FG', qty, unit_cost: dollars(item.standardCost), reason: 'opening_balance', account: '3200', date });
    }
  }
}

/**
 * The warehouse manager restocks the Reno distribution center from Dayton every Wednesday: each
 * valve whose free stock in Reno is under two weeks of the west's demand is brought up to a month,
 * as far as Dayton's free stock allows.
 */
export const restockReno: Routine = (day) => {
  if (!day.businessDay || new Date(`${day.date}T00:00:00Z`).getUTCDay() !== 3) return;
  const share = westShare(day.master);
  for (const item of day.master.sales.finishedGoods) {
    const monthWest = item.monthlyUse * share;
    const reno = availableQty(day.read, item.id, 'RNO');
    if (reno >= monthWest * 0.5) continue;
    const qty = Math.min(roundUp(monthWest - reno, item.orderMultiple), Math.floor(availableQty(day.read, item.id, 'DAY') / item.orderMultiple) * item.orderMultiple);
    if (qty <= 0) continue;
    day.b.as('tessa.nguyen', 'POST', '/inventory/transfers', { item: item.id, from_warehouse: 'DAY', to_warehouse: 'RNO', to_location: 'FG', qty, reason: 'replenishment', date: day.date });
  }
};
