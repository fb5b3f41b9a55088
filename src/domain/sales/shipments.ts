import { Type } from '@sinclair/typebox';
import type { InventoryMovement } from '../../events/contracts/inventory';
import { ShipmentPosted, type ShipmentLine } from '../../events/contracts/sales';
import { roundQty } from '../../projections/quantities';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { pickStock, unitCostOf } from '../inventory/costing';
import { postingDate } from '../inventory/stock-inputs';
import { JournalBuilder } from '../ledger/journal';
import { toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt } from '../schemas';
import { LineNoInput, PositiveQty } from './inputs';
import { orderOf } from './orders';
import { SHIPMENT_POST } from './permissions';
import { tag } from './pricing';
import { shipmentView } from './views';

/**
 * A shipment against a released order (seed 000 §4, C2): only what is allocated in the warehouse
 * ships, lots are picked first-expiry-first unless one is named, and COGS is debited with the
 * inventory cost of exactly what was picked.
 */
export const shipmentRoutes: RouteDef[] = [
  defineAction({
    action: 'shipment.post', method: 'POST', path: '/shipments', tag, status: 201, objectType: 'shipment',
    summary: 'Ship allocated units of a released order from one warehouse: lots first-expiry-first unless named; Dr COGS, Cr inventory at cost',
    body: Body({
      sales_order: IdInput, warehouse: IdInput, lines: Type.Array(Body({ so_line: LineNoInput, qty: PositiveQty, lot: Opt(IdInput), location: Opt(IdInput) }), { minItems: 1, maxItems: 200 }),
      ship_date: Opt(DateInput), carrier: Opt(Type.String({ maxLength: 80 })), tracking: Opt(Type.String({ maxLength: 80 })), freight_charge: Opt(MoneyInput), note: Opt(NoteInput),
    }),
    permission: SHIPMENT_POST, emits: [ShipmentPosted],
    decide: ({ body }, ctx) => {
      const order = orderOf(ctx, body.sales_order);
      if (isRefusal(order)) return order;
      if (order.lifecycle === 'cancelled') return refuse('invalid_state', `${order.id} is cancelled.`);
      const holds = ctx.read.sales.openHolds(order.id);
      if (holds.length) return refuse('order_on_hold', `${order.id} is on hold (${holds.map((h) => `${h.id} ${h.reason}`).join(', ')}); an order on hold does not ship.`);
      if (order.lifecycle !== 'released') return refuse('invalid_state', `${order.id} is ${order.status}; only a released order ships.`);
      if (!ctx.read.items.warehouse(body.warehouse)) return refuse('not_found', `No warehouse ${body.warehouse}.`);
      const date = postingDate(ctx, body.ship_date, true);
      if (isRefusal(date)) return date;
      const freight = body.freight_charge === undefined ? 0 : toCents(body.freight_charge);
      if (freight < 0) return refuse('invalid_request', 'A freight charge cannot be negative.', 422);
      const id = ctx.nextId('SHP');
      const lines: ShipmentLine[] = [];
      const inventory: InventoryMovement[] = [];
      const shipping = new Map<number, number>();
      const byAccount = new Map<string, number>();
      for (const l of body.lines) {
        const line = ctx.read.sales.line(order.id, l.so_line);
        if (!line) return refuse('not_found', `${order.id} has no line ${l.so_line}.`);
        const allocated = ctx.read.sales.allocation(order.id, l.so_line, body.warehouse)?.qty ?? 0;
        const total = roundQty((shipping.get(l.so_line) ?? 0) + l.qty);
        if (total > allocated) return refuse('invalid_state', `Line ${l.so_line} has ${allocated} allocated in ${body.warehouse}; ${total} cannot ship (allocate first).`);
        shipping.set(l.so_line, total);
        const item = ctx.read.items.item(line.item)!;
        const picks = pickStock(ctx.read, { item: line.item, warehouse: body.warehouse, location: l.location, lot: l.lot }, l.qty);
        if (isRefusal(picks)) return picks;
        for (const p of picks) {
          const n = lines.length + 1;
          lines.push({ line: n, so_line: l.so_line, item: line.item, qty: p.qty, lot: p.lot, location: p.location, expiry: p.expiry, unit_cost: unitCostOf(p.value, p.qty), value: p.value });
          inventory.push({
            type: 'shipment', date, item: line.item, warehouse: body.warehouse, location: p.location, lot: p.lot, expiry: p.expiry, qty: -p.qty,
            unit_cost: unitCostOf(p.value, p.qty), value: -p.value, document_type: 'shipment', document_id: id, document_line: n,
          });
          byAccount.set(item.inventory_account!, (byAccount.get(item.inventory_account!) ?? 0) + p.value);
        }
      }
      const refs = { party_type: 'customer' as const, party_id: order.customer, document_id: id };
      const journal = new JournalBuilder(date, `Shipment ${id} of ${order.id} to ${order.customer}`);
      for (const [account, value] of [...byAccount].sort()) journal.credit(account, value, refs);
      const built = journal.balanceTo(ctx.read.receivables.policy().cogs_account, refs).build(ctx.read);
      if (isRefusal(built)) return built;
      return emit(ShipmentPosted, {
        id, sales_order: order.id, customer: order.customer, warehouse: body.warehouse, ship_date: date, carrier: body.carrier ?? '', tracking: body.tracking ?? '',
        freight_charge: freight, lines, note: body.note ?? '', journal: built, inventory,
      }, 'shipment', id);
    },
    view: shipmentView,
  }),
];
