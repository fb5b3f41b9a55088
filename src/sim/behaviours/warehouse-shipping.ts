import { addDays } from '../../domain/calendar';
import { warehousesFor } from '../../domain/sales/allocation';
import { fromCents } from '../../domain/money';
import type { SimContext } from '../simulator';
import { shippingWorld } from './customer-profiles';
import { businessDaysAfter, must } from './payables-profiles';

/**
 * The warehouse ships every released, allocated order that is not on hold, each business day:
 * one shipment per order and warehouse for all it has allocated there, lots first-expiry-first,
 * with the carrier's charge (seed 000 §8).
 */
export function shipOrders(ctx: SimContext): void {
  const w = shippingWorld(ctx);
  if (!w?.auto_ship || !ctx.businessDay) return;
  const groups = new Map<string, { order: string; warehouse: string; lines: { so_line: number; qty: number }[] }>();
  for (const a of ctx.read.sales.openAllocations()) {
    const key = `${a.sales_order}\u0000${a.warehouse}`;
    const g = groups.get(key) ?? { order: a.sales_order, warehouse: a.warehouse, lines: [] };
    g.lines.push({ so_line: a.line, qty: a.qty });
    groups.set(key, g);
  }
  const client = ctx.as(w.as);
  for (const g of groups.values()) {
    const order = ctx.read.sales.order(g.order)!;
    if (order.lifecycle !== 'released' || order.open_holds > 0) continue;
    const units = g.lines.reduce((s, l) => s + l.qty, 0);
    const freight = w.freight ? w.freight.base_cents + Math.round(w.freight.per_unit_cents * units) : 0;
    must(client.post('/shipments', {
      sales_order: g.order, warehouse: g.warehouse, lines: g.lines, carrier: w.carrier ?? '', freight_charge: fromCents(freight),
    }, `ship-${g.order}-${g.warehouse}-${ctx.date}`), `shipping ${g.order} from ${g.warehouse}`);
  }
}

/**
 * Approved returns arrive `transit_days` business days after approval and are received into the
 * warehouse of the customer's region; received returns are inspected `inspect_days` later, the
 * planted share accepted (per RMA, else the default, else all).
 */
export function handleReturns(ctx: SimContext): void {
  const w = shippingWorld(ctx);
  const r = w?.returns;
  if (!w || !r || !ctx.businessDay) return;
  const client = ctx.as(w.as);
  for (const rma of ctx.read.shipments.rmasWithStatus('approved')) {
    const approved = rma.status_history[rma.status_history.length - 1]!.date;
    if (businessDaysAfter(ctx.read, approved, r.transit_days) > ctx.date) continue;
    const region = rma.sales_order ? ctx.read.sales.order(rma.sales_order)?.ship_to_region ?? '' : '';
    must(client.post(`/rmas/${rma.id}/receive`, { warehouse: warehousesFor(ctx.read, region)[0]! }, `rma-receive-${rma.id}`), `receiving ${rma.id}`);
  }
  for (const rma of ctx.read.shipments.rmasWithStatus('received')) {
    if (businessDaysAfter(ctx.read, rma.received_date ?? addDays(ctx.date, 1), r.inspect_days) > ctx.date) continue;
    const bp = r.accept?.[rma.id] ?? r.accept_bp ?? 10000;
    const lines = ctx.read.shipments.rmaLines(rma.id).filter((l) => l.received_qty > 0).map((l) => {
      const accepted = Math.floor((l.received_qty * bp) / 10000);
      return { line: l.line, accepted_qty: accepted, rejected_qty: l.received_qty - accepted, result: accepted === l.received_qty ? 'resaleable' : 'damaged_in_use' };
    });
    must(client.post(`/rmas/${rma.id}/inspection`, { lines }, `rma-inspect-${rma.id}`), `inspecting ${rma.id}`);
  }
}
