import { Type } from '@sinclair/typebox';
import { SalesOrderAllocated, SalesOrderDeallocated, type AllocationLine } from '../../events/contracts/sales';
import type { Queries } from '../../projections';
import type { SalesOrderRow } from '../../projections/sales-orders';
import { roundQty } from '../../projections/quantities';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { Body, IdInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { LineNoInput, PositiveQty } from './inputs';
import { orderOf } from './orders';
import { SALES_ORDER_ALLOCATE } from './permissions';
import { tag } from './pricing';
import { orderView } from './views';

/** On-hand less what open allocations already reserve: what an item has free to promise in a warehouse. */
export function availableQty(read: Queries, item: string, warehouse: string): number {
  return roundQty(read.inventory.onHand(item, warehouse) - read.sales.allocatedQty(item, warehouse));
}

/** The warehouses an order draws on, in order: those in its ship-to's region first (seed 000 C1), then the rest by id. */
export function warehousesFor(read: Queries, region: string): string[] {
  const all = read.items.warehouses();
  return [...all.filter((w) => w.region === region), ...all.filter((w) => w.region !== region)].map((w) => w.id);
}

function allocatable(ctx: DecideContext, order: SalesOrderRow): Refusal | undefined {
  if (order.lifecycle === 'cancelled') return refuse('invalid_state', `${order.id} is cancelled.`);
  const holds = ctx.read.sales.openHolds(order.id);
  if (holds.length) return refuse('order_on_hold', `${order.id} is on hold (${holds.map((h) => `${h.id} ${h.reason}`).join(', ')}); an order on hold is not allocated.`);
  if (order.lifecycle !== 'released') return refuse('invalid_state', `${order.id} is ${order.status}; only a released order is allocated.`);
  return undefined;
}

/**
 * Allocation by region (seed 000 C1): each backordered line from the ship-to region's warehouse as
 * far as its free stock goes, then from the other warehouse; what neither has stays backordered.
 */
function autoAllocate(ctx: DecideContext, order: SalesOrderRow): AllocationLine[] {
  const taken = new Map<string, number>();
  const out: AllocationLine[] = [];
  const warehouses = warehousesFor(ctx.read, order.ship_to_region);
  for (const line of ctx.read.sales.lines(order.id)) {
    let need = line.backordered_qty;
    for (const wh of warehouses) {
      if (need <= 0) break;
      const key = `${line.item}\u0000${wh}`;
      const free = roundQty(availableQty(ctx.read, line.item, wh) - (taken.get(key) ?? 0));
      const qty = Math.min(need, free);
      if (qty <= 0) continue;
      out.push({ line: line.line, item: line.item, warehouse: wh, qty });
      taken.set(key, roundQty((taken.get(key) ?? 0) + qty));
      need = roundQty(need - qty);
    }
  }
  return out;
}

const AllocationInput = Body({ line: LineNoInput, warehouse: IdInput, qty: PositiveQty });

export const allocationRoutes: RouteDef[] = [
  defineAction({
    action: 'sales_order.allocate', method: 'POST', path: '/sales-orders/{id}/allocate', tag, objectType: 'sales_order',
    summary: 'Reserve free stock for a released order: by default each line from its ship-to region\'s warehouse, then the other; the rest is backordered',
    body: Body({ lines: Opt(Type.Array(AllocationInput, { minItems: 1, maxItems: 400 })), note: Opt(NoteInput) }),
    permission: SALES_ORDER_ALLOCATE, emits: [SalesOrderAllocated],
    decide: ({ params, body }, ctx) => {
      const order = orderOf(ctx, params.id!);
      if (isRefusal(order)) return order;
      const bad = allocatable(ctx, order);
      if (bad) return bad;
      let allocations: AllocationLine[];
      if (body.lines) {
        allocations = [];
        const asked = new Map<string, number>();
        for (const a of body.lines) {
          const line = ctx.read.sales.line(order.id, a.line);
          if (!line) return refuse('not_found', `${order.id} has no line ${a.line}.`);
          if (!ctx.read.items.warehouse(a.warehouse)) return refuse('not_found', `No warehouse ${a.warehouse}.`);
          const lineKey = `line:${a.line}`;
          const wanted = roundQty((asked.get(lineKey) ?? 0) + a.qty);
          if (wanted > line.backordered_qty) return refuse('invalid_request', `Line ${a.line} has ${line.backordered_qty} left to allocate; ${wanted} was asked for.`, 422);
          const stockKey = `${line.item}\u0000${a.warehouse}`;
          const fromStock = roundQty((asked.get(stockKey) ?? 0) + a.qty);
          const free = availableQty(ctx.read, line.item, a.warehouse);
          if (fromStock > free) return refuse('invalid_state', `${a.warehouse} has ${free} of ${line.item} free to allocate; ${fromStock} was asked for.`);
          asked.set(lineKey, wanted);
          asked.set(stockKey, fromStock);
          allocations.push({ line: a.line, item: line.item, warehouse: a.warehouse, qty: a.qty });
        }
      } else {
        allocations = autoAllocate(ctx, order);
        if (allocations.length === 0) {
          const short = ctx.read.sales.lines(order.id).filter((l) => l.backordered_qty > 0);
          if (short.length === 0) return refuse('invalid_state', `${order.id} has nothing left to allocate.`);
          return refuse('invalid_state', `No stock is free for ${order.id}: ${short.map((l) => `line ${l.line} ${l.backordered_qty} ${l.item}`).join(', ')} stay backordered.`);
        }
      }
      const allocatedByLine = new Map<number, number>();
      for (const a of allocations) allocatedByLine.set(a.line, roundQty((allocatedByLine.get(a.line) ?? 0) + a.qty));
      const backordered = ctx.read.sales.lines(order.id)
        .map((l) => ({ line: l.line, qty: roundQty(l.backordered_qty - (allocatedByLine.get(l.line) ?? 0)) }))
        .filter((b) => b.qty > 0);
      return emit(SalesOrderAllocated, { id: order.id, allocations, backordered, note: body.note ?? '' }, 'sales_order', order.id);
    },
    view: (read, id) => orderView(read, id),
  }),
  defineAction({
    action: 'sales_order.deallocate', method: 'POST', path: '/sales-orders/{id}/deallocate', tag, objectType: 'sales_order',
    summary: 'Free the stock reserved for an order: every open allocation, or those of one line or warehouse',
    body: Body({ line: Opt(LineNoInput), warehouse: Opt(IdInput), reason: ReasonInput, note: Opt(NoteInput) }),
    permission: SALES_ORDER_ALLOCATE, emits: [SalesOrderDeallocated],
    decide: ({ params, body }, ctx) => {
      const order = orderOf(ctx, params.id!);
      if (isRefusal(order)) return order;
      const allocations = ctx.read.sales.allocationsOf(order.id)
        .filter((a) => a.qty > 0 && (body.line === undefined || a.line === body.line) && (body.warehouse === undefined || a.warehouse === body.warehouse))
        .map((a) => ({ line: a.line, item: a.item, warehouse: a.warehouse, qty: a.qty }));
      if (allocations.length === 0) return refuse('invalid_state', `${order.id} has no open allocation to free${body.line ? ` on line ${body.line}` : ''}${body.warehouse ? ` in ${body.warehouse}` : ''}.`);
      return emit(SalesOrderDeallocated, { id: order.id, allocations, reason: body.reason, note: body.note ?? '' }, 'sales_order', order.id);
    },
    view: (read, id) => orderView(read, id),
  }),
  defineQuery({
    path: '/inventory/available', tag, permission: null,
    summary: 'Available to promise per item and warehouse: on-hand, allocated to open orders, and free (on-hand less allocated)',
    query: Type.Object({ item: Opt(IdInput), warehouse: Opt(IdInput) }, { additionalProperties: false }),
    run: ({ query }, ctx) => {
      const rows = ctx.read.sales.availability(query.item, query.warehouse);
      return { as_of: ctx.today, items: rows, total: rows.length };
    },
  }),
];
