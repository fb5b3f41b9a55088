import { Type } from '@sinclair/typebox';
import type { SalesOrderRow } from '../../projections/sales-orders';
import type { ShipmentRow } from '../../projections/sales-shipments';
import { defineQuery, listPage, type RouteDef } from '../action';
import { IdInput, ListQuery, Opt } from '../schemas';
import { tag } from './pricing';
import { orderSummary, orderView, quoteView, rmaView, shipmentSummary, shipmentView } from './views';

const OrderStatus = Type.Union(['entered', 'on_hold', 'released', 'allocated', 'partially_shipped', 'shipped', 'invoiced', 'cancelled'].map((s) => Type.Literal(s)));
const RmaStatus = Type.Union(['requested', 'approved', 'refused', 'received', 'inspected', 'credited'].map((s) => Type.Literal(s)));
const none = Type.Object({}, { additionalProperties: false });
const one = <T>(path: string, objectType: string, summary: string, run: (read: Parameters<typeof orderView>[0], id: string) => T) =>
  defineQuery({ path, tag, summary, permission: null, objectType, query: none, run: ({ params }, ctx) => run(ctx.read, params.id!) });

export const salesReadRoutes: RouteDef[] = [
  defineQuery({
    path: '/sales-orders', tag, permission: null, summary: 'Sales orders, by status, customer, customer PO or source message',
    query: ListQuery({ status: Opt(OrderStatus), customer: Opt(IdInput), customer_po: Opt(Type.String({ maxLength: 80 })), source_message: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'sales_orders', { status: query.status, customer: query.customer, customer_po: query.customer_po, source_message: query.source_message }, query, {
      map: (r) => orderSummary(r as unknown as SalesOrderRow),
    }),
  }),
  one('/sales-orders/{id}', 'sales_order', 'A sales order: lines with their allocations, the credit check, holds, shipments, invoices, status history and links', orderView),
  defineQuery({
    path: '/shipments', tag, permission: null, summary: 'Shipments, by order, customer, warehouse or status (shipped = not yet invoiced)',
    query: ListQuery({ sales_order: Opt(IdInput), customer: Opt(IdInput), warehouse: Opt(IdInput), status: Opt(Type.Union([Type.Literal('shipped'), Type.Literal('invoiced')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'shipments', { sales_order: query.sales_order, customer: query.customer, warehouse: query.warehouse, status: query.status }, query, {
      map: (r) => shipmentSummary(r as unknown as ShipmentRow),
    }),
  }),
  one('/shipments/{id}', 'shipment', 'A shipment with the lots and locations it picked, at cost', shipmentView),
  defineQuery({
    path: '/quotes', tag, permission: null, summary: 'Quotes, by customer and status',
    query: ListQuery({ customer: Opt(IdInput), status: Opt(Type.Union([Type.Literal('open'), Type.Literal('converted'), Type.Literal('cancelled')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'quotes', { customer: query.customer, status: query.status }, query, { map: (r) => quoteView(ctx.read, r.id as string) }),
  }),
  one('/quotes/{id}', 'quote', 'A quote with its priced lines', quoteView),
  defineQuery({
    path: '/rmas', tag, permission: null, summary: 'Returns (RMAs), by status, customer or invoice',
    query: ListQuery({ status: Opt(RmaStatus), customer: Opt(IdInput), invoice: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'rmas', { status: query.status, customer: query.customer, invoice: query.invoice }, query, { map: (r) => rmaView(ctx.read, r.id as string) }),
  }),
  one('/rmas/{id}', 'rma', 'A return: lines as requested, received and inspected, and its credit memo', rmaView),
];
