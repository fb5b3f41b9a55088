import { Type } from '@sinclair/typebox';
import {
  SalesOrderCancelled, SalesOrderEntered, SalesOrderLineCancelled, SalesOrderLineRevised, SalesOrderReleased, type AllocationLine,
} from '../../events/contracts/sales';
import type { AllocationRow, SalesOrderRow } from '../../projections/sales-orders';
import { roundQty } from '../../projections/quantities';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { FreightTermsInput, LineNoInput, OrderLineInput, PositiveQty } from './inputs';
import { creditCheck, creditHoldNote, priceLines, shipToOf, type LineRequest } from './order-pricing';
import { SALES_ORDER_ENTER } from './permissions';
import { grantedPrice, tag } from './pricing';
import { orderView } from './views';

export const objectType = 'sales_order';
const view = (read: Parameters<typeof orderView>[0], id: string) => orderView(read, id);

export function orderOf(ctx: DecideContext, id: string): SalesOrderRow | Refusal {
  return ctx.read.sales.order(id) ?? refuse('not_found', `No sales order ${id}.`);
}

interface OrderRequest {
  customer: string;
  ship_to: string;
  customer_po?: string;
  source_message?: string;
  requested_date?: string;
  freight_terms?: 'prepaid' | 'prepay_and_add' | 'collect';
  note?: string;
  lines: LineRequest[];
}

/**
 * Entry (seed 000 §4, C1): lines priced as the customer is granted unless a price is given, the
 * credit check run, and the order put on a credit hold when it fails and on a pricing hold when a
 * line is priced other than granted. Nothing is reserved until the order is released and allocated.
 */
export function enterOrder(ctx: DecideContext, body: OrderRequest, quote: string | null) {
  const customer = ctx.read.customers.customer(body.customer);
  if (!customer) return refuse('not_found', `No customer ${body.customer}.`);
  if (customer.status !== 'active') return refuse('invalid_state', `Customer ${customer.id} is inactive; it cannot order.`);
  if (body.lines.length === 0) return refuse('invalid_request', 'A sales order needs at least one line.', 422);
  const shipTo = shipToOf(ctx, customer.id, body.ship_to);
  if (isRefusal(shipTo)) return shipTo;
  if (body.source_message && !ctx.read.messages.message(body.source_message)) return refuse('not_found', `No message ${body.source_message}.`);
  const requested = body.requested_date ?? ctx.today;
  if (requested < ctx.today) return refuse('invalid_request', `A requested date cannot be before today (${ctx.today}).`, 422);
  const priced = priceLines(ctx.read, customer.id, body.lines, ctx.today, requested);
  if (isRefusal(priced)) return priced;
  const check = creditCheck(ctx.read, customer.id, priced.total);
  const holds = [];
  if (check.result !== 'ok') holds.push({ hold: ctx.nextId('SOH'), reason: 'credit' as const, note: creditHoldNote(check) });
  if (priced.offPrice.length) holds.push({ hold: ctx.nextId('SOH'), reason: 'pricing' as const, note: `Priced other than granted: ${priced.offPrice.join('; ')}.` });
  const id = ctx.nextId('SO');
  return emit(SalesOrderEntered, {
    id, customer: customer.id, ship_to: shipTo.code, ship_to_region: shipTo.region, customer_po: body.customer_po ?? '', source_message: body.source_message ?? null,
    quote, order_date: ctx.today, requested_date: requested, freight_terms: body.freight_terms ?? customer.freight_terms, tax_code: shipTo.tax_code,
    tax_rate_bp: shipTo.tax_rate_bp, lines: priced.lines, total: priced.total, credit_check: check, holds, note: body.note ?? '',
  }, objectType, id);
}

/** The allocations of a line to free when its open quantity falls to `keep`, largest warehouses last. */
export function freed(allocations: readonly AllocationRow[], line: number, keep: number): AllocationLine[] {
  const open = allocations.filter((a) => a.line === line && a.qty > 0).sort((a, b) => (a.warehouse < b.warehouse ? 1 : -1));
  let excess = roundQty(open.reduce((s, a) => s + a.qty, 0) - keep);
  const out: AllocationLine[] = [];
  for (const a of open) {
    if (excess <= 0) break;
    const qty = Math.min(a.qty, excess);
    out.push({ line, item: a.item, warehouse: a.warehouse, qty });
    excess = roundQty(excess - qty);
  }
  return out;
}

export const orderRoutes: RouteDef[] = [
  defineAction({
    action: 'sales_order.enter', method: 'POST', path: '/sales-orders', tag, status: 201, objectType,
    summary: 'Enter a sales order: prices default to the customer\'s contract or price list; the credit check and price check may put it on hold',
    description: 'A credit hold is placed when open AR plus open orders plus this order exceed the credit limit, or the customer is on credit hold; a pricing hold when a line is priced other than granted.',
    body: Body({
      customer: IdInput, ship_to: IdInput, customer_po: Opt(Type.String({ maxLength: 80 })), source_message: Opt(IdInput), requested_date: Opt(DateInput),
      freight_terms: Opt(FreightTermsInput), note: Opt(NoteInput), lines: Type.Array(OrderLineInput, { minItems: 1, maxItems: 200 }),
    }),
    permission: SALES_ORDER_ENTER, emits: [SalesOrderEntered],
    decide: ({ body }, ctx) => enterOrder(ctx, body, null),
    view,
  }),
  defineAction({
    action: 'sales_order.revise_line', method: 'POST', path: '/sales-orders/{id}/lines/{line}/revise', tag, objectType,
    params: Type.Object({ id: IdInput, line: Type.String({ pattern: '^[1-9][0-9]{0,4}$' }) }),
    summary: 'Change the quantity or price of a line nothing has shipped on; a price other than granted puts the order on a pricing hold',
    body: Body({ qty: Opt(PositiveQty), unit_price: Opt(MoneyInput), note: Opt(NoteInput) }),
    permission: SALES_ORDER_ENTER, emits: [SalesOrderLineRevised],
    decide: ({ params, body }, ctx) => {
      const order = orderOf(ctx, params.id!);
      if (isRefusal(order)) return order;
      const line = ctx.read.sales.line(order.id, Number(params.line));
      if (!line) return refuse('not_found', `${order.id} has no line ${params.line}.`);
      if (order.lifecycle === 'cancelled' || line.status !== 'open') return refuse('invalid_state', `Line ${line.line} of ${order.id} is ${order.lifecycle === 'cancelled' ? 'cancelled' : line.status}.`);
      if (line.shipped_qty > 0) return refuse('invalid_state', `${line.shipped_qty} of line ${line.line} has shipped; cancel what is left and add a new order instead.`);
      if (body.qty === undefined && body.unit_price === undefined) return refuse('invalid_request', 'Give a new qty or unit_price.', 422);
      const qty = body.qty ?? line.qty;
      if (qty < line.allocated_qty) return refuse('invalid_state', `${line.allocated_qty} of line ${line.line} is allocated; deallocate before reducing it to ${qty}.`);
      const granted = grantedPrice(ctx.read, order.customer, line.item, qty, order.order_date);
      const priced = priceLines(ctx.read, order.customer, [{ item: line.item, qty, unit_price: body.unit_price ?? (body.qty !== undefined && line.unit_price === line.granted_price ? undefined : line.unit_price / 100) }], order.order_date, line.requested_date);
      if (isRefusal(priced)) return priced;
      const unitPrice = priced.lines[0]!.unit_price;
      const pricingOpen = ctx.read.sales.openHolds(order.id).some((h) => h.reason === 'pricing');
      const holds = priced.offPrice.length && !pricingOpen ? [{ hold: ctx.nextId('SOH'), reason: 'pricing' as const, note: `Revised ${priced.offPrice[0]!.replace(/^line 1/, `line ${line.line}`)}.` }] : [];
      return emit(SalesOrderLineRevised, {
        id: order.id, line: line.line, previous: { qty: line.qty, unit_price: line.unit_price }, qty, unit_price: unitPrice,
        granted_price: granted?.unit_price ?? null, price_source: granted?.source ?? { type: 'none', id: null }, holds, note: body.note ?? '',
      }, objectType, order.id);
    },
    view,
  }),
  defineAction({
    action: 'sales_order.release', method: 'POST', path: '/sales-orders/{id}/release', tag, objectType,
    summary: 'Release an entered order to be allocated and shipped; refused while a hold is open (order_on_hold)',
    body: Body({ note: Opt(NoteInput) }),
    permission: SALES_ORDER_ENTER, emits: [SalesOrderReleased],
    decide: ({ params, body }, ctx) => {
      const order = orderOf(ctx, params.id!);
      if (isRefusal(order)) return order;
      if (order.lifecycle !== 'entered') return refuse('invalid_state', `${order.id} is ${order.status}; only an entered order is released.`);
      const holds = ctx.read.sales.openHolds(order.id);
      if (holds.length) return refuse('order_on_hold', `${order.id} is on hold (${holds.map((h) => `${h.id} ${h.reason}`).join(', ')}); release the hold first.`);
      return emit(SalesOrderReleased, { id: order.id, note: body.note ?? '' }, objectType, order.id);
    },
    view,
  }),
  defineAction({
    action: 'sales_order.cancel_line', method: 'POST', path: '/sales-orders/{id}/lines/{line}/cancel', tag, objectType,
    params: Type.Object({ id: IdInput, line: Type.String({ pattern: '^[1-9][0-9]{0,4}$' }) }),
    summary: 'Cancel what is left of a line (all of it unless qty is given), freeing its allocations',
    body: Body({ qty: Opt(PositiveQty), reason: ReasonInput, note: Opt(NoteInput) }),
    permission: SALES_ORDER_ENTER, emits: [SalesOrderLineCancelled],
    decide: ({ params, body }, ctx) => {
      const order = orderOf(ctx, params.id!);
      if (isRefusal(order)) return order;
      const line = ctx.read.sales.line(order.id, Number(params.line));
      if (!line) return refuse('not_found', `${order.id} has no line ${params.line}.`);
      const left = roundQty(line.qty - line.cancelled_qty - line.shipped_qty);
      if (order.lifecycle === 'cancelled' || left <= 0) return refuse('invalid_state', `Line ${line.line} of ${order.id} has nothing left to cancel.`);
      const qty = body.qty ?? left;
      if (qty > left) return refuse('invalid_request', `Line ${line.line} has ${left} left to ship; ${qty} cannot be cancelled.`, 422);
      const deallocated = freed(ctx.read.sales.allocationsOf(order.id), line.line, roundQty(left - qty));
      return emit(SalesOrderLineCancelled, { id: order.id, line: line.line, qty, deallocated, reason: body.reason, note: body.note ?? '' }, objectType, order.id);
    },
    view,
  }),
  defineAction({
    action: 'sales_order.cancel', method: 'POST', path: '/sales-orders/{id}/cancel', tag, objectType,
    summary: 'Cancel an order nothing has shipped on, with a reason; its allocations are freed',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: SALES_ORDER_ENTER, emits: [SalesOrderCancelled],
    decide: ({ params, body }, ctx) => {
      const order = orderOf(ctx, params.id!);
      if (isRefusal(order)) return order;
      if (order.lifecycle === 'cancelled') return refuse('invalid_state', `${order.id} is already cancelled.`);
      if (order.qty_shipped > 0) return refuse('invalid_state', `${order.id} has shipped ${order.qty_shipped}; cancel its remaining lines instead.`);
      const deallocated = ctx.read.sales.allocationsOf(order.id).filter((a) => a.qty > 0).map((a) => ({ line: a.line, item: a.item, warehouse: a.warehouse, qty: a.qty }));
      return emit(SalesOrderCancelled, { id: order.id, deallocated, reason: body.reason, note: body.note ?? '' }, objectType, order.id);
    },
    view,
  }),
];
