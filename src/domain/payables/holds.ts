import { Type } from '@sinclair/typebox';
import { ApInvoiceHoldPlaced, ApInvoiceHoldReleased, HOLD_REASONS, type HoldReason } from '../../events/contracts/payables';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { Body, IdInput, ListQuery, NoteInput, Opt } from '../schemas';
import { invoiceOf, tag } from './invoices';
import { AP_HOLD } from './permissions';
import { invoiceView } from './views';

export const HoldReasonInput = Type.Union(HOLD_REASONS.map((r) => Type.Literal(r)), { description: `One of ${HOLD_REASONS.join(', ')}` });

/**
 * Holds (seed §4): an invoice is on hold while any hold is open. A hold stops validation, approval
 * and payment (invoice_on_hold) until released with a note.
 */
export const holdRoutes: RouteDef[] = [
  defineAction({
    action: 'ap_invoice.hold', method: 'POST', path: '/ap-invoices/{id}/holds', tag, objectType: 'ap_invoice', status: 201,
    summary: 'Place a hold on an invoice with a reason code',
    body: Body({ reason: HoldReasonInput, note: Opt(NoteInput) }),
    permission: AP_HOLD, emits: [ApInvoiceHoldPlaced],
    decide: ({ params, body }, ctx) => {
      const inv = invoiceOf(ctx, params.id!);
      if (isRefusal(inv)) return inv;
      if (['paid', 'rejected', 'voided'].includes(inv.lifecycle)) return refuse('invalid_state', `${inv.id} is ${inv.lifecycle}; there is nothing left to hold.`);
      const same = ctx.read.payables.openHolds(inv.id).find((h) => h.reason === body.reason);
      if (same) return refuse('already_exists', `${inv.id} already has an open ${body.reason} hold (${same.id}).`);
      const hold = ctx.nextId('HOLD');
      return emit(ApInvoiceHoldPlaced, { hold, invoice: inv.id, reason: body.reason as HoldReason, note: body.note ?? '' }, 'ap_invoice', inv.id);
    },
    view: (read, id) => invoiceView(read, id),
  }),
  defineAction({
    action: 'ap_invoice.release_hold', method: 'POST', path: '/holds/{id}/release', tag, objectType: 'hold',
    summary: 'Release an open hold, with a note saying why',
    body: Body({ note: Type.String({ minLength: 1, maxLength: 4000 }) }),
    permission: AP_HOLD, emits: [ApInvoiceHoldReleased],
    decide: ({ params, body }, ctx) => {
      const hold = ctx.read.payables.hold(params.id!);
      if (!hold) return refuse('not_found', `No hold ${params.id}.`);
      if (hold.status !== 'open') return refuse('invalid_state', `${hold.id} was already released on ${hold.released_date}.`);
      return emit(ApInvoiceHoldReleased, { hold: hold.id, invoice: hold.invoice, reason: hold.reason as HoldReason, note: body.note }, 'hold', hold.id);
    },
    view: (read, id) => {
      const hold = read.payables.hold(id);
      return hold && { ...hold, invoice_status: read.payables.invoice(hold.invoice)?.status };
    },
  }),
  defineQuery({
    path: '/holds', tag, permission: null, summary: 'Holds across invoices, by status, reason or invoice',
    query: ListQuery({ status: Opt(Type.Union([Type.Literal('open'), Type.Literal('released')])), reason: Opt(HoldReasonInput), invoice: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'holds', { status: query.status, reason: query.reason, invoice: query.invoice }, query),
  }),
];
