import { addDays, isBusinessDay, type WorkCalendar } from '../../../domain/calendar';
import type { CustomersWorld, PaymentProfile, ScheduledOrder } from '../../behaviours/customer-profiles';
import type { Rng } from '../../random';
import type { World } from '../../world';
import type { NorthgateMaster } from '../master';
import { BANK_USER, CUSTOMER_DESK } from '../roster';

/** Orders a year (the anchor has 292), and how long the schedule runs past history so tasks see orders coming. */
const ORDERS_PER_YEAR: [number, number] = [285, 315];
const SCHEDULE_AFTER_HISTORY_DAYS = 45;
const round5 = (q: number) => Math.max(5, Math.round(q / 5) * 5);

/**
 * The customers' orders for the year (seed 000 §8): on business days drawn from the seed, a
 * customer chosen by weight (the square root of its credit limit) orders 1–4 of its usual valves;
 * each item's lines are then scaled so that a year's orders ship about twelve months of the
 * catalogue's monthly use, larger customers ordering more at a time.
 */
export function orderSchedule(master: NorthgateMaster, r: Rng, from: string, to: string, cal: WorkCalendar): ScheduledOrder[] {
  const customers = master.customers.map((c) => ({ c, t: master.sales.customers[c.id]! }));
  const totalWeight = customers.reduce((s, x) => s + x.t.weight, 0);
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (isBusinessDay(d, cal)) days.push(d);
  const perDay = r.int(...ORDERS_PER_YEAR) / 252;
  const raw: { date: string; customer: string; ship_to: string; lines: { item: string; w: number }[] }[] = [];
  for (const date of days) {
    const n = Math.floor(perDay) + (r.chance(perDay - Math.floor(perDay)) ? 1 : 0);
    for (let k = 0; k < n; k++) {
      let pick = r.float() * totalWeight;
      const { c, t } = customers.find((x) => (pick -= x.t.weight) < 0) ?? customers[customers.length - 1]!;
      const items = r.sample(t.favourites, Math.min(t.favourites.length, r.int(1, 4))).sort();
      raw.push({ date, customer: c.id, ship_to: r.pick(c.shipTos).code, lines: items.map((item) => ({ item, w: t.weight * (0.7 + r.float() * 0.6) })) });
    }
  }
  const yearWeight = new Map<string, number>();
  const historyDays = days.filter((d) => d <= addDays(from, 365)).length;
  for (const o of raw) if (o.date <= addDays(from, 365)) for (const l of o.lines) yearWeight.set(l.item, (yearWeight.get(l.item) ?? 0) + l.w);
  const monthlyUse = new Map(master.sales.finishedGoods.map((i) => [i.id, i.monthlyUse]));
  const counters = new Map<string, number>();
  return raw.map((o) => {
    const n = (counters.get(o.customer) ?? 0) + 1;
    counters.set(o.customer, n);
    return {
      date: o.date, customer: o.customer, ship_to: o.ship_to, customer_po: `${o.customer.replace('C-', 'P')}-${o.date.slice(2, 4)}${String(n).padStart(3, '0')}`,
      lines: o.lines.map((l) => ({ item: l.item, qty: round5((12 * monthlyUse.get(l.item)! * l.w) / Math.max(1, yearWeight.get(l.item) ?? 1) * (historyDays / 252)), requested_days: r.int(5, 14) })),
    };
  });
}

/** Each customer's way of paying, drawn from the seed (seed 000 §8). */
function paymentProfiles(master: NorthgateMaster, r: Rng): Record<string, PaymentProfile> {
  const out: Record<string, PaymentProfile> = {};
  for (const c of master.customers) {
    const t = master.sales.customers[c.id]!;
    const first_check = r.int(1000, 8999);
    const roll = r.float();
    let p: PaymentProfile;
    if (c.terms.includes('/') && r.chance(0.7)) p = { behaviour: 'on_time', takes_discount: true };
    else if (roll < 0.5) p = { behaviour: 'on_time', days_after_due: r.int(-3, 2) };
    else if (roll < 0.72) p = { behaviour: 'late', days_after_due: r.int(10, 45), promise: { delay_days: r.int(3, 6), keeps: r.chance(0.75), days_late: r.int(8, 15) } };
    else if (roll < 0.86) p = { behaviour: 'short', days_after_due: r.int(-2, 3), short: { every: 3, bp: r.int(200, 600), reason: r.pick(['damaged', 'pricing', 'freight', 'shortage']) } };
    else p = { behaviour: 'wrong_reference', days_after_due: r.int(0, 5) };
    out[c.id] = { ...p, first_check, ...(t.parent ? { paid_by: t.parent } : {}) };
  }
  return out;
}

/**
 * The order-to-cash counterparties of Northgate: customers ordering on their schedule, paying by
 * their profiles and answering dunning; the bank showing their payments; the warehouse shipping
 * what is allocated and receiving returns.
 */
export function customerProfiles(world: World, master: NorthgateMaster, r: Rng, historyStart: string, historyEnd: string, cal: WorkCalendar): void {
  const orders = orderSchedule(master, r, addDays(historyStart, 1), addDays(historyEnd, SCHEDULE_AFTER_HISTORY_DAYS), cal);
  const returns = Array.from({ length: r.int(10, 14) }, () => {
    let date = addDays(historyStart, r.int(45, 360));
    while (!isBusinessDay(date, cal)) date = addDays(date, 1);
    return { date, customer: r.pick(master.customers).id, reason: r.pick(['damaged', 'wrong_item', 'ordered_wrong', 'defective', 'overstock']), share_bp: r.int(1000, 3000) };
  }).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.customer < b.customer ? -1 : 1));
  const customers: CustomersWorld = {
    as: CUSTOMER_DESK.id, sales_address: 'sales@northgatevalve.example', ar_address: 'ar@northgatevalve.example', bank_account: 'BANK-OP',
    orders, payments: paymentProfiles(master, r), returns,
  };
  world.actors.customers = customers;
  world.actors.bank = { ...(world.actors.bank as object), customer_receipts: { as: BANK_USER.id } };
  world.actors.warehouse = {
    ...(world.actors.warehouse as object),
    shipping: { as: 'luis.romero', auto_ship: true, carrier: 'Buckeye Freight', freight: { base_cents: 3500, per_unit_cents: 40 }, returns: { transit_days: 4, inspect_days: 2, accept_bp: 7500 } },
  };
}
