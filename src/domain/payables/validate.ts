import { Type } from '@sinclair/typebox';
import { ApInvoiceValidated } from '../../events/contracts/payables';
import type { Queries } from '../../projections';
import type { AccountRow } from '../../projections/ledger';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { assertPeriodOpen, JournalBuilder } from '../ledger/journal';
import { DateInput, NoteInput, Opt, Body } from '../schemas';
import { invoiceOf, objectType, tag } from './invoices';
import { matchInvoice } from './match';
import { AP_VALIDATE } from './permissions';
import { invoiceView, matchPreview } from './views';

/** The control account of a subledger kind (2000 for AP, 2100 for GRNI in the standard chart). */
export function controlAccount(read: Queries, kind: 'ap' | 'grni' | 'ar' | 'inventory'): AccountRow | Refusal {
  const account = read.ledger.controlAccounts().find((a) => a.subledger === kind && a.status === 'active');
  return account ?? refuse('invalid_state', `The chart of accounts has no active ${kind.toUpperCase()} control account.`);
}

function validate(ctx: DecideContext, id: string, body: { gl_date?: string; note?: string }) {
  const inv = invoiceOf(ctx, id);
  if (isRefusal(inv)) return inv;
  if (inv.lifecycle !== 'entered') return refuse('invalid_state', `${inv.id} is ${inv.lifecycle}; only an entered invoice can be validated.`);
  const holds = ctx.read.payables.openHolds(inv.id);
  if (holds.length > 0) return refuse('invoice_on_hold', `${inv.id} is on hold (${holds.map((h) => `${h.id} ${h.reason}`).join(', ')}); release the hold before validating.`);
  const glDate = body.gl_date ?? ctx.today;
  if (glDate > ctx.today) return refuse('invalid_request', `An invoice cannot be posted after today (${ctx.today}).`, 422);
  const closed = assertPeriodOpen(ctx, glDate);
  if (closed) return closed;
  const ap = controlAccount(ctx.read, 'ap');
  if (isRefusal(ap)) return ap;
  const policy = ctx.read.payables.policy();
  const lines = ctx.read.payables.lines(inv.id);
  const outcome = matchInvoice(ctx.read, { id: inv.id, po: inv.po, lines, tax: inv.tax, freight: inv.freight, total: inv.total }, glDate, policy);
  const vendorRef = { party_type: 'vendor' as const, party_id: inv.vendor };
  const builder = new JournalBuilder(glDate, `AP invoice ${inv.id} (${inv.vendor_invoice_number}) from ${inv.vendor}`);
  if (outcome.grni.length > 0) {
    const grni = controlAccount(ctx.read, 'grni');
    if (isRefusal(grni)) return grni;
    for (const g of outcome.grni) builder.debit(grni.code, g.value, { ...vendorRef, document_id: g.po });
  }
  for (const c of outcome.coded) builder.debit(c.account, c.amount, { ...vendorRef, document_id: c.document_id, department: c.department });
  builder.debit(policy.price_variance_account, outcome.priceVariance + outcome.arithmetic.difference, { ...vendorRef, document_id: inv.id });
  builder.debit(policy.quantity_variance_account, outcome.quantityVariance, { ...vendorRef, document_id: inv.id });
  builder.debit(policy.freight_account, inv.freight, { ...vendorRef, document_id: inv.id });
  builder.debit(policy.tax_account, inv.tax, { ...vendorRef, document_id: inv.id });
  const journal = builder.balanceTo(ap.code, { ...vendorRef, document_id: inv.id }).build(ctx.read);
  if (isRefusal(journal)) return journal;
  return emit(ApInvoiceValidated, {
    id: inv.id, vendor: inv.vendor, po: inv.po, gl_date: glDate, price_tolerance_bp: policy.price_tolerance_bp, match: outcome.lines,
    arithmetic: outcome.arithmetic, note: body.note ?? '', journal,
    ap: [{ vendor: inv.vendor, invoice: inv.id, kind: 'invoice', amount: inv.total, document_type: 'ap_invoice', document_id: inv.id }],
    grni: outcome.grni,
  }, objectType, inv.id);
}

export const validateRoutes: RouteDef[] = [
  defineAction({
    action: 'ap_invoice.validate', method: 'POST', path: '/ap-invoices/{id}/validate', tag, objectType,
    summary: 'Three-way match and post an entered invoice: Dr GRNI at PO price, variances, freight and tax; Cr AP as billed',
    description: 'The match result per line is stored and returned. Exceptions do not stop posting: hold the invoice instead when the handbook says so. Refused while a hold is open. GL date: today unless given (never after today).',
    body: Body({ gl_date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: AP_VALIDATE, emits: [ApInvoiceValidated],
    decide: ({ params, body }, ctx) => validate(ctx, params.id!, body),
    view: (read, id) => invoiceView(read, id),
  }),
  defineQuery({
    path: '/ap-invoices/{id}/match', tag, objectType, permission: null,
    summary: 'The three-way match an invoice would get if validated now (or on gl_date), line by line; changes nothing',
    query: Type.Object({ gl_date: Opt(DateInput) }, { additionalProperties: false }),
    run: ({ params, query }, ctx) => matchPreview(ctx.read, params.id!, query.gl_date ?? ctx.today),
  }),
];
