import { Type } from '@sinclair/typebox';
import { RmaApproved, RmaInspected, RmaReceived, RmaRefused, RmaRequested, type RmaLine } from '../../events/contracts/sales';
import type { RmaRow } from '../../projections/sales-shipments';
import { roundQty } from '../../projections/quantities';
import { defineAction, type RouteDef } from '../action';
import { daysBetween } from '../calendar';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { postingDate } from '../inventory/stock-inputs';
import { JournalBuilder } from '../ledger/journal';
import { roundCents } from '../money';
import { Body, DateInput, IdInput, NoteInput, Opt, QuantityInput, ReasonInput } from '../schemas';
import { LineNoInput, PositiveQty } from './inputs';
import { RMA_INSPECT, RMA_MANAGE, RMA_RECEIVE } from './permissions';
import { tag } from './pricing';
import { rmaView } from './views';

const objectType = 'rma';
const view = (read: Parameters<typeof rmaView>[0], id: string) => rmaView(read, id);

function rmaOf(ctx: DecideContext, id: string, status?: RmaRow['status']): RmaRow | Refusal {
  const rma = ctx.read.shipments.rma(id);
  if (!rma) return refuse('not_found', `No RMA ${id}.`);
  if (status && rma.status !== status) return refuse('invalid_state', `${rma.id} is ${rma.status}, not ${status}.`);
  return rma;
}

/** Units of an invoice line already on returns that were not refused. */
function alreadyReturned(ctx: DecideContext, invoice: string, invoiceLine: number): number {
  let qty = 0;
  for (const rma of ctx.read.shipments.rmasOfInvoice(invoice)) {
    if (rma.status === 'refused') continue;
    for (const l of ctx.read.shipments.rmaLines(rma.id)) if (l.invoice_line === invoiceLine) qty += l.qty;
  }
  return roundQty(qty);
}

/**
 * Returns (seed 000 C5): an RMA names the invoice lines and units coming back and records how long
 * after shipment it was asked for (the handbook's return window is a judgement, so any is
 * accepted); approved goods are received, inspected, and accepted units go back into stock at the
 * cost they shipped at; the credit memo for them is raised from the RMA (docs/receivables.md).
 */
export const returnRoutes: RouteDef[] = [
  defineAction({
    action: 'rma.request', method: 'POST', path: '/rmas', tag, status: 201, objectType,
    summary: 'Open a return (RMA) for units of an invoice, with the reason; days since shipment are recorded for the return window',
    body: Body({ invoice: IdInput, reason: ReasonInput, lines: Type.Array(Body({ invoice_line: LineNoInput, qty: PositiveQty }), { minItems: 1, maxItems: 100 }), source_message: Opt(IdInput), note: Opt(NoteInput) }),
    permission: RMA_MANAGE, emits: [RmaRequested],
    decide: ({ body }, ctx) => {
      const inv = ctx.read.receivables.invoice(body.invoice);
      if (!inv) return refuse('not_found', `No AR invoice ${body.invoice}.`);
      if (inv.status === 'voided') return refuse('invalid_state', `${inv.id} is voided.`);
      const shipDate = inv.shipment ? ctx.read.shipments.shipment(inv.shipment)?.ship_date ?? inv.invoice_date : inv.invoice_date;
      if (body.source_message && !ctx.read.messages.message(body.source_message)) return refuse('not_found', `No message ${body.source_message}.`);
      const invoiceLines = ctx.read.receivables.lines(inv.id);
      const lines: RmaLine[] = [];
      for (const [i, l] of body.lines.entries()) {
        const il = invoiceLines.find((x) => x.line === l.invoice_line);
        if (!il || il.item === null) return refuse('not_found', `${inv.id} has no item line ${l.invoice_line}.`);
        const left = roundQty(il.qty - alreadyReturned(ctx, inv.id, il.line) - lines.filter((x) => x.invoice_line === il.line).reduce((s, x) => s + x.qty, 0));
        if (l.qty > left) return refuse('invalid_request', `Line ${il.line} of ${inv.id} billed ${il.qty} ${il.item}, ${left} of them not yet on a return; ${l.qty} cannot come back.`, 422);
        lines.push({ line: i + 1, invoice_line: il.line, item: il.item, qty: l.qty, unit_price: il.unit_price, ship_date: shipDate, days_since_shipment: Math.max(0, daysBetween(shipDate, ctx.today)) });
      }
      const id = ctx.nextId('RMA');
      return emit(RmaRequested, {
        id, customer: inv.customer, invoice: inv.id, sales_order: inv.sales_order, reason: body.reason, requested_date: ctx.today, source_message: body.source_message ?? null,
        lines, note: body.note ?? '',
      }, objectType, id);
    },
    view,
  }),
  defineAction({
    action: 'rma.approve', method: 'POST', path: '/rmas/{id}/approve', tag, objectType, summary: 'Approve a requested return: the customer may send the goods back',
    body: Body({ note: Opt(NoteInput) }), permission: RMA_MANAGE, emits: [RmaApproved],
    decide: ({ params, body }, ctx) => {
      const rma = rmaOf(ctx, params.id!, 'requested');
      if (isRefusal(rma)) return rma;
      return emit(RmaApproved, { id: rma.id, note: body.note ?? '' }, objectType, rma.id);
    },
    view,
  }),
  defineAction({
    action: 'rma.refuse', method: 'POST', path: '/rmas/{id}/refuse', tag, objectType, summary: 'Refuse a requested return with a reason (outside the return window, not returnable)',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }), permission: RMA_MANAGE, emits: [RmaRefused],
    decide: ({ params, body }, ctx) => {
      const rma = rmaOf(ctx, params.id!, 'requested');
      if (isRefusal(rma)) return rma;
      return emit(RmaRefused, { id: rma.id, reason: body.reason, note: body.note ?? '' }, objectType, rma.id);
    },
    view,
  }),
  defineAction({
    action: 'rma.receive', method: 'POST', path: '/rmas/{id}/receive', tag, objectType,
    summary: 'Receive the returned goods of an approved RMA into a warehouse, to wait for inspection (nothing is in stock or posted yet)',
    body: Body({ warehouse: IdInput, lines: Opt(Type.Array(Body({ line: LineNoInput, qty: PositiveQty }), { minItems: 1, maxItems: 100 })), date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: RMA_RECEIVE, emits: [RmaReceived],
    decide: ({ params, body }, ctx) => {
      const rma = rmaOf(ctx, params.id!, 'approved');
      if (isRefusal(rma)) return rma;
      if (!ctx.read.items.warehouse(body.warehouse)) return refuse('not_found', `No warehouse ${body.warehouse}.`);
      const date = body.date ?? ctx.today;
      if (date > ctx.today) return refuse('invalid_request', `Goods cannot be received after today (${ctx.today}).`, 422);
      const rmaLines = ctx.read.shipments.rmaLines(rma.id);
      const lines = body.lines ?? rmaLines.map((l) => ({ line: l.line, qty: l.qty }));
      for (const l of lines) {
        const rl = rmaLines.find((x) => x.line === l.line);
        if (!rl) return refuse('not_found', `${rma.id} has no line ${l.line}.`);
        if (l.qty > rl.qty) return refuse('invalid_request', `Line ${l.line} of ${rma.id} returns ${rl.qty}; ${l.qty} cannot be received.`, 422);
      }
      return emit(RmaReceived, { id: rma.id, warehouse: body.warehouse, date, lines, note: body.note ?? '' }, objectType, rma.id);
    },
    view,
  }),
  defineAction({
    action: 'rma.inspect', method: 'POST', path: '/rmas/{id}/inspection', tag, objectType,
    summary: 'Record the inspection of received returns: accepted units back into stock at the cost they shipped at (Dr inventory, Cr COGS); rejected units go back to the customer',
    body: Body({
      location: Opt(IdInput), note: Opt(NoteInput),
      lines: Type.Array(Body({ line: LineNoInput, accepted_qty: QuantityInput, rejected_qty: Opt(QuantityInput), result: ReasonInput }), { minItems: 1, maxItems: 100 }),
    }),
    permission: RMA_INSPECT, emits: [RmaInspected],
    decide: ({ params, body }, ctx) => {
      const rma = rmaOf(ctx, params.id!, 'received');
      if (isRefusal(rma)) return rma;
      const warehouse = ctx.read.shipments.rma(rma.id)!.warehouse!;
      const location = body.location ?? (ctx.read.items.location(warehouse, 'QC') ? 'QC' : ctx.read.items.locations(warehouse)[0]?.code ?? null);
      if (body.location && !ctx.read.items.location(warehouse, body.location)) return refuse('not_found', `Warehouse ${warehouse} has no location ${body.location}.`);
      const date = postingDate(ctx, undefined, true);
      if (isRefusal(date)) return date;
      const rmaLines = ctx.read.shipments.rmaLines(rma.id);
      const invoiceLines = ctx.read.receivables.lines(rma.invoice);
      const cogs = ctx.read.receivables.policy().cogs_account;
      const journal = new JournalBuilder(date, `Returned goods of ${rma.id} accepted into stock`);
      const lines = [];
      const inventory = [];
      for (const l of body.lines) {
        const rl = rmaLines.find((x) => x.line === l.line);
        if (!rl) return refuse('not_found', `${rma.id} has no line ${l.line}.`);
        const rejected = l.rejected_qty ?? roundQty(rl.received_qty - l.accepted_qty);
        if (roundQty(l.accepted_qty + rejected) !== rl.received_qty) return refuse('invalid_request', `Line ${l.line} of ${rma.id} received ${rl.received_qty}; accepted and rejected must add up to it.`, 422);
        const il = invoiceLines.find((x) => x.line === rl.invoice_line)!;
        const unitCost = il.qty > 0 ? roundCents(il.cost / il.qty) : 0;
        const value = roundCents(unitCost * l.accepted_qty);
        lines.push({ line: l.line, accepted_qty: l.accepted_qty, rejected_qty: rejected, result: l.result, unit_cost: unitCost, value });
        if (l.accepted_qty > 0) {
          const item = ctx.read.items.item(rl.item)!;
          inventory.push({
            type: 'customer_return' as const, date, item: rl.item, warehouse, location, lot: null, expiry: null, qty: l.accepted_qty, unit_cost: unitCost, value,
            document_type: 'rma', document_id: rma.id, document_line: l.line,
          });
          journal.transfer(item.inventory_account!, cogs, value, { party_type: 'customer', party_id: rma.customer, document_id: rma.id });
        }
      }
      if (lines.length !== rmaLines.filter((l) => l.received_qty > 0).length) return refuse('invalid_request', `Inspect every received line of ${rma.id} at once.`, 422);
      const built = journal.build(ctx.read);
      if (isRefusal(built)) return built;
      return emit(RmaInspected, {
        id: rma.id, warehouse, location, lines, note: body.note ?? '', ...(inventory.length ? { journal: built, inventory } : {}),
      }, objectType, rma.id);
    },
    view,
  }),
];
