import { ApInvoiceApproved, ApInvoiceRejected, ApInvoiceVoided, ApInvoiceWrittenOff } from '../../events/contracts/payables';
import { defineAction, type RouteDef } from '../action';
import { approvalRefusal } from '../approval';
import { emit, isRefusal, refuse, type DecideContext } from '../decision';
import { assertPeriodOpen, JournalBuilder, reverseJournal } from '../ledger/journal';
import { formatCents, toCents } from '../money';
import { Body, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { invoiceOf, objectType, tag } from './invoices';
import { AP_APPROVE, AP_REJECT, AP_VOID, AP_WRITE_OFF } from './permissions';
import { controlAccount } from './validate';
import { invoiceView } from './views';

const view = (read: Parameters<typeof invoiceView>[0], id: string) => invoiceView(read, id);

function approve(ctx: DecideContext, id: string, note: string) {
  const inv = invoiceOf(ctx, id);
  if (isRefusal(inv)) return inv;
  const holds = ctx.read.payables.openHolds(inv.id);
  if (holds.length > 0) return refuse('invoice_on_hold', `${inv.id} is on hold (${holds.map((h) => `${h.id} ${h.reason}`).join(', ')}); it cannot be approved for payment.`);
  if (inv.lifecycle === 'entered') return refuse('invalid_state', `${inv.id} has not been validated; validate it before approving it for payment.`);
  if (inv.lifecycle !== 'matched') return refuse('invalid_state', `${inv.id} is ${inv.lifecycle}; only a validated invoice can be approved for payment.`);
  if (inv.po === null) {
    // A non-PO invoice has had no purchase approval: it needs the non_po_invoice limit (seed 000 B2).
    const department = inv.department ?? ctx.read.payables.lines(inv.id).find((l) => l.department)?.department ?? null;
    const denied = approvalRefusal(ctx, { documentType: 'non_po_invoice', documentId: inv.id, requester: inv.created_by, amount: inv.total, department });
    if (denied) return denied;
  }
  return emit(ApInvoiceApproved, { id: inv.id, open_amount: inv.open_amount, note }, objectType, inv.id);
}

function voidInvoice(ctx: DecideContext, id: string, body: { reason: string; note?: string }) {
  const inv = invoiceOf(ctx, id);
  if (isRefusal(inv)) return inv;
  if (inv.lifecycle === 'rejected' || inv.lifecycle === 'voided') return refuse('invalid_state', `${inv.id} is already ${inv.lifecycle}.`);
  const settled = inv.paid_amount + inv.discount_taken + inv.credited_amount + inv.debit_memo_amount + inv.written_off_amount;
  if (settled !== 0) return refuse('invalid_state', `${inv.id} has ${formatCents(settled)} paid, credited or written off; only an unpaid invoice can be voided.`);
  const proposed = ctx.read.payments.liveProposals(inv.id);
  if (proposed.length > 0) return refuse('invalid_state', `${inv.id} is proposed in ${proposed.map((p) => p.run).join(', ')}; remove it from the run first.`);
  const base = { id: inv.id, reason: body.reason, note: body.note ?? '' };
  if (!inv.posted) return emit(ApInvoiceVoided, base, objectType, inv.id);
  const closed = assertPeriodOpen(ctx, ctx.today);
  if (closed) return closed;
  if (!inv.posting) return refuse('invalid_state', `${inv.id} has no posting to reverse.`);
  const journal = reverseJournal(inv.posting, ctx.today, `Void of AP invoice ${inv.id} (${inv.vendor_invoice_number}): ${body.reason}`);
  const grni = ctx.read.payables.grniMatchedOfInvoice(inv.id).map((g) => ({ ...g, qty: -g.qty, value: -g.value }));
  const ap = [{ vendor: inv.vendor, invoice: inv.id, kind: 'void' as const, amount: -inv.ap_balance, document_type: 'ap_invoice', document_id: inv.id }];
  return emit(ApInvoiceVoided, { ...base, journal, ap, grni }, objectType, inv.id);
}

function writeOff(ctx: DecideContext, id: string, body: { amount?: number | string; reason: string; note?: string }) {
  const inv = invoiceOf(ctx, id);
  if (isRefusal(inv)) return inv;
  if (!inv.posted || inv.lifecycle === 'voided') return refuse('invalid_state', `${inv.id} is not an open posted invoice; only a posted balance can be written off.`);
  const amount = body.amount === undefined ? inv.open_amount : toCents(body.amount);
  if (amount <= 0) return refuse('invalid_request', 'A write-off amount must be positive.', 422);
  if (amount > inv.open_amount) return refuse('exceeds_open_amount', `${inv.id} has ${formatCents(inv.open_amount)} open; ${formatCents(amount)} cannot be written off.`);
  const closed = assertPeriodOpen(ctx, ctx.today);
  if (closed) return closed;
  const apAccount = controlAccount(ctx.read, 'ap');
  if (isRefusal(apAccount)) return apAccount;
  const account = ctx.read.payables.policy().write_off_account;
  const journal = new JournalBuilder(ctx.today, `Write-off of ${inv.id} (${inv.vendor_invoice_number}): ${body.reason}`)
    .debit(apAccount.code, amount, { party_type: 'vendor', party_id: inv.vendor, document_id: inv.id })
    .balanceTo(account, { party_type: 'vendor', party_id: inv.vendor, document_id: inv.id })
    .build(ctx.read);
  if (isRefusal(journal)) return journal;
  return emit(ApInvoiceWrittenOff, {
    id: inv.id, vendor: inv.vendor, amount, account, reason: body.reason, note: body.note ?? '', journal,
    ap: [{ vendor: inv.vendor, invoice: inv.id, kind: 'write_off', amount: -amount, document_type: 'ap_invoice', document_id: inv.id }],
  }, objectType, inv.id);
}

export const lifecycleRoutes: RouteDef[] = [
  defineAction({
    action: 'ap_invoice.approve', method: 'POST', path: '/ap-invoices/{id}/approve', tag, objectType,
    summary: 'Approve a validated invoice for payment (a non-PO invoice needs your non_po_invoice limit); refused while on hold',
    body: Body({ note: Opt(NoteInput) }),
    permission: AP_APPROVE, emits: [ApInvoiceApproved],
    decide: ({ params, body }, ctx) => approve(ctx, params.id!, body.note ?? ''),
    view,
  }),
  defineAction({
    action: 'ap_invoice.reject', method: 'POST', path: '/ap-invoices/{id}/reject', tag, objectType,
    summary: 'Reject an invoice that is not posted, with a reason (a posted one is voided instead)',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: AP_REJECT, emits: [ApInvoiceRejected],
    decide: ({ params, body }, ctx) => {
      const inv = invoiceOf(ctx, params.id!);
      if (isRefusal(inv)) return inv;
      if (inv.posted && inv.lifecycle !== 'voided') return refuse('posted_document_immutable', `${inv.id} is posted; void it instead.`);
      if (inv.lifecycle !== 'entered') return refuse('invalid_state', `${inv.id} is already ${inv.lifecycle}.`);
      return emit(ApInvoiceRejected, { id: inv.id, reason: body.reason, note: body.note ?? '' }, objectType, inv.id);
    },
    view,
  }),
  defineAction({
    action: 'ap_invoice.void', method: 'POST', path: '/ap-invoices/{id}/void', tag, objectType,
    summary: 'Void an unpaid invoice, with a reason: its postings are reversed today',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: AP_VOID, emits: [ApInvoiceVoided],
    decide: ({ params, body }, ctx) => voidInvoice(ctx, params.id!, body),
    view,
  }),
  defineAction({
    action: 'ap_invoice.write_off', method: 'POST', path: '/ap-invoices/{id}/write-off', tag, objectType,
    summary: 'Write off an open balance (all of it unless an amount is given), with a reason: Dr AP, Cr the write-off account',
    body: Body({ amount: Opt(MoneyInput), reason: ReasonInput, note: Opt(NoteInput) }),
    permission: AP_WRITE_OFF, emits: [ApInvoiceWrittenOff],
    decide: ({ params, body }, ctx) => writeOff(ctx, params.id!, body),
    view,
  }),
];
