import { Type } from '@sinclair/typebox';
import { DisputeOpened, DisputeRefused, DisputeWithdrawn, VendorCreditRecorded } from '../../events/contracts/payables-memos';
import type { DisputeRow } from '../../projections/payables-memos';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { formatCents, toCents } from '../money';
import { Body, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { recordCredit } from './credits';
import { invoiceOf, tag } from './invoices';
import { creditView, disputeView } from './memo-views';
import { DISPUTE_ANSWER, DISPUTE_OPEN } from './permissions';

function openDispute(ctx: DecideContext, id: string): DisputeRow | Refusal {
  const dispute = ctx.read.apMemos.dispute(id);
  if (!dispute) return refuse('not_found', `No dispute ${id}.`);
  if (dispute.status !== 'open') return refuse('invalid_state', `${dispute.id} is ${dispute.status}.`);
  return dispute;
}

/**
 * Disputes (DSP): AP disputes an amount of an invoice with a reason code; the vendor answers with a
 * credit memo (the dispute is resolved) or a refusal. A dispute does not hold the invoice by itself.
 */
export const disputeRoutes: RouteDef[] = [
  defineAction({
    action: 'dispute.open', method: 'POST', path: '/ap-invoices/{id}/disputes', tag, status: 201, objectType: 'dispute',
    summary: 'Dispute an amount of an invoice with the vendor, with a reason code',
    body: Body({ reason: ReasonInput, amount: MoneyInput, note: Opt(NoteInput) }),
    permission: DISPUTE_OPEN, emits: [DisputeOpened],
    decide: ({ params, body }, ctx) => {
      const inv = invoiceOf(ctx, params.id!);
      if (isRefusal(inv)) return inv;
      if (inv.lifecycle === 'rejected' || inv.lifecycle === 'voided') return refuse('invalid_state', `${inv.id} is ${inv.lifecycle}.`);
      const amount = toCents(body.amount);
      if (amount <= 0) return refuse('invalid_request', 'A disputed amount must be positive.', 422);
      if (amount > inv.total) return refuse('invalid_request', `${inv.id} totals ${formatCents(inv.total)}; ${formatCents(amount)} cannot be disputed.`, 422);
      const id = ctx.nextId('DSP');
      return emit(DisputeOpened, { id, invoice: inv.id, vendor: inv.vendor, reason: body.reason, amount, note: body.note ?? '' }, 'dispute', id);
    },
    view: disputeView,
  }),
  defineAction({
    action: 'dispute.withdraw', method: 'POST', path: '/disputes/{id}/withdraw', tag, objectType: 'dispute',
    summary: 'Withdraw an open dispute, with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: DISPUTE_OPEN, emits: [DisputeWithdrawn],
    decide: ({ params, body }, ctx) => {
      const dispute = openDispute(ctx, params.id!);
      if (isRefusal(dispute)) return dispute;
      return emit(DisputeWithdrawn, { id: dispute.id, reason: body.reason, note: body.note ?? '' }, 'dispute', dispute.id);
    },
    view: disputeView,
  }),
  defineAction({
    action: 'dispute.answer', method: 'POST', path: '/disputes/{id}/answer', tag, objectType: 'dispute',
    summary: "The vendor's answer to a dispute: a credit memo (resolving it) or a refusal",
    body: Body({
      decision: Type.Union([Type.Literal('credit'), Type.Literal('refuse')]),
      amount: Opt(MoneyInput), vendor_reference: Opt(Type.String({ maxLength: 80 })), note: Opt(NoteInput),
    }),
    permission: DISPUTE_ANSWER, emits: [VendorCreditRecorded, DisputeRefused],
    decide: ({ params, body }, ctx) => {
      const dispute = openDispute(ctx, params.id!);
      if (isRefusal(dispute)) return dispute;
      if (body.decision === 'refuse') return emit(DisputeRefused, { id: dispute.id, note: body.note ?? '' }, 'dispute', dispute.id);
      return recordCredit(ctx, {
        vendor: dispute.vendor, vendor_reference: body.vendor_reference ?? `CM-${dispute.id}`, amount: body.amount === undefined ? dispute.amount : toCents(body.amount),
        dispute: dispute.id, note: body.note,
      });
    },
    view: (read, id) => (id.startsWith('VCM-') ? creditView(read, id) : disputeView(read, id)),
  }),
];
