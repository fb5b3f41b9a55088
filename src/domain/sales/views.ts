import type { Queries } from '../../projections';
import type { SalesOrderRow, SoLineRow } from '../../projections/sales-orders';
import type { ShipmentRow } from '../../projections/sales-shipments';
import { withDecimals } from '../decimal-view';
import { fromCents } from '../money';

const ORDER_MONEY = ['total', 'open_value'] as const;

export function orderSummary(o: SalesOrderRow) {
  const { created_wall: _w, ...row } = o as SalesOrderRow & { created_wall?: string };
  return { ...withDecimals(row, [...ORDER_MONEY]), credit_check: creditView(o.credit_check) };
}

const creditView = (c: SalesOrderRow['credit_check']) => withDecimals(c, ['credit_limit', 'open_ar', 'open_orders', 'order_total', 'exposure']);
const lineView = (l: SoLineRow) => withDecimals(l, ['unit_price', 'granted_price', 'amount']);
export const shipmentSummary = (s: ShipmentRow) => {
  const { created_wall: _w, ...row } = s as ShipmentRow & { created_wall?: string };
  return withDecimals(row, ['freight_charge', 'value']);
};

/**
 * GET /sales-orders/{id}: the order with its lines (and each line's allocations per warehouse), the
 * credit check made at entry, holds, shipments, invoices, status history and links.
 */
export function orderView(read: Queries, id: string) {
  const o = read.sales.order(id);
  if (!o) return undefined;
  const allocations = read.sales.allocationsOf(id);
  const shipments = read.shipments.shipmentsOfOrder(id);
  const invoices = read.receivables.invoicesOfOrder(id);
  return {
    ...orderSummary(o),
    lines: read.sales.lines(id).map((l) => ({
      ...lineView(l),
      allocations: allocations.filter((a) => a.line === l.line).map((a) => ({ warehouse: a.warehouse, qty: a.qty, shipped: a.shipped })),
    })),
    holds: read.sales.holds(id).map(({ created_wall: _w, ...h }) => h),
    shipments: shipments.map((s) => ({ id: s.id, warehouse: s.warehouse, ship_date: s.ship_date, status: s.status, invoice: s.invoice })),
    invoices: invoices.map((i) => ({ id: i.id, invoice_date: i.invoice_date, total: fromCents(i.total), status: i.status })),
    links: [
      { rel: 'customer', type: 'customer', id: o.customer },
      ...(o.source_message ? [{ rel: 'source_message', type: 'message', id: o.source_message }] : []),
      ...(o.quote ? [{ rel: 'quote', type: 'quote', id: o.quote }] : []),
      ...shipments.map((s) => ({ rel: 'shipment', type: 'shipment', id: s.id })),
      ...invoices.map((i) => ({ rel: 'ar_invoice', type: 'ar_invoice', id: i.id })),
    ],
  };
}

export function shipmentView(read: Queries, id: string) {
  const s = read.shipments.shipment(id);
  if (!s) return undefined;
  return {
    ...shipmentSummary(s),
    lines: read.shipments.shipmentLines(id).map(({ shipment: _s, ...l }) => withDecimals(l, ['unit_cost', 'value'])),
    links: [
      { rel: 'sales_order', type: 'sales_order', id: s.sales_order },
      { rel: 'customer', type: 'customer', id: s.customer },
      ...(s.invoice ? [{ rel: 'ar_invoice', type: 'ar_invoice', id: s.invoice }] : []),
    ],
  };
}

export function quoteView(read: Queries, id: string) {
  const q = read.quotes.quote(id);
  if (!q) return undefined;
  const { created_wall: _w, ...row } = q as typeof q & { created_wall?: string };
  return {
    ...withDecimals(row, ['total']),
    expired: q.status === 'open' && q.valid_until < read.clock.today(),
    lines: read.quotes.lines(id).map(({ quote: _q, ...l }) => withDecimals(l, ['unit_price', 'granted_price', 'amount'])),
    links: [{ rel: 'customer', type: 'customer', id: q.customer }, ...(q.sales_order ? [{ rel: 'sales_order', type: 'sales_order', id: q.sales_order }] : [])],
  };
}

export function rmaView(read: Queries, id: string) {
  const r = read.shipments.rma(id);
  if (!r) return undefined;
  const { created_wall: _w, ...row } = r as typeof r & { created_wall?: string };
  return {
    ...row,
    lines: read.shipments.rmaLines(id).map(({ rma: _r, ...l }) => withDecimals(l, ['unit_price', 'unit_cost', 'returned_value'])),
    links: [
      { rel: 'customer', type: 'customer', id: r.customer },
      { rel: 'ar_invoice', type: 'ar_invoice', id: r.invoice },
      ...(r.sales_order ? [{ rel: 'sales_order', type: 'sales_order', id: r.sales_order }] : []),
      ...(r.source_message ? [{ rel: 'source_message', type: 'message', id: r.source_message }] : []),
      ...(r.credit_memo ? [{ rel: 'ar_credit_memo', type: 'ar_credit_memo', id: r.credit_memo }] : []),
    ],
  };
}
