import { addDays } from '../../../domain/calendar';
import { formatCents } from '../../../domain/money';
import type { ItemSpec } from '../catalog';
import type { HistoryDay, Routine } from './context';

const dollars = (cents: number) => formatCents(cents, false);
const roundUp = (qty: number, multiple: number) => Math.ceil(qty / multiple) * multiple;

/** On-hand units per item in all warehouses (or one), from the inventory transactions. */
function onHandByItem(day: HistoryDay, warehouse?: string): Map<string, number> {
  const rows = day.db.prepare(`SELECT item, SUM(qty) AS q FROM inventory_transactions ${warehouse ? 'WHERE warehouse = ?' : ''} GROUP BY item`).all(...(warehouse ? [warehouse] : [])) as { item: string; q: number }[];
  return new Map(rows.map((r) => [r.item, r.q]));
}

/** Units per item still coming: open PO quantity plus requested lines not yet on a PO. */
function onOrderByItem(day: HistoryDay): Map<string, number> {
  const out = new Map<string, number>();
  const add = (rows: { item: string; q: number }[]) => { for (const r of rows) out.set(r.item, (out.get(r.item) ?? 0) + Math.max(0, r.q)); };
  add(day.db.prepare(`SELECT l.item AS item, SUM(l.qty - l.received_qty) AS q FROM po_lines l JOIN purchase_orders p ON p.id = l.po
    WHERE l.status = 'open' AND l.item IS NOT NULL AND p.status IN ('draft', 'approved', 'sent', 'partially_received') GROUP BY l.item`).all() as { item: string; q: number }[]);
  add(day.db.prepare(`SELECT l.item AS item, SUM(l.qty) AS q FROM requisition_lines l JOIN requisitions r ON r.id = l.requisition
    WHERE l.item IS NOT NULL AND l.converted_po IS NULL AND r.status IN ('draft', 'submitted', 'approved', 'returned') GROUP BY l.item`).all() as { item: string; q: number }[]);
  return out;
}

/**
 * Stock replenishment by the production planner, twice a week, for what MRP does not plan
 * (resale fittings, packaging nothing uses, slow movers): an item whose on-hand plus
 * on-order falls below its reorder point is requested up to two months of use, in its order
 * multiple, from its preferred vendor; one requisition per vendor.
 */
export const replenishStock: Routine = (day) => {
  if (!day.businessDay || day.date >= day.quietFrom) return;
  const weekday = new Date(`${day.date}T00:00:00Z`).getUTCDay();
  if (weekday !== 1 && weekday !== 4) return;
  const byVendor = new Map<string, { item: ItemSpec; qty: number }[]>();
  const onHand = onHandByItem(day);
  const onOrder = onOrderByItem(day);
  for (const item of day.master.items) {
    const vendor = day.master.preferredVendor[item.id];
    // MRP plans what is made and what goes into it (production.ts); the reorder point plans the rest.
    if (item.type !== 'stock' || !vendor || day.master.production.mrpPlanned.has(item.id)) continue;
    const available = (onHand.get(item.id) ?? 0) + (onOrder.get(item.id) ?? 0);
    const reorderPoint = item.monthlyUse * (item.leadTimeDays / 30 + 0.75);
    if (available >= reorderPoint) continue;
    const qty = Math.max(item.moq, roundUp(item.monthlyUse * 1.5 + reorderPoint - available, item.orderMultiple));
    byVendor.set(vendor, [...(byVendor.get(vendor) ?? []), { item, qty }]);
  }
  for (const [vendor, lines] of [...byVendor.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const req = day.b.as('owen.mercer', 'POST', '/requisitions', {
      purpose: `Stock replenishment, ${lines.map((l) => l.item.id).join(', ')}`,
      need_by: addDays(day.date, Math.max(...lines.map((l) => l.item.leadTimeDays)) + 3),
      lines: lines.map(({ item, qty }) => ({ item: item.id, qty, unit_price: dollars(day.read.items.priceFor(vendor, item.id, qty, day.date)?.unit_price ?? item.standardCost), suggested_vendor: vendor })),
    });
    day.b.as('owen.mercer', 'POST', `/requisitions/${req.id}/submit`, {});
  }
};

/** What each department buys outside stock, month by month: [requester, item, months it recurs, share of the month]. */
const DEPARTMENT_SPEND: [requester: string, item: string, everyMonths: number][] = [
  ['ivan.petrov', 'MRO-BEARING-6204', 1], ['ivan.petrov', 'MRO-BELT-A42', 1], ['ivan.petrov', 'MRO-FILTER-HV', 2], ['ivan.petrov', 'MRO-LUBE-EP2', 1],
  ['ivan.petrov', 'SVC-PM-CNC', 3], ['zoe.adams', 'SVC-HVAC', 3], ['zoe.adams', 'SVC-CLEAN', 1], ['priya.shah', 'SVC-CALIB', 1],
  ['priya.shah', 'SVC-TEST', 2], ['nina.patel', 'MRO-COOLANT-5', 1], ['nina.patel', 'MRO-INSERT-CNMG', 1], ['nina.patel', 'MRO-GLOVE-L', 1],
  ['tessa.nguyen', 'MRO-GLASSES', 2], ['maya.chen', 'SVC-FREIGHT', 1],
];

/**
 * Department heads' monthly purchases of supplies and services, on a business day of the month
 * drawn from the seed, coded to the item's expense account and their department.
 */
export const departmentSpend: Routine = (day) => {
  if (!day.businessDay || day.date >= day.quietFrom || day.businessDayOfMonth === 0) return;
  const month = Number(day.date.slice(5, 7));
  for (const [requester, itemId, every] of DEPARTMENT_SPEND) {
    if (month % every !== 0) continue;
    const item = day.master.items.find((i) => i.id === itemId);
    const vendor = day.master.preferredVendor[itemId];
    if (!item || !vendor) continue;
    if (day.businessDayOfMonth !== 2 + (hash(`${requester}:${itemId}:${day.date.slice(0, 7)}`) % 12)) continue;
    const qty = item.type === 'service' ? 1 : Math.max(1, Math.round(item.monthlyUse * every * (0.8 + day.rng.float() * 0.4)));
    const req = day.b.as(requester, 'POST', '/requisitions', {
      purpose: `${item.description} for ${day.date.slice(0, 7)}`,
      need_by: addDays(day.date, item.leadTimeDays + 5),
      lines: [{ item: item.id, qty, unit_price: dollars(Math.round(item.standardCost * (0.95 + day.rng.float() * 0.1))), suggested_vendor: vendor }],
    });
    day.b.as(requester, 'POST', `/requisitions/${req.id}/submit`, {});
  }
};

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** Who releases a purchase order of a given value: the buyer within their limit, else up the chain. */
export function poApprover(buyer: string, totalCents: number): string {
  if (totalCents <= 500_000) return buyer;
  if (totalCents <= 2_500_000) return 'maya.chen';
  if (totalCents <= 5_000_000) return 'zoe.adams';
  if (totalCents <= 10_000_000) return 'grace.lin';
  return 'daniel.okafor';
}

/**
 * The buyers turn approved requisition lines into purchase orders on Tuesdays and Thursdays: one
 * PO per vendor, at the requisition's price, approved by whoever's limit covers it, then sent.
 */
export const buyApproved: Routine = (day) => {
  if (!day.businessDay) return;
  const weekday = new Date(`${day.date}T00:00:00Z`).getUTCDay();
  if (weekday !== 2 && weekday !== 4) return;
  const lines = day.read.requisitions.approvedUnconverted();
  const byVendor = new Map<string, typeof lines>();
  for (const l of lines) {
    const vendor = l.suggested_vendor ?? (l.item ? day.master.preferredVendor[l.item] : undefined);
    if (!vendor) continue;
    byVendor.set(vendor, [...(byVendor.get(vendor) ?? []), l]);
  }
  for (const [vendor, vendorLines] of [...byVendor.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const buyer = hash(vendor) % 2 === 0 ? 'sam.ortiz' : 'jordan.ellis';
    const sorted = vendorLines.sort((a, b) => (a.requisition === b.requisition ? a.line - b.line : a.requisition < b.requisition ? -1 : 1));
    const po = day.b.as(buyer, 'POST', '/purchase-orders', {
      vendor, ship_to: 'DAY',
      lines: sorted.map((l) => ({ requisition_lines: [{ requisition: l.requisition, line: l.line }] })),
    });
    day.b.as(poApprover(buyer, Math.round((po.total as number) * 100)), 'POST', `/purchase-orders/${po.id}/approve`, {});
    day.b.as(buyer, 'POST', `/purchase-orders/${po.id}/send`, {});
  }
};
