import { Type } from '@sinclair/typebox';
import {
  PaymentRunApproved, PaymentRunCancelled, PaymentRunCreated, PaymentRunItemAdded, PaymentRunItemRemoved, PaymentRunReleased, PaymentRunReturned,
  PaymentRunSubmitted, type PaymentRecord, type RunItem,
} from '../../events/contracts/payments';
import type { PaymentRunRow, PaymentRunStatus } from '../../projections/payments';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { formatCents, toCents } from '../money';
import { Body, DateInput, DiscountInput, IdInput, MoneyField, NoteInput, Opt, ReasonInput } from '../schemas';
import { RUN_APPROVE, RUN_PREPARE, RUN_RELEASE } from './permissions';
import { companyBankAccount, payable, settle } from './settle';
import { runView } from './views';

const tag = 'payments';
const objectType = 'payment_run';
const ItemInput = Type.Object({
  invoice: IdInput,
  amount: Opt(MoneyField('Amount paid; default the open amount less the discount given')),
  discount: Opt(DiscountInput),
}, { additionalProperties: false });
type ItemRequest = { invoice: string; amount?: number | string; discount?: number | string };

function runIn(ctx: DecideContext, id: string, states: readonly PaymentRunStatus[], action: string): PaymentRunRow | Refusal {
  const run = ctx.read.payments.run(id);
  if (!run) return refuse('not_found', `No payment run ${id}.`);
  if (!states.includes(run.status)) return refuse('invalid_state', `${run.id} is ${run.status}; only a run that is ${states.join(' or ')} can be ${action}.`);
  return run;
}

/** An item as proposed: the amount defaults to the open amount less the discount. */
function proposeItem(ctx: DecideContext, req: ItemRequest): RunItem | Refusal {
  const invoice = ctx.read.payables.invoice(req.invoice);
  const discount = req.discount === undefined ? 0 : toCents(req.discount);
  const amount = req.amount === undefined ? (invoice?.open_amount ?? 0) - discount : toCents(req.amount);
  const ok = payable(ctx, req.invoice, amount, discount);
  if (isRefusal(ok)) return ok;
  return { invoice: ok.invoice.id, vendor: ok.invoice.vendor, amount, discount, open_amount: ok.invoice.open_amount, vendor_bank_account: ok.bankAccount.id };
}

/**
 * Release: every item is checked again (a hold placed, an approval withdrawn, a bank account
 * changed since it was added), then one payment per vendor goes to the account verified now.
 */
function release(ctx: DecideContext, id: string) {
  const run = runIn(ctx, id, ['approved'], 'released');
  if (isRefusal(run)) return run;
  if (ctx.today < run.payment_date) return refuse('invalid_state', `${run.id} is for ${run.payment_date}; it cannot be released before then.`);
  const bank = companyBankAccount(ctx, run.bank_account);
  if (isRefusal(bank)) return bank;
  const byVendor = new Map<string, { bankAccount: string; items: RunItem[] }>();
  for (const item of ctx.read.payments.proposedItems(run.id)) {
    const ok = payable(ctx, item.invoice, item.amount, item.discount);
    if (isRefusal(ok)) return ok;
    const group = byVendor.get(item.vendor) ?? { bankAccount: ok.bankAccount.id, items: [] };
    group.items.push(item);
    byVendor.set(item.vendor, group);
  }
  if (byVendor.size === 0) return refuse('invalid_state', `${run.id} has no items to pay.`);
  const payments: PaymentRecord[] = [...byVendor.keys()].sort().map((vendor) => {
    const group = byVendor.get(vendor)!;
    const allocations = [...group.items].sort((a, b) => (a.invoice < b.invoice ? -1 : 1)).map((i) => ({ invoice: i.invoice, amount: i.amount, discount: i.discount }));
    return {
      id: ctx.nextId('PAY'), vendor, vendor_bank_account: group.bankAccount,
      amount: allocations.reduce((s, a) => s + a.amount, 0), discount: allocations.reduce((s, a) => s + a.discount, 0), allocations,
    };
  });
  const settlement = settle(ctx, bank, ctx.today, `Payment run ${run.id}`, payments);
  if (isRefusal(settlement)) return settlement;
  return emit(PaymentRunReleased, { id: run.id, date: ctx.today, bank_account: bank.id, payments, ...settlement }, objectType, run.id);
}

const view = (read: Parameters<typeof runView>[0], id: string) => runView(read, id);

export const runRoutes: RouteDef[] = [
  defineAction({
    action: 'payment_run.create', method: 'POST', path: '/payment-runs', tag, status: 201, objectType,
    summary: 'Prepare a payment run: payment date, company bank account, and optionally its first items',
    description: 'Each item pays an invoice: its discount defaults to 0 (none is taken unless given), its amount to the open amount less the discount given. An item is refused when its invoice is on hold (invoice_on_hold), not approved for payment (invoice_not_approved), its vendor inactive (vendor_inactive) or without a verified bank account (bank_account_unverified), or when amount + discount exceed the open amount. An open dispute does not stop an item: the system does not enforce it.',
    body: Body({ payment_date: DateInput, bank_account: IdInput, note: Opt(NoteInput), items: Opt(Type.Array(ItemInput, { maxItems: 1000 })) }),
    permission: RUN_PREPARE, emits: [PaymentRunCreated],
    decide: ({ body }, ctx) => {
      const bank = companyBankAccount(ctx, body.bank_account);
      if (isRefusal(bank)) return bank;
      if (body.payment_date < ctx.today) return refuse('invalid_request', `A payment date cannot be before today (${ctx.today}).`, 422);
      const items: RunItem[] = [];
      for (const req of body.items ?? []) {
        if (items.some((i) => i.invoice === req.invoice)) return refuse('invalid_request', `${req.invoice} is listed twice.`, 422);
        const item = proposeItem(ctx, req);
        if (isRefusal(item)) return item;
        items.push(item);
      }
      const id = ctx.nextId('PR');
      return emit(PaymentRunCreated, { id, payment_date: body.payment_date, bank_account: bank.id, note: body.note ?? '', items }, objectType, id);
    },
    view,
  }),
  defineAction({
    action: 'payment_run.add_item', method: 'POST', path: '/payment-runs/{id}/items', tag, objectType,
    summary: 'Propose an invoice in a draft or returned run (discount defaults to 0, amount to the open amount less the discount given)',
    body: ItemInput,
    permission: RUN_PREPARE, emits: [PaymentRunItemAdded],
    decide: ({ params, body }, ctx) => {
      const run = runIn(ctx, params.id!, ['draft', 'returned'], 'changed');
      if (isRefusal(run)) return run;
      if (ctx.read.payments.proposedItems(run.id).some((i) => i.invoice === body.invoice)) return refuse('already_exists', `${body.invoice} is already proposed in ${run.id}; remove it first to change it.`);
      const item = proposeItem(ctx, body);
      if (isRefusal(item)) return item;
      return emit(PaymentRunItemAdded, { id: run.id, item }, objectType, run.id);
    },
    view,
  }),
  defineAction({
    action: 'payment_run.remove_item', method: 'POST', path: '/payment-runs/{id}/items/{invoice}/remove', tag, objectType,
    summary: 'Take an invoice out of a draft or returned run, with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: RUN_PREPARE, emits: [PaymentRunItemRemoved],
    decide: ({ params, body }, ctx) => {
      const run = runIn(ctx, params.id!, ['draft', 'returned'], 'changed');
      if (isRefusal(run)) return run;
      if (!ctx.read.payments.proposedItems(run.id).some((i) => i.invoice === params.invoice)) return refuse('not_found', `${params.invoice} is not proposed in ${run.id}.`);
      return emit(PaymentRunItemRemoved, { id: run.id, invoice: params.invoice!, reason: body.reason, note: body.note ?? '' }, objectType, run.id);
    },
    view,
  }),
  defineAction({
    action: 'payment_run.submit', method: 'POST', path: '/payment-runs/{id}/submit', tag, objectType,
    summary: 'Submit a draft or returned run for approval',
    body: Body({ note: Opt(NoteInput) }),
    permission: RUN_PREPARE, emits: [PaymentRunSubmitted],
    decide: ({ params, body }, ctx) => {
      const run = runIn(ctx, params.id!, ['draft', 'returned'], 'submitted');
      if (isRefusal(run)) return run;
      if (run.item_count === 0) return refuse('invalid_state', `${run.id} has no items.`);
      return emit(PaymentRunSubmitted, { id: run.id, total: run.total_amount, discount: run.total_discount, note: body.note ?? '' }, objectType, run.id);
    },
    view,
  }),
  defineAction({
    action: 'payment_run.approve', method: 'POST', path: '/payment-runs/{id}/approve', tag, objectType,
    summary: 'Approve a submitted run within your payment_run approval limit; its preparer cannot',
    body: Body({ note: Opt(NoteInput) }),
    permission: RUN_APPROVE, emits: [PaymentRunApproved],
    decide: ({ params, body }, ctx) => {
      const run = runIn(ctx, params.id!, ['submitted'], 'approved');
      if (isRefusal(run)) return run;
      if (!ctx.actor.system && run.created_by === ctx.actor.id) return refuse('preparer_cannot_approve', `You prepared ${run.id}; its preparer cannot approve it.`);
      const limit = ctx.actor.system ? Number.MAX_SAFE_INTEGER : ctx.read.org.approvalLimit(ctx.actor.id, 'payment_run', null);
      if (limit === null || run.total_amount > limit) {
        return refuse('over_limit', `${run.id} pays ${formatCents(run.total_amount)}; your payment run approval limit is ${limit === null ? 'none' : formatCents(limit)}.`);
      }
      return emit(PaymentRunApproved, { id: run.id, total: run.total_amount, note: body.note ?? '' }, objectType, run.id);
    },
    view,
  }),
  defineAction({
    action: 'payment_run.return', method: 'POST', path: '/payment-runs/{id}/return', tag, objectType,
    summary: 'Return a submitted or approved run to its preparer, with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: RUN_APPROVE, emits: [PaymentRunReturned],
    decide: ({ params, body }, ctx) => {
      const run = runIn(ctx, params.id!, ['submitted', 'approved'], 'returned');
      if (isRefusal(run)) return run;
      return emit(PaymentRunReturned, { id: run.id, reason: body.reason, note: body.note ?? '' }, objectType, run.id);
    },
    view,
  }),
  defineAction({
    action: 'payment_run.cancel', method: 'POST', path: '/payment-runs/{id}/cancel', tag, objectType,
    summary: 'Cancel a run that was not released, with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: RUN_PREPARE, emits: [PaymentRunCancelled],
    decide: ({ params, body }, ctx) => {
      const run = runIn(ctx, params.id!, ['draft', 'submitted', 'approved', 'returned'], 'cancelled');
      if (isRefusal(run)) return run;
      return emit(PaymentRunCancelled, { id: run.id, reason: body.reason, note: body.note ?? '' }, objectType, run.id);
    },
    view,
  }),
  defineAction({
    action: 'payment_run.release', method: 'POST', path: '/payment-runs/{id}/release', tag, objectType,
    summary: 'Release an approved run on or after its payment date: one payment per vendor to its verified account; Dr AP, Cr cash, Cr discounts taken',
    body: Body({}),
    permission: RUN_RELEASE, emits: [PaymentRunReleased],
    decide: ({ params }, ctx) => release(ctx, params.id!),
    view,
  }),
];
