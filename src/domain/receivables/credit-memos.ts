import { Type } from '@sinclair/typebox';
import { ArCreditMemoApplied, ArCreditMemoIssued, DeductionResolved, type CreditMemoLine } from '../../events/contracts/receivables';
import type { SalesPolicyRow } from '../../projections/receivables-invoices';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext } from '../decision';
import { assertPeriodOpen, JournalBuilder } from '../ledger/journal';
import { AccountInput } from '../master/inputs';
import { applyBasisPoints, formatCents, roundCents, toCents } from '../money';
import { RMA_MANAGE } from '../sales/permissions';
import { rebateStanding } from '../sales/pricing';
import { Body, IdInput, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { AR_CREDIT_MEMO, CREDIT_MANAGE } from './permissions';
import { applicable } from './receipts';
import { arControl, customerRefs, mayPay, movement, tag } from './shared';
import { creditMemoView, deductionView } from './views';

const objectType = 'ar_credit_memo';

/** The account a credit or an accepted deduction posts to by its reason, unless one is named. */
function accountFor(policy: SalesPolicyRow, reason: string): string {
  if (reason === 'rebate') return policy.rebate_account;
  if (reason === 'return') return policy.returns_account;
  if (reason === 'freight') return policy.freight_account;
  return policy.allowance_account;
}

interface Memo {
  customer: string;
  reason: string;
  invoice: string | null;
  rma: string | null;
  rebate_agreement: string | null;
  lines: CreditMemoLine[];
  tax: number;
  restocking_fee: number;
  note: string;
}

/**
 * Issues a credit memo: Dr each line's account (and sales tax), Cr the restocking fee, Cr AR with
 * the total, applied to the invoice named when it can take it, else held on the customer's account.
 */
function issue(ctx: DecideContext, m: Memo) {
  const subtotal = m.lines.reduce((s, l) => s + l.amount, 0);
  const total = subtotal + m.tax - m.restocking_fee;
  if (total <= 0) return refuse('invalid_request', `The credit comes to ${formatCents(total)}; a credit memo is for a positive amount.`, 422);
  if (m.invoice) {
    const inv = ctx.read.receivables.invoice(m.invoice);
    if (!inv) return refuse('not_found', `No AR invoice ${m.invoice}.`);
    if (inv.customer !== m.customer) return refuse('invalid_request', `${inv.id} belongs to ${inv.customer}, not ${m.customer}.`, 422);
  }
  const applyTo = m.invoice && ctx.read.receivables.invoice(m.invoice)!.status === 'open' && applicable(ctx, m.invoice) >= total ? m.invoice : null;
  const closed = assertPeriodOpen(ctx, ctx.today);
  if (closed) return closed;
  const ar = arControl(ctx);
  if (isRefusal(ar)) return ar;
  const policy = ctx.read.receivables.policy();
  const id = ctx.nextId('CM');
  const refs = customerRefs(m.customer, id);
  const builder = new JournalBuilder(ctx.today, `Credit memo ${id} to ${m.customer}: ${m.reason}`);
  for (const l of m.lines) builder.debit(l.account, l.amount, refs);
  const journal = builder.debit(policy.tax_account, m.tax, refs).credit(policy.restocking_account, m.restocking_fee, refs).balanceTo(ar.code, refs).build(ctx.read);
  if (isRefusal(journal)) return journal;
  return emit(ArCreditMemoIssued, {
    id, customer: m.customer, date: ctx.today, reason: m.reason, invoice: applyTo, rma: m.rma, rebate_agreement: m.rebate_agreement, lines: m.lines, subtotal,
    tax: m.tax, restocking_fee: m.restocking_fee, total, note: m.note, journal, ar: [movement(m.customer, applyTo, 'credit_memo', -total, 'ar_credit_memo', id)],
  }, objectType, id);
}

export const creditMemoRoutes: RouteDef[] = [
  defineAction({
    action: 'ar_credit_memo.issue', method: 'POST', path: '/ar-credit-memos', tag, status: 201, objectType,
    summary: 'Issue a credit memo (allowance, price adjustment, rebate): Dr the reason\'s account, Cr AR; applied to the invoice named when it can take it, else on account',
    description: 'A rebate credit names its rebate agreement; without an amount it credits what the agreement has earned and not yet credited.',
    body: Body({
      customer: IdInput, reason: ReasonInput, amount: Opt(MoneyInput), invoice: Opt(IdInput), account: Opt(AccountInput), tax: Opt(MoneyInput),
      rebate_agreement: Opt(IdInput), description: Opt(Type.String({ maxLength: 400 })), note: Opt(NoteInput),
    }),
    permission: AR_CREDIT_MEMO, emits: [ArCreditMemoIssued],
    decide: ({ body }, ctx) => {
      if (!ctx.read.customers.customer(body.customer)) return refuse('not_found', `No customer ${body.customer}.`);
      let amount = body.amount === undefined ? undefined : toCents(body.amount);
      if (body.rebate_agreement) {
        const a = ctx.read.salesPricing.rebateAgreement(body.rebate_agreement);
        if (!a || a.customer !== body.customer) return refuse('not_found', `${body.customer} has no rebate agreement ${body.rebate_agreement}.`);
        amount ??= rebateStanding(ctx.read, a, ctx.today).rebate_due;
      }
      if (amount === undefined) return refuse('invalid_request', 'Give the amount to credit.', 422);
      const controls = new Set(ctx.read.ledger.controlAccounts().map((x) => x.code));
      const account = body.account ?? accountFor(ctx.read.receivables.policy(), body.rebate_agreement ? 'rebate' : body.reason);
      if (controls.has(account)) return refuse('invalid_request', `A credit memo cannot be debited to control account ${account}.`, 422);
      return issue(ctx, {
        customer: body.customer, reason: body.reason, invoice: body.invoice ?? null, rma: null, rebate_agreement: body.rebate_agreement ?? null,
        lines: [{ line: 1, item: null, description: body.description ?? body.reason.replace(/_/g, ' '), qty: 1, unit_price: amount, amount, account, cost: 0 }],
        tax: body.tax === undefined ? 0 : toCents(body.tax), restocking_fee: 0, note: body.note ?? '',
      });
    },
    view: creditMemoView,
  }),
  defineAction({
    action: 'rma.credit', method: 'POST', path: '/rmas/{id}/credit-memo', tag, status: 201, objectType,
    summary: 'Credit the accepted units of an inspected return at the price billed, with their tax, less a restocking fee (basis points of the goods, or an amount)',
    body: Body({ restocking_fee_bp: Opt(Type.Integer({ minimum: 0, maximum: 10000 })), restocking_fee: Opt(MoneyInput), note: Opt(NoteInput) }),
    permission: RMA_MANAGE, emits: [ArCreditMemoIssued],
    decide: ({ params, body }, ctx) => {
      const rma = ctx.read.shipments.rma(params.id!);
      if (!rma) return refuse('not_found', `No RMA ${params.id}.`);
      if (rma.status !== 'inspected') return refuse('invalid_state', `${rma.id} is ${rma.status}; only an inspected return is credited.`);
      if (body.restocking_fee_bp !== undefined && body.restocking_fee !== undefined) return refuse('invalid_request', 'Give the restocking fee as basis points or as an amount, not both.', 422);
      const inv = ctx.read.receivables.invoice(rma.invoice)!;
      const policy = ctx.read.receivables.policy();
      const lines: CreditMemoLine[] = ctx.read.shipments.rmaLines(rma.id).filter((l) => l.accepted_qty > 0).map((l, i) => ({
        line: i + 1, item: l.item, description: `Returned ${l.item} (${rma.id} line ${l.line})`, qty: l.accepted_qty, unit_price: l.unit_price,
        amount: roundCents(l.accepted_qty * l.unit_price), account: policy.returns_account, cost: l.returned_value,
      }));
      if (lines.length === 0) return refuse('invalid_state', `${rma.id} has no accepted units to credit.`);
      const subtotal = lines.reduce((s, l) => s + l.amount, 0);
      const fee = body.restocking_fee !== undefined ? toCents(body.restocking_fee) : applyBasisPoints(subtotal, body.restocking_fee_bp ?? 0);
      if (fee < 0 || fee > subtotal) return refuse('invalid_request', `A restocking fee is between 0 and the goods credited (${formatCents(subtotal)}).`, 422);
      return issue(ctx, {
        customer: rma.customer, reason: 'return', invoice: inv.id, rma: rma.id, rebate_agreement: null, lines,
        tax: roundCents((subtotal * inv.tax_rate_bp) / 10000), restocking_fee: fee, note: body.note ?? '',
      });
    },
    view: creditMemoView,
  }),
  defineAction({
    action: 'ar_credit_memo.apply', method: 'POST', path: '/ar-credit-memos/{id}/apply', tag, objectType,
    summary: 'Apply credit a memo left on account to an open invoice (of its customer, or of a subsidiary)',
    body: Body({ invoice: IdInput, amount: Opt(MoneyInput), note: Opt(NoteInput) }),
    permission: AR_CREDIT_MEMO, emits: [ArCreditMemoApplied],
    decide: ({ params, body }, ctx) => {
      const memo = ctx.read.arCash.creditMemo(params.id!);
      if (!memo) return refuse('not_found', `No credit memo ${params.id}.`);
      if (memo.unapplied_amount <= 0) return refuse('invalid_state', `${memo.id} has nothing left on account.`);
      const inv = ctx.read.receivables.invoice(body.invoice);
      if (!inv) return refuse('not_found', `No AR invoice ${body.invoice}.`);
      if (inv.status !== 'open') return refuse('invalid_state', `${inv.id} is ${inv.status}.`);
      if (!mayPay(ctx, memo.customer, inv.customer)) return refuse('invalid_request', `${inv.id} belongs to ${inv.customer}, not ${memo.customer} or a subsidiary.`, 422);
      const room = Math.min(memo.unapplied_amount, applicable(ctx, inv.id));
      const amount = body.amount === undefined ? room : toCents(body.amount);
      if (amount <= 0) return refuse('invalid_request', 'Apply a positive amount.', 422);
      if (amount > room) return refuse('exceeds_open_amount', `${formatCents(room)} of ${memo.id} can go to ${inv.id}; ${formatCents(amount)} cannot.`);
      return emit(ArCreditMemoApplied, {
        id: memo.id, customer: memo.customer, invoice: inv.id, amount, note: body.note ?? '',
        ar: [movement(memo.customer, null, 'credit_applied', amount, 'ar_credit_memo', memo.id), movement(inv.customer, inv.id, 'credit_applied', -amount, 'ar_credit_memo', memo.id)],
      }, objectType, memo.id);
    },
    view: creditMemoView,
  }),
  defineAction({
    action: 'deduction.resolve', method: 'POST', path: '/deductions/{id}/resolve', tag, objectType: 'deduction',
    summary: 'Resolve a deduction: accepted, credited to its invoice (Dr the account for its reason, Cr AR); rejected, it stays owed and is collected',
    body: Body({ resolution: Type.Union([Type.Literal('accepted'), Type.Literal('rejected')]), account: Opt(AccountInput), note: Type.String({ minLength: 1, maxLength: 4000 }) }),
    permission: CREDIT_MANAGE, emits: [DeductionResolved],
    decide: ({ params, body }, ctx) => {
      const d = ctx.read.arCash.deduction(params.id!);
      if (!d) return refuse('not_found', `No deduction ${params.id}.`);
      if (d.status !== 'open') return refuse('invalid_state', `${d.id} is ${d.status}.`);
      const base = { id: d.id, invoice: d.invoice, customer: d.customer, amount: d.amount, note: body.note };
      if (body.resolution === 'rejected') return emit(DeductionResolved, { ...base, resolution: 'rejected', account: null }, 'deduction', d.id);
      const account = body.account ?? accountFor(ctx.read.receivables.policy(), d.reason);
      if (ctx.read.ledger.controlAccounts().some((a) => a.code === account)) return refuse('invalid_request', `A deduction cannot be written to control account ${account}.`, 422);
      const closed = assertPeriodOpen(ctx, ctx.today);
      if (closed) return closed;
      const ar = arControl(ctx);
      if (isRefusal(ar)) return ar;
      const journal = new JournalBuilder(ctx.today, `Deduction ${d.id} on ${d.invoice} accepted: ${d.reason}`).transfer(account, ar.code, d.amount, customerRefs(d.customer, d.invoice)).build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(DeductionResolved, { ...base, resolution: 'accepted', account, journal, ar: [movement(d.customer, d.invoice, 'deduction_accepted', -d.amount, 'deduction', d.id)] }, 'deduction', d.id);
    },
    view: deductionView,
  }),
];
