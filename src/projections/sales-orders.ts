import { ArInvoiceBilled, ArInvoiceVoided } from '../events/contracts/receivables';
import {
  SalesOrderAllocated, SalesOrderCancelled, SalesOrderDeallocated, SalesOrderEntered, SalesOrderHoldPlaced, SalesOrderHoldReleased,
  SalesOrderLineCancelled, SalesOrderLineRevised, SalesOrderReleased, ShipmentPosted, type AllocationLine, type CreditCheck, type PriceSource,
} from '../events/contracts/sales';
import type { EventRow } from '../events/event-row';
import { statusChange, type StatusChange } from './history';
import { roundQty } from './quantities';
import { defineReadModel, on, type ProjectionTx } from './read-model';
import type { TableAccess } from './table-access';

export type SalesOrderLifecycle = 'entered' | 'released' | 'cancelled';
export type SalesOrderStatus = 'entered' | 'on_hold' | 'released' | 'allocated' | 'partially_shipped' | 'shipped' | 'invoiced' | 'cancelled';

export interface SalesOrderRow {
  id: string;
  customer: string;
  ship_to: string;
  ship_to_region: string;
  customer_po: string;
  source_message: string | null;
  quote: string | null;
  order_date: string;
  requested_date: string;
  freight_terms: string;
  tax_code: string | null;
  tax_rate_bp: number;
  total: number;
  /** Not yet invoiced, at the order's prices: what counts against the customer's credit limit. */
  open_value: number;
  qty_ordered: number;
  qty_allocated: number;
  qty_backordered: number;
  qty_shipped: number;
  qty_invoiced: number;
  lifecycle: SalesOrderLifecycle;
  status: SalesOrderStatus;
  open_holds: number;
  hold_reasons: string[];
  credit_check: CreditCheck;
  released_by: string | null;
  released_date: string | null;
  reason: string | null;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface SoLineRow {
  sales_order: string;
  line: number;
  item: string;
  description: string;
  unit: string;
  qty: number;
  unit_price: number;
  granted_price: number | null;
  price_source: PriceSource;
  amount: number;
  requested_date: string;
  status: 'open' | 'closed' | 'cancelled';
  /** Reserved in stock and not yet shipped, in every warehouse. */
  allocated_qty: number;
  shipped_qty: number;
  invoiced_qty: number;
  cancelled_qty: number;
  /** Ordered and neither shipped, allocated nor cancelled. */
  backordered_qty: number;
}

export interface AllocationRow {
  sales_order: string;
  line: number;
  warehouse: string;
  item: string;
  customer: string;
  /** Reserved and not yet shipped. */
  qty: number;
  allocated_total: number;
  shipped: number;
  first_date: string;
  last_date: string;
}

export interface SalesOrderHoldRow {
  id: string;
  sales_order: string;
  customer: string;
  reason: string;
  note: string;
  status: 'open' | 'released';
  placed_by: string;
  placed_date: string;
  placed_event: number;
  released_by: string | null;
  released_date: string | null;
  released_event: number | null;
  release_note: string | null;
}

type Order = SalesOrderRow & Record<string, unknown>;
type Line = SoLineRow & Record<string, unknown>;
type Alloc = AllocationRow & Record<string, unknown>;
type Hold = SalesOrderHoldRow & Record<string, unknown>;

const remaining = (l: SoLineRow) => roundQty(l.qty - l.cancelled_qty);

function lineStatus(l: SoLineRow): SoLineRow['status'] {
  if (remaining(l) <= 0) return l.shipped_qty > 0 ? 'closed' : 'cancelled';
  return l.shipped_qty >= remaining(l) ? 'closed' : 'open';
}

function statusOf(o: SalesOrderRow): SalesOrderStatus {
  if (o.lifecycle === 'cancelled') return 'cancelled';
  if (o.qty_ordered > 0 && o.qty_invoiced >= o.qty_ordered) return 'invoiced';
  if (o.qty_ordered > 0 && o.qty_shipped >= o.qty_ordered) return 'shipped';
  if (o.open_holds > 0) return 'on_hold';
  if (o.lifecycle === 'entered') return 'entered';
  if (o.qty_shipped > 0) return 'partially_shipped';
  return o.qty_allocated > 0 ? 'allocated' : 'released';
}

/** Recomputes the order's quantities and open value from its lines, and records a change of status. */
function refresh(tx: ProjectionTx, id: string, event: EventRow, reason: string | null, recipe: (o: Order) => void = () => undefined): void {
  const lines = tx.find<Line>('so_lines', { sales_order: id });
  tx.update<Order>('sales_orders', id, (o) => {
    recipe(o as Order);
    const sum = (f: (l: SoLineRow) => number) => roundQty(lines.reduce((s, l) => s + f(l), 0));
    o.qty_ordered = sum(remaining);
    o.qty_allocated = sum((l) => l.allocated_qty);
    o.qty_backordered = sum((l) => l.backordered_qty);
    o.qty_shipped = sum((l) => l.shipped_qty);
    o.qty_invoiced = sum((l) => l.invoiced_qty);
    o.total = lines.reduce((s, l) => s + l.amount, 0);
    o.open_value = o.lifecycle === 'cancelled' ? 0 : lines.reduce((s, l) => s + Math.round(Math.max(0, remaining(l) - l.invoiced_qty) * l.unit_price), 0);
    const status = statusOf(o as SalesOrderRow);
    if (status !== o.status) {
      o.status = status;
      o.status_history.push(statusChange(status, event, reason));
    }
  });
}

/** Applies a change to a line and keeps its status and backorder in step. */
function changeLine(tx: ProjectionTx, order: string, line: number, recipe: (l: Line) => void): void {
  tx.update<Line>('so_lines', { sales_order: order, line }, (l) => {
    recipe(l as Line);
    l.status = lineStatus(l as SoLineRow);
    l.backordered_qty = l.status === 'open' ? Math.max(0, roundQty(remaining(l as SoLineRow) - l.shipped_qty - l.allocated_qty)) : 0;
  });
}

function reserve(tx: ProjectionTx, order: Order, a: AllocationLine, sign: 1 | -1, date: string): void {
  const key = { sales_order: order.id, line: a.line, warehouse: a.warehouse };
  const initial: Alloc = { ...key, item: a.item, customer: order.customer, qty: 0, allocated_total: 0, shipped: 0, first_date: date, last_date: date } as Alloc;
  tx.upsert<Alloc>('allocations', initial, (r) => {
    r.qty = roundQty(r.qty + sign * a.qty);
    if (sign > 0) r.allocated_total = roundQty(r.allocated_total + a.qty);
    r.last_date = date;
  });
  changeLine(tx, order.id, a.line, (l) => { l.allocated_qty = roundQty(l.allocated_qty + sign * a.qty); });
}

function holdChange(tx: ProjectionTx, order: string, event: EventRow, reason: string | null): void {
  const open = tx.find<Hold>('sales_order_holds', { sales_order: order, status: 'open' });
  refresh(tx, order, event, reason, (o) => {
    o.open_holds = open.length;
    o.hold_reasons = [...new Set(open.map((h) => h.reason))].sort();
  });
}

function placeHold(tx: ProjectionTx, order: Order, h: { hold: string; reason: string; note: string }, e: EventRow): void {
  tx.insert('sales_order_holds', {
    id: h.hold, sales_order: order.id, customer: order.customer, reason: h.reason, note: h.note, status: 'open', placed_by: e.actor, placed_date: e.businessDate,
    placed_event: e.seq, released_by: null, released_date: null, released_event: null, release_note: null, created_wall: e.wallTime,
  });
}

/**
 * Sales orders and their lines, the holds on them, and the stock allocated to them per warehouse
 * (seed 000 §3, §4). Shipments and invoices move the lines' shipped and invoiced quantities; the
 * order's status follows from its holds and quantities.
 */
export const salesOrders = defineReadModel({
  name: 'sales-orders',
  tables: [
    {
      name: 'sales_orders',
      columns: {
        id: 'text', customer: 'text', ship_to: 'text', ship_to_region: 'text', customer_po: 'text', source_message: 'text', quote: 'text', order_date: 'text',
        requested_date: 'text', freight_terms: 'text', tax_code: 'text', tax_rate_bp: 'integer', total: 'integer', open_value: 'integer', qty_ordered: 'real',
        qty_allocated: 'real', qty_backordered: 'real', qty_shipped: 'real', qty_invoiced: 'real', lifecycle: 'text', status: 'text', open_holds: 'integer',
        hold_reasons: 'json', credit_check: 'json', released_by: 'text', released_date: 'text', reason: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['customer', 'lifecycle'], ['status'], ['source_message'], ['customer_po']],
    },
    {
      name: 'so_lines',
      columns: {
        sales_order: 'text', line: 'integer', item: 'text', description: 'text', unit: 'text', qty: 'real', unit_price: 'integer', granted_price: 'integer',
        price_source: 'json', amount: 'integer', requested_date: 'text', status: 'text', allocated_qty: 'real', shipped_qty: 'real', invoiced_qty: 'real',
        cancelled_qty: 'real', backordered_qty: 'real',
      },
      key: ['sales_order', 'line'],
      indexes: [['item', 'status'], ['status']],
    },
    {
      name: 'allocations',
      columns: {
        sales_order: 'text', line: 'integer', warehouse: 'text', item: 'text', customer: 'text', qty: 'real', allocated_total: 'real', shipped: 'real',
        first_date: 'text', last_date: 'text',
      },
      key: ['sales_order', 'line', 'warehouse'],
      indexes: [['item', 'warehouse'], ['warehouse', 'qty']],
    },
    {
      name: 'sales_order_holds',
      columns: {
        id: 'text', sales_order: 'text', customer: 'text', reason: 'text', note: 'text', status: 'text', placed_by: 'text', placed_date: 'text',
        placed_event: 'integer', released_by: 'text', released_date: 'text', released_event: 'integer', release_note: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['sales_order', 'status'], ['status', 'reason']],
    },
  ],
  handlers: [
    on(SalesOrderEntered, (tx, d, e) => {
      const { lines, holds, ...header } = d;
      tx.insert('sales_orders', {
        ...header, total: d.total, open_value: 0, qty_ordered: 0, qty_allocated: 0, qty_backordered: 0, qty_shipped: 0, qty_invoiced: 0,
        lifecycle: 'entered', status: 'entered', open_holds: 0, hold_reasons: [], released_by: null, released_date: null, reason: null,
        created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime, status_history: [statusChange('entered', e)],
      });
      for (const l of lines) {
        tx.insert('so_lines', { sales_order: d.id, ...l, status: 'open', allocated_qty: 0, shipped_qty: 0, invoiced_qty: 0, cancelled_qty: 0, backordered_qty: l.qty });
      }
      const order = tx.get<Order>('sales_orders', d.id)!;
      for (const h of holds) placeHold(tx, order, h, e);
      holdChange(tx, d.id, e, holds.length ? holds.map((h) => h.reason).join(',') : null);
    }),
    on(SalesOrderLineRevised, (tx, d, e) => {
      changeLine(tx, d.id, d.line, (l) => Object.assign(l, { qty: d.qty, unit_price: d.unit_price, granted_price: d.granted_price, price_source: d.price_source, amount: Math.round(d.qty * d.unit_price) }));
      const order = tx.get<Order>('sales_orders', d.id)!;
      for (const h of d.holds) placeHold(tx, order, h, e);
      holdChange(tx, d.id, e, 'line_revised');
    }),
    on(SalesOrderReleased, (tx, d, e) => refresh(tx, d.id, e, null, (o) => Object.assign(o, { lifecycle: 'released', released_by: e.actor, released_date: e.businessDate }))),
    on(SalesOrderHoldPlaced, (tx, d, e) => {
      placeHold(tx, tx.get<Order>('sales_orders', d.sales_order)!, d, e);
      holdChange(tx, d.sales_order, e, d.reason);
    }),
    on(SalesOrderHoldReleased, (tx, d, e) => {
      tx.update<Hold>('sales_order_holds', d.hold, (h) => Object.assign(h, { status: 'released', released_by: e.actor, released_date: e.businessDate, released_event: e.seq, release_note: d.note }));
      holdChange(tx, d.sales_order, e, `released_${d.reason}`);
    }),
    on(SalesOrderAllocated, (tx, d, e) => {
      const order = tx.get<Order>('sales_orders', d.id)!;
      for (const a of d.allocations) reserve(tx, order, a, 1, e.businessDate);
      refresh(tx, d.id, e, null);
    }),
    on(SalesOrderDeallocated, (tx, d, e) => {
      const order = tx.get<Order>('sales_orders', d.id)!;
      for (const a of d.allocations) reserve(tx, order, a, -1, e.businessDate);
      refresh(tx, d.id, e, d.reason);
    }),
    on(SalesOrderLineCancelled, (tx, d, e) => {
      const order = tx.get<Order>('sales_orders', d.id)!;
      for (const a of d.deallocated) reserve(tx, order, a, -1, e.businessDate);
      changeLine(tx, d.id, d.line, (l) => { l.cancelled_qty = roundQty(l.cancelled_qty + d.qty); });
      refresh(tx, d.id, e, d.reason);
    }),
    on(SalesOrderCancelled, (tx, d, e) => {
      const order = tx.get<Order>('sales_orders', d.id)!;
      for (const a of d.deallocated) reserve(tx, order, a, -1, e.businessDate);
      for (const l of tx.find<Line>('so_lines', { sales_order: d.id })) changeLine(tx, d.id, l.line, (x) => { x.cancelled_qty = roundQty(x.qty - x.shipped_qty); });
      refresh(tx, d.id, e, d.reason, (o) => Object.assign(o, { lifecycle: 'cancelled', reason: d.reason }));
    }),
    on(ShipmentPosted, (tx, d, e) => {
      const byLine = new Map<number, number>();
      for (const l of d.lines) byLine.set(l.so_line, roundQty((byLine.get(l.so_line) ?? 0) + l.qty));
      for (const [line, qty] of byLine) {
        tx.update<Alloc>('allocations', { sales_order: d.sales_order, line, warehouse: d.warehouse }, (a) => {
          a.qty = roundQty(a.qty - qty);
          a.shipped = roundQty(a.shipped + qty);
          a.last_date = e.businessDate;
        });
        changeLine(tx, d.sales_order, line, (l) => {
          l.allocated_qty = roundQty(l.allocated_qty - qty);
          l.shipped_qty = roundQty(l.shipped_qty + qty);
        });
      }
      refresh(tx, d.sales_order, e, null);
    }),
    on(ArInvoiceBilled, (tx, d, e) => {
      if (!d.sales_order) return;
      for (const l of d.lines) if (l.so_line !== null) changeLine(tx, d.sales_order, l.so_line, (x) => { x.invoiced_qty = roundQty(x.invoiced_qty + l.qty); });
      refresh(tx, d.sales_order, e, null);
    }),
    on(ArInvoiceVoided, (tx, d, e) => {
      const inv = tx.get<{ sales_order: string | null } & Record<string, unknown>>('ar_invoices', d.id);
      if (!inv?.sales_order) return;
      for (const l of tx.find<{ so_line: number | null; qty: number } & Record<string, unknown>>('ar_invoice_lines', { invoice: d.id })) {
        if (l.so_line !== null) changeLine(tx, inv.sales_order, l.so_line, (x) => { x.invoiced_qty = roundQty(x.invoiced_qty - l.qty); });
      }
      refresh(tx, inv.sales_order, e, `invoice_voided`);
    }),
  ],
  queries: (t) => salesOrderQueries(t),
});

function salesOrderQueries(t: TableAccess) {
  return {
    order: (id: string) => t.get<Order>('sales_orders', id),
    lines: (id: string) => t.find<Line>('so_lines', { sales_order: id }, { orderBy: 'line' }),
    line: (id: string, line: number) => t.get<Line>('so_lines', { sales_order: id, line }),
    holds: (id: string) => t.find<Hold>('sales_order_holds', { sales_order: id }),
    openHolds: (id: string) => t.find<Hold>('sales_order_holds', { sales_order: id, status: 'open' }),
    hold: (id: string) => t.get<Hold>('sales_order_holds', id),
    openHoldsWithReason: (reason: string) => t.find<Hold>('sales_order_holds', { status: 'open', reason }, { orderBy: 'id' }),
    allocationsOf: (id: string) => t.find<Alloc>('allocations', { sales_order: id }, { orderBy: ['line', 'warehouse'] }),
    allocation: (id: string, line: number, warehouse: string) => t.get<Alloc>('allocations', { sales_order: id, line, warehouse }),
    /** Stock reserved and not yet shipped for an item in one warehouse, over every order. */
    allocatedQty(item: string, warehouse: string): number {
      const row = t.prepared('SELECT COALESCE(SUM(qty), 0) AS q FROM allocations WHERE item = ? AND warehouse = ?').get(item, warehouse) as { q: number };
      return roundQty(row.q);
    },
    /** Open allocations (qty > 0) in a warehouse, by order and line: what the warehouse has to ship. */
    openAllocations(warehouse?: string): Alloc[] {
      const sql = `SELECT * FROM allocations WHERE qty > 0.0000005${warehouse ? ' AND warehouse = ?' : ''} ORDER BY sales_order, line, warehouse`;
      return t.prepared(sql).all(...(warehouse ? [warehouse] : [])) as Alloc[];
    },
    /** The value not yet invoiced of the customer's orders that are not cancelled: its open orders against the credit limit. */
    openOrderValue(customer: string, except?: string): number {
      const row = t.prepared(`SELECT COALESCE(SUM(open_value), 0) AS v FROM sales_orders WHERE customer = ? AND lifecycle <> 'cancelled' AND id <> ?`).get(customer, except ?? '') as { v: number };
      return row.v;
    },
    /** Orders of a message: how order entry finds what it already entered from an email. */
    ordersFromMessage: (message: string) => t.find<Order>('sales_orders', { source_message: message }),
    /** Released orders with a line still backordered, oldest first. */
    backorderedOrders(): string[] {
      return (t.prepared(`SELECT id FROM sales_orders WHERE lifecycle = 'released' AND open_holds = 0 AND qty_backordered > 0 ORDER BY id`).all() as { id: string }[]).map((r) => r.id);
    },
    /** On-hand, allocated and free per item and warehouse (items with stock or allocations only). */
    availability(item?: string, warehouse?: string): { item: string; warehouse: string; on_hand: number; allocated: number; available: number }[] {
      const rows = t.prepared(`SELECT item, warehouse, SUM(on_hand) AS on_hand, SUM(allocated) AS allocated FROM (
          SELECT item, warehouse, qty AS on_hand, 0 AS allocated FROM inventory_transactions
          UNION ALL SELECT item, warehouse, 0, qty FROM allocations WHERE qty > 0)
        WHERE (? IS NULL OR item = ?) AND (? IS NULL OR warehouse = ?) GROUP BY item, warehouse ORDER BY item, warehouse`)
        .all(item ?? null, item ?? null, warehouse ?? null, warehouse ?? null) as { item: string; warehouse: string; on_hand: number; allocated: number }[];
      return rows.map((r) => ({ item: r.item, warehouse: r.warehouse, on_hand: roundQty(r.on_hand), allocated: roundQty(r.allocated), available: roundQty(r.on_hand - r.allocated) }))
        .filter((r) => r.on_hand !== 0 || r.allocated !== 0);
    },
    ordersOfCustomerOnHold: (customer: string) =>
      (t.prepared(`SELECT id FROM sales_orders WHERE customer = ? AND open_holds > 0 AND lifecycle <> 'cancelled' AND status = 'on_hold' ORDER BY id`).all(customer) as { id: string }[]).map((r) => r.id),
    ordersWithStatus: (status: SalesOrderStatus) => t.find<Order>('sales_orders', { status }, { orderBy: 'id' }),
  };
}
