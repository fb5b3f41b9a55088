import { Type } from '@sinclair/typebox';
import { DebitMemoRaised, VendorCreditApplied, VendorCreditRecorded } from '../../events/contracts/payables-memos';
import type { ApInvoiceRow } from '../../projections/payables-invoices';
import type { AccountRow } from '../../projections/ledger';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { assertAccountsPostable, assertPeriodOpen, JournalBuilder } from '../ledger/journal';
import { AccountInput, VendorIdInput } from '../master/inputs';
import { formatCents, roundCents, toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt, QuantityInput, ReasonInput } from '../schemas';
import { invoiceOf, tag } from './invoices';
import { DEBIT_MEMO, VENDOR_CREDIT } from './permissions';
import { controlAccount } from './validate';
import { creditView, debitMemoView } from './memo-views';

/** An invoice that can take a credit or debit memo: posted, not voided, of the vendor, with enough open. */
export function openInvoiceFor(ctx: DecideContext, id: string, vendor: string, amount: number): ApInvoiceRow | Refusal {
  const inv = invoiceOf(ctx, id);
  if (isRefusal(inv)) return inv;
  if (inv.vendor !== vendor) return refuse('invalid_request', `${inv.id} is from ${inv.vendor}, not ${vendor}.`, 422);
  if (!inv.posted || inv.lifecycle === 'voided') return refuse('invalid_state', `${inv.id} is not posted (it is ${inv.lifecycle}); a memo applies only to a posted invoice.`);
  if (amount > inv.open_amount) return refuse('exceeds_open_amount', `${inv.id} has ${formatCents(inv.open_amount)} open, less than ${formatCents(amount)}.`);
  return inv;
}

/**
 * What a memo posts against, checked today: its offset account (postable, not a control account),
 * an open period, and the AP control account it moves.
 */
function memoPosting(ctx: DecideContext, account: string): Refusal | { ap: AccountRow } {
  const bad = assertAccountsPostable(ctx.read, [account]);
  if (bad) return bad;
  if (ctx.read.ledger.account(account)!.control) return refuse('invalid_request', `${account} is a control account; a memo credits a variance or expense account.`, 422);
  const closed = assertPeriodOpen(ctx, ctx.today);
  if (closed) return closed;
  const ap = controlAccount(ctx.read, 'ap');
  return isRefusal(ap) ? ap : { ap };
}

export interface CreditInput {
  vendor: string;
  vendor_reference: string;
  document_date?: string;
  amount: number;
  invoice?: string;
  account?: string;
  dispute?: string;
  source_message?: string;
  note?: string;
}

/** Dr AP, Cr the account credited: a vendor's credit memo, applied to an invoice or held on account. */
export function recordCredit(ctx: DecideContext, input: CreditInput) {
  const vendor = ctx.read.vendors.vendor(input.vendor);
  if (!vendor) return refuse('not_found', `No vendor ${input.vendor}.`);
  if (input.amount <= 0) return refuse('invalid_request', 'A credit memo amount must be positive.', 422);
  const dispute = input.dispute ? ctx.read.apMemos.dispute(input.dispute) : undefined;
  if (input.dispute && !dispute) return refuse('not_found', `No dispute ${input.dispute}.`);
  if (dispute && dispute.status !== 'open') return refuse('invalid_state', `${dispute.id} is ${dispute.status}.`);
  if (dispute && dispute.vendor !== vendor.id) return refuse('invalid_request', `${dispute.id} is with ${dispute.vendor}, not ${vendor.id}.`, 422);
  if (input.source_message && !ctx.read.messages.message(input.source_message)) return refuse('not_found', `No message ${input.source_message}.`);
  let invoice: string | null = null;
  if (input.invoice) {
    const inv = openInvoiceFor(ctx, input.invoice, vendor.id, input.amount);
    if (isRefusal(inv)) return inv;
    invoice = inv.id;
  } else if (dispute) {
    // A dispute's credit goes to its invoice when that invoice can take it; otherwise on account.
    const inv = openInvoiceFor(ctx, dispute.invoice, vendor.id, input.amount);
    invoice = isRefusal(inv) ? null : inv.id;
  }
  const account = input.account ?? ctx.read.payables.policy().price_variance_account;
  const posting = memoPosting(ctx, account);
  if (isRefusal(posting)) return posting;
  const { ap } = posting;
  const id = ctx.nextId('VCM');
  const journal = new JournalBuilder(ctx.today, `Vendor credit memo ${id} (${input.vendor_reference}) from ${vendor.id}`)
    .debit(ap.code, input.amount, { party_type: 'vendor', party_id: vendor.id, document_id: invoice ?? id })
    .balanceTo(account, { party_type: 'vendor', party_id: vendor.id, document_id: id })
    .build(ctx.read);
  if (isRefusal(journal)) return journal;
  return emit(VendorCreditRecorded, {
    id, vendor: vendor.id, vendor_reference: input.vendor_reference, document_date: input.document_date ?? ctx.today, amount: input.amount, account,
    invoice, dispute: dispute?.id ?? null, source_message: input.source_message ?? null, note: input.note ?? '', journal,
    ap: [{ vendor: vendor.id, invoice, kind: 'credit', amount: -input.amount, document_type: 'vendor_credit', document_id: id }],
  }, 'vendor_credit', id);
}

function debitMemoAmount(ctx: DecideContext, inv: ApInvoiceRow, body: { amount?: number | string; lines?: { po_line: number; qty: number; unit_price?: number | string }[] }) {
  if (!body.lines || body.lines.length === 0) {
    if (body.amount === undefined) return refuse('invalid_request', 'Give the debit memo an amount, or lines of PO line and quantity.', 422);
    return { amount: toCents(body.amount), lines: [] };
  }
  if (body.amount !== undefined) return refuse('invalid_request', 'Give either an amount or lines, not both: lines are valued at PO price.', 422);
  if (!inv.po) return refuse('invalid_request', `${inv.id} names no PO; give the debit memo an amount.`, 422);
  const lines = [];
  for (const l of body.lines) {
    const poLine = ctx.read.purchasing.poLine(inv.po, l.po_line);
    if (!poLine) return refuse('not_found', `${inv.po} has no line ${l.po_line}.`);
    const unit_price = l.unit_price === undefined ? poLine.unit_price : toCents(l.unit_price);
    lines.push({ po_line: l.po_line, qty: l.qty, unit_price, amount: roundCents(l.qty * unit_price) });
  }
  return { amount: lines.reduce((s, l) => s + l.amount, 0), lines };
}

export const creditRoutes: RouteDef[] = [
  defineAction({
    action: 'vendor_credit.record', method: 'POST', path: '/vendor-credits', tag, status: 201, objectType: 'vendor_credit',
    summary: "Record a vendor's credit memo: applied to an invoice when one is named, else held on account (Dr AP, Cr the account credited)",
    body: Body({
      vendor: VendorIdInput, vendor_reference: Type.String({ maxLength: 80, description: "The vendor's credit memo number as printed" }),
      document_date: Opt(DateInput), amount: MoneyInput, invoice: Opt(IdInput), account: Opt(AccountInput), dispute: Opt(IdInput),
      source_message: Opt(IdInput), note: Opt(NoteInput),
    }),
    permission: VENDOR_CREDIT, emits: [VendorCreditRecorded],
    decide: ({ body }, ctx) => recordCredit(ctx, { ...body, amount: toCents(body.amount) }),
    view: creditView,
  }),
  defineAction({
    action: 'vendor_credit.apply', method: 'POST', path: '/vendor-credits/{id}/apply', tag, objectType: 'vendor_credit',
    summary: 'Apply credit held on account to a posted invoice of the same vendor (all that both allow unless an amount is given)',
    body: Body({ invoice: IdInput, amount: Opt(MoneyInput), note: Opt(NoteInput) }),
    permission: VENDOR_CREDIT, emits: [VendorCreditApplied],
    decide: ({ params, body }, ctx) => {
      const credit = ctx.read.apMemos.credit(params.id!);
      if (!credit) return refuse('not_found', `No vendor credit ${params.id}.`);
      if (credit.unapplied_amount <= 0) return refuse('invalid_state', `${credit.id} has nothing left to apply.`);
      const target = ctx.read.payables.invoice(body.invoice);
      const amount = body.amount === undefined ? Math.min(credit.unapplied_amount, target?.open_amount ?? 0) : toCents(body.amount);
      if (amount <= 0 && target) return refuse('invalid_request', 'The amount to apply must be positive.', 422);
      if (amount > credit.unapplied_amount) return refuse('exceeds_open_amount', `${credit.id} has ${formatCents(credit.unapplied_amount)} unapplied.`);
      const inv = openInvoiceFor(ctx, body.invoice, credit.vendor, amount);
      if (isRefusal(inv)) return inv;
      const doc = { vendor: credit.vendor, document_type: 'vendor_credit', document_id: credit.id };
      return emit(VendorCreditApplied, {
        id: credit.id, vendor: credit.vendor, invoice: inv.id, amount, note: body.note ?? '',
        ap: [{ ...doc, invoice: null, kind: 'credit_applied', amount }, { ...doc, invoice: inv.id, kind: 'credit', amount: -amount }],
      }, 'vendor_credit', credit.id);
    },
    view: creditView,
  }),
  defineAction({
    action: 'debit_memo.raise', method: 'POST', path: '/debit-memos', tag, status: 201, objectType: 'debit_memo',
    summary: 'Raise a debit memo against a posted invoice, by lines (quantities at the PO unit price) or by amount: Dr AP, Cr the variance account',
    body: Body({
      invoice: IdInput,
      lines: Opt(Type.Array(Type.Object({ po_line: Type.Integer({ minimum: 1, maximum: 10000 }), qty: QuantityInput, unit_price: Opt(MoneyInput) }, { additionalProperties: false }), { maxItems: 500 })),
      amount: Opt(MoneyInput), reason: ReasonInput, account: Opt(AccountInput), note: Opt(NoteInput),
    }),
    permission: DEBIT_MEMO, emits: [DebitMemoRaised],
    decide: ({ body }, ctx) => {
      const found = invoiceOf(ctx, body.invoice);
      if (isRefusal(found)) return found;
      const valued = debitMemoAmount(ctx, found, body);
      if (isRefusal(valued)) return valued;
      if (valued.amount <= 0) return refuse('invalid_request', 'A debit memo amount must be positive.', 422);
      const inv = openInvoiceFor(ctx, found.id, found.vendor, valued.amount);
      if (isRefusal(inv)) return inv;
      const account = body.account ?? ctx.read.payables.policy().quantity_variance_account;
      const posting = memoPosting(ctx, account);
      if (isRefusal(posting)) return posting;
      const { ap } = posting;
      const id = ctx.nextId('DM');
      const refs = { party_type: 'vendor' as const, party_id: inv.vendor };
      const journal = new JournalBuilder(ctx.today, `Debit memo ${id} against ${inv.id} (${inv.vendor_invoice_number}): ${body.reason}`)
        .debit(ap.code, valued.amount, { ...refs, document_id: inv.id })
        .balanceTo(account, { ...refs, document_id: id })
        .build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(DebitMemoRaised, {
        id, vendor: inv.vendor, invoice: inv.id, amount: valued.amount, account, reason: body.reason, lines: valued.lines, note: body.note ?? '', journal,
        ap: [{ vendor: inv.vendor, invoice: inv.id, kind: 'debit_memo', amount: -valued.amount, document_type: 'debit_memo', document_id: id }],
      }, 'debit_memo', id);
    },
    view: debitMemoView,
  }),
];
