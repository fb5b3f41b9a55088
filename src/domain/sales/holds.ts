import { Type } from '@sinclair/typebox';
import { SalesOrderHoldPlaced, SalesOrderHoldReleased, type SalesHoldReason } from '../../events/contracts/sales';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { Body, IdInput, ListQuery, NoteInput, Opt } from '../schemas';
import { SalesHoldReasonInput } from './inputs';
import { orderOf } from './orders';
import { CREDIT_HOLD_RELEASE, PRICING_HOLD_RELEASE, SALES_ORDER_ENTER } from './permissions';
import { tag } from './pricing';
import { orderView } from './views';

/** Who may release a hold of each reason: a credit hold only the credit manager (seed 000 C1, a hard control). */
const RELEASED_BY: Record<SalesHoldReason, string> = { credit: CREDIT_HOLD_RELEASE, pricing: PRICING_HOLD_RELEASE, other: SALES_ORDER_ENTER };

/**
 * Holds on sales orders (seed 000 §4): an order on hold is not released, allocated or shipped
 * (order_on_hold) until every hold on it is released with a note.
 */
export const holdRoutes: RouteDef[] = [
  defineAction({
    action: 'sales_order.hold', method: 'POST', path: '/sales-orders/{id}/holds', tag, status: 201, objectType: 'sales_order',
    summary: 'Put a sales order on hold with a reason: credit, pricing or other',
    body: Body({ reason: SalesHoldReasonInput, note: Opt(NoteInput) }),
    permission: SALES_ORDER_ENTER, emits: [SalesOrderHoldPlaced],
    decide: ({ params, body }, ctx) => {
      const order = orderOf(ctx, params.id!);
      if (isRefusal(order)) return order;
      if (['cancelled', 'shipped', 'invoiced'].includes(order.status)) return refuse('invalid_state', `${order.id} is ${order.status}; there is nothing left to hold.`);
      const same = ctx.read.sales.openHolds(order.id).find((h) => h.reason === body.reason);
      if (same) return refuse('already_exists', `${order.id} already has an open ${body.reason} hold (${same.id}).`);
      return emit(SalesOrderHoldPlaced, { hold: ctx.nextId('SOH'), sales_order: order.id, reason: body.reason as SalesHoldReason, note: body.note ?? '' }, 'sales_order', order.id);
    },
    view: (read, id) => orderView(read, id),
  }),
  defineAction({
    action: 'sales_order.release_hold', method: 'POST', path: '/sales-order-holds/{id}/release', tag, objectType: 'sales_order_hold',
    summary: 'Release a hold with a note: a credit hold only with credit_hold.release (the credit manager), a pricing hold with pricing_hold.release',
    body: Body({ note: Type.String({ minLength: 1, maxLength: 4000 }) }),
    permission: null, emits: [SalesOrderHoldReleased],
    decide: ({ params, body }, ctx) => {
      const hold = ctx.read.sales.hold(params.id!);
      if (!hold) return refuse('not_found', `No sales order hold ${params.id}.`);
      const needs = RELEASED_BY[hold.reason as SalesHoldReason];
      if (!ctx.actor.permissions.has(needs)) return refuse('forbidden', `Releasing a ${hold.reason} hold needs the ${needs} permission, which your roles do not grant.`);
      if (hold.status !== 'open') return refuse('invalid_state', `${hold.id} was already released on ${hold.released_date}.`);
      return emit(SalesOrderHoldReleased, { hold: hold.id, sales_order: hold.sales_order, reason: hold.reason as SalesHoldReason, note: body.note }, 'sales_order_hold', hold.id);
    },
    view: (read, id) => {
      const hold = read.sales.hold(id);
      return hold && { ...hold, order_status: read.sales.order(hold.sales_order)?.status };
    },
  }),
  defineQuery({
    path: '/sales-order-holds', tag, permission: null, summary: 'Holds on sales orders, by status, reason, order or customer',
    query: ListQuery({ status: Opt(Type.Union([Type.Literal('open'), Type.Literal('released')])), reason: Opt(SalesHoldReasonInput), sales_order: Opt(IdInput), customer: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'sales_order_holds', { status: query.status, reason: query.reason, sales_order: query.sales_order, customer: query.customer }, query),
  }),
];
