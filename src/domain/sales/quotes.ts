import { Type } from '@sinclair/typebox';
import { QuoteCancelled, QuoteCreated, SalesOrderEntered } from '../../events/contracts/sales';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { Body, DateInput, IdInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { OrderLineInput } from './inputs';
import { priceLines, shipToOf } from './order-pricing';
import { enterOrder } from './orders';
import { QUOTE_MANAGE, SALES_ORDER_ENTER } from './permissions';
import { tag } from './pricing';
import { orderView, quoteView } from './views';

/**
 * Quotes: priced like orders (a price other than granted is recorded, and carried to the order,
 * whose price check then holds it). Converting a quote enters a sales order with its lines.
 */
export const quoteRoutes: RouteDef[] = [
  defineAction({
    action: 'quote.create', method: 'POST', path: '/quotes', tag, status: 201, objectType: 'quote',
    summary: 'Quote a customer: lines priced as it is granted unless a price is given, valid until a date',
    body: Body({
      customer: IdInput, ship_to: IdInput, valid_until: DateInput, source_message: Opt(IdInput), note: Opt(NoteInput),
      lines: Type.Array(OrderLineInput, { minItems: 1, maxItems: 200 }),
    }),
    permission: QUOTE_MANAGE, emits: [QuoteCreated],
    decide: ({ body }, ctx) => {
      const customer = ctx.read.customers.customer(body.customer);
      if (!customer) return refuse('not_found', `No customer ${body.customer}.`);
      const shipTo = shipToOf(ctx, customer.id, body.ship_to);
      if (isRefusal(shipTo)) return shipTo;
      if (body.valid_until < ctx.today) return refuse('invalid_request', `A quote cannot expire before today (${ctx.today}).`, 422);
      if (body.source_message && !ctx.read.messages.message(body.source_message)) return refuse('not_found', `No message ${body.source_message}.`);
      const priced = priceLines(ctx.read, customer.id, body.lines, ctx.today, ctx.today);
      if (isRefusal(priced)) return priced;
      const id = ctx.nextId('QT');
      return emit(QuoteCreated, {
        id, customer: customer.id, ship_to: shipTo.code, quote_date: ctx.today, valid_until: body.valid_until,
        lines: priced.lines.map(({ requested_date: _r, ...l }) => l), total: priced.total, source_message: body.source_message ?? null, note: body.note ?? '',
      }, 'quote', id);
    },
    view: quoteView,
  }),
  defineAction({
    action: 'quote.cancel', method: 'POST', path: '/quotes/{id}/cancel', tag, objectType: 'quote',
    summary: 'Cancel an open quote with a reason (the customer declined)',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: QUOTE_MANAGE, emits: [QuoteCancelled],
    decide: ({ params, body }, ctx) => {
      const quote = ctx.read.quotes.quote(params.id!);
      if (!quote) return refuse('not_found', `No quote ${params.id}.`);
      if (quote.status !== 'open') return refuse('invalid_state', `${quote.id} is ${quote.status}.`);
      return emit(QuoteCancelled, { id: quote.id, reason: body.reason, note: body.note ?? '' }, 'quote', quote.id);
    },
    view: quoteView,
  }),
  defineAction({
    action: 'quote.convert', method: 'POST', path: '/quotes/{id}/convert', tag, status: 201, objectType: 'sales_order',
    summary: 'Enter a sales order from an open quote that has not expired, at its quoted prices (credit and price checks as for any order)',
    body: Body({ customer_po: Opt(Type.String({ maxLength: 80 })), requested_date: Opt(DateInput), source_message: Opt(IdInput), note: Opt(NoteInput) }),
    permission: SALES_ORDER_ENTER, emits: [SalesOrderEntered],
    decide: ({ params, body }, ctx) => {
      const quote = ctx.read.quotes.quote(params.id!);
      if (!quote) return refuse('not_found', `No quote ${params.id}.`);
      if (quote.status !== 'open') return refuse('invalid_state', `${quote.id} is ${quote.status}.`);
      if (quote.valid_until < ctx.today) return refuse('invalid_state', `${quote.id} expired on ${quote.valid_until}.`);
      const lines = ctx.read.quotes.lines(quote.id).map((l) => ({ item: l.item, qty: l.qty, unit_price: l.unit_price / 100 }));
      return enterOrder(ctx, { customer: quote.customer, ship_to: quote.ship_to, ...body, lines }, quote.id);
    },
    view: (read, id) => orderView(read, id),
  }),
];
