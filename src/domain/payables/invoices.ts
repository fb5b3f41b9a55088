import { Type } from '@sinclair/typebox';
import { ApInvoiceEntered, ApInvoiceFlaggedDuplicate, ApInvoiceNoteAdded, ApInvoiceRevised } from '../../events/contracts/payables';
import type { ApInvoiceRow } from '../../projections/payables-invoices';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { VendorIdInput } from '../master/inputs';
import { Body, DateInput, IdInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { BilledInput, parseBilled, type Billed } from './billed';
import { AP_ENTER } from './permissions';
import { invoiceView } from './views';

export const tag = 'payables';
export const objectType = 'ap_invoice';

export function invoiceOf(ctx: DecideContext, id: string): ApInvoiceRow | Refusal {
  return ctx.read.payables.invoice(id) ?? refuse('not_found', `No AP invoice ${id}.`);
}

/** The billed fields of a row, as an event carries them. */
export function billedOf(ctx: DecideContext, inv: ApInvoiceRow): Billed {
  return {
    vendor_invoice_number: inv.vendor_invoice_number, normalized_number: inv.normalized_number, invoice_date: inv.invoice_date,
    lines: ctx.read.payables.lines(inv.id).map((l) => ({
      line: l.line, po_line: l.po_line, item: l.item, description: l.description, qty: l.qty, unit_price: l.unit_price, amount: l.amount,
      account: l.account, department: l.department,
    })),
    tax: inv.tax, freight: inv.freight, total: inv.total, terms: inv.terms, due_date: inv.due_date, discount_date: inv.discount_date, discount_amount: inv.discount_amount,
  };
}

const view = (read: Parameters<typeof invoiceView>[0], id: string) => invoiceView(read, id);

/**
 * Entering is recording: the system keeps what the vendor printed and never recomputes it. A
 * second live invoice with the same vendor and number is accepted (not entering duplicates is a
 * handbook rule the grader judges); the response lists it under possible_duplicates.
 */
export const invoiceRoutes: RouteDef[] = [
  defineAction({
    action: 'ap_invoice.enter', method: 'POST', path: '/ap-invoices', tag, status: 201, objectType,
    summary: 'Enter a vendor invoice exactly as billed (lines, tax, freight, total as printed)',
    description: 'Due date, discount date and discount follow from the vendor\'s terms. Lines billing a PO line name it; other lines carry a GL account and department.',
    body: Body({
      vendor: VendorIdInput, po: Opt(IdInput), source_message: Opt(IdInput), department: Opt(IdInput), ...BilledInput, note: Opt(NoteInput),
    }),
    permission: AP_ENTER, emits: [ApInvoiceEntered],
    decide: ({ body }, ctx) => {
      const vendor = ctx.read.vendors.vendor(body.vendor);
      if (!vendor) return refuse('not_found', `No vendor ${body.vendor}.`);
      const po = body.po ? ctx.read.purchasing.po(body.po) : null;
      if (body.po && !po) return refuse('not_found', `No purchase order ${body.po}.`);
      if (po && po.vendor !== vendor.id) return refuse('invalid_request', `${po.id} was placed with ${po.vendor}, not ${vendor.id}.`, 422);
      if (body.source_message && !ctx.read.messages.message(body.source_message)) return refuse('not_found', `No message ${body.source_message}.`);
      if (body.department && !ctx.read.org.department(body.department)) return refuse('not_found', `No department ${body.department}.`);
      const billed = parseBilled(ctx.read, vendor.terms, po ?? null, body);
      if (isRefusal(billed)) return billed;
      const id = ctx.nextId('APINV');
      return emit(ApInvoiceEntered, {
        id, vendor: vendor.id, po: po?.id ?? null, source_message: body.source_message ?? null, department: body.department ?? null, ...billed, note: body.note ?? '',
      }, objectType, id);
    },
    view,
  }),
  defineAction({
    action: 'ap_invoice.revise', method: 'POST', path: '/ap-invoices/{id}/revise', tag, objectType,
    summary: 'Change billed values of an invoice not yet posted; the event keeps the old values beside the new',
    body: Body({
      vendor_invoice_number: Opt(BilledInput.vendor_invoice_number), invoice_date: Opt(DateInput), lines: BilledInput.lines, tax: BilledInput.tax,
      freight: BilledInput.freight, total: BilledInput.total, reason: Opt(ReasonInput), note: Opt(NoteInput),
    }),
    permission: AP_ENTER, emits: [ApInvoiceRevised],
    decide: ({ params, body }, ctx) => {
      const inv = invoiceOf(ctx, params.id!);
      if (isRefusal(inv)) return inv;
      if (inv.posted) return refuse('posted_document_immutable', `${inv.id} is posted; correct it with a debit memo, a credit memo or a void.`);
      if (inv.lifecycle !== 'entered') return refuse('invalid_state', `${inv.id} is ${inv.lifecycle}; only an entered invoice can be revised.`);
      const previous = billedOf(ctx, inv);
      const po = inv.po ? ctx.read.purchasing.po(inv.po) ?? null : null;
      const billed = parseBilled(ctx.read, inv.terms, po, {
        vendor_invoice_number: body.vendor_invoice_number ?? inv.vendor_invoice_number, invoice_date: body.invoice_date ?? inv.invoice_date,
        lines: body.lines, tax: body.tax ?? previous.tax / 100, freight: body.freight ?? previous.freight / 100, total: body.total,
      });
      if (isRefusal(billed)) return billed;
      return emit(ApInvoiceRevised, { id: inv.id, previous, ...billed, reason: body.reason ?? null, note: body.note ?? '' }, objectType, inv.id);
    },
    view,
  }),
  defineAction({
    action: 'ap_invoice.add_note', method: 'POST', path: '/ap-invoices/{id}/notes', tag, objectType,
    summary: 'Add a note to an invoice',
    body: Body({ text: Type.String({ minLength: 1, maxLength: 4000 }) }),
    permission: AP_ENTER, emits: [ApInvoiceNoteAdded],
    decide: ({ params, body }, ctx) => {
      const inv = invoiceOf(ctx, params.id!);
      if (isRefusal(inv)) return inv;
      return emit(ApInvoiceNoteAdded, { id: inv.id, text: body.text }, objectType, inv.id);
    },
    view,
  }),
  defineAction({
    action: 'ap_invoice.flag_duplicate', method: 'POST', path: '/ap-invoices/{id}/flag-duplicate', tag, objectType,
    summary: 'Flag an invoice as a duplicate of another invoice of the same vendor (it is not held by this: place a hold too)',
    body: Body({ original: IdInput, note: Opt(NoteInput) }),
    permission: AP_ENTER, emits: [ApInvoiceFlaggedDuplicate],
    decide: ({ params, body }, ctx) => {
      const inv = invoiceOf(ctx, params.id!);
      if (isRefusal(inv)) return inv;
      const original = invoiceOf(ctx, body.original);
      if (isRefusal(original)) return original;
      if (original.id === inv.id) return refuse('invalid_request', 'An invoice cannot duplicate itself.', 422);
      if (original.vendor !== inv.vendor) return refuse('invalid_request', `${original.id} is from ${original.vendor}, ${inv.id} from ${inv.vendor}.`, 422);
      if (inv.duplicate_of) return refuse('invalid_state', `${inv.id} is already flagged as a duplicate of ${inv.duplicate_of}.`);
      return emit(ApInvoiceFlaggedDuplicate, { id: inv.id, original: original.id, note: body.note ?? '' }, objectType, inv.id);
    },
    view,
  }),
];
