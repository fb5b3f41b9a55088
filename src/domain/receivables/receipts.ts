import { Type } from '@sinclair/typebox';
import { CashReceiptApplied, CashReceiptRecorded, CashReceiptReversed, type Application, type ArMovement } from '../../events/contracts/receivables';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { assertPeriodOpen, JournalBuilder } from '../ledger/journal';
import { formatCents, toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { CASH_RECEIPT_RECORD } from './permissions';
import { arControl, customerRefs, mayPay, movement, tag } from './shared';
import { receiptView } from './views';

const objectType = 'cash_receipt';
const view = (read: Parameters<typeof receiptView>[0], id: string) => receiptView(read, id);

export const ApplicationInput = Body({
  invoice: IdInput,
  amount: MoneyInput,
  discount: Opt(MoneyInput),
  deduction: Opt(Body({ amount: MoneyInput, reason: ReasonInput })),
});

interface ApplicationRequest {
  invoice: string;
  amount: number | string;
  discount?: number | string;
  deduction?: { amount: number | string; reason: string };
}

/** What an invoice can still take: its open amount less deductions still open on it (they are claims, not cash). */
export function applicable(ctx: DecideContext, invoice: string): number {
  const inv = ctx.read.receivables.invoice(invoice)!;
  return inv.open_amount - ctx.read.arCash.deductionsOf(invoice).filter((d) => d.status === 'open').reduce((s, d) => s + d.amount, 0);
}

/**
 * Applications of a payer's cash to invoices (seed 000 C3): each to an open invoice of the payer or
 * of a subsidiary it pays for, within what the invoice can take; a short payment keeps the rest
 * open as a deduction with its reason code. Discounts are accepted whenever taken (the grace rule
 * is the handbook's); cash beyond what is applied stays on account.
 */
function applicationsFor(ctx: DecideContext, payer: string, requests: readonly ApplicationRequest[], available: number): Application[] | Refusal {
  const out: Application[] = [];
  const taken = new Map<string, number>();
  let cash = 0;
  for (const r of requests) {
    const inv = ctx.read.receivables.invoice(r.invoice);
    if (!inv) return refuse('not_found', `No AR invoice ${r.invoice}.`);
    if (inv.status !== 'open') return refuse('invalid_state', `${inv.id} is ${inv.status}; there is nothing to apply to.`);
    if (!mayPay(ctx, payer, inv.customer)) return refuse('invalid_request', `${inv.id} belongs to ${inv.customer}, which ${payer} does not pay for.`, 422);
    const amount = toCents(r.amount);
    const discount = r.discount === undefined ? 0 : toCents(r.discount);
    const deducted = r.deduction ? toCents(r.deduction.amount) : 0;
    if (amount < 0 || discount < 0 || deducted < 0 || amount + discount + deducted === 0) return refuse('invalid_request', `An application to ${inv.id} takes a positive amount, discount or deduction.`, 422);
    const settles = amount + discount + deducted;
    const room = applicable(ctx, inv.id) - (taken.get(inv.id) ?? 0);
    if (settles > room) return refuse('exceeds_open_amount', `${inv.id} can take ${formatCents(room)}; ${formatCents(settles)} would settle it beyond its amount.`);
    taken.set(inv.id, (taken.get(inv.id) ?? 0) + settles);
    cash += amount;
    out.push({ invoice: inv.id, customer: inv.customer, amount, discount, deduction: r.deduction ? { id: ctx.nextId('DED'), amount: deducted, reason: r.deduction.reason } : null });
  }
  if (cash > available) return refuse('exceeds_open_amount', `${formatCents(available)} is unapplied; ${formatCents(cash)} cannot be applied.`);
  return out;
}

/** The AR movements and discount postings of applications: cash moves from the payer's account to the invoices. */
function applicationMoves(payer: string, receipt: string, apps: readonly Application[]): ArMovement[] {
  const out: ArMovement[] = [];
  for (const a of apps) {
    if (a.amount > 0) out.push(movement(payer, null, 'receipt_applied', a.amount, 'cash_receipt', receipt), movement(a.customer, a.invoice, 'payment', -a.amount, 'cash_receipt', receipt));
    if (a.discount > 0) out.push(movement(a.customer, a.invoice, 'discount', -a.discount, 'cash_receipt', receipt));
  }
  return out;
}

function postDiscounts(ctx: DecideContext, builder: JournalBuilder, arCode: string, receipt: string, apps: readonly Application[]): void {
  const account = ctx.read.receivables.policy().discount_account;
  for (const a of apps) if (a.discount > 0) builder.transfer(account, arCode, a.discount, customerRefs(a.customer, a.invoice));
}

export const receiptRoutes: RouteDef[] = [
  defineAction({
    action: 'cash_receipt.record', method: 'POST', path: '/cash-receipts', tag, status: 201, objectType,
    summary: 'Record a customer payment into a company bank account (Dr cash, Cr AR on account) and apply it to invoices; the rest stays on account',
    description: 'Name the bank statement line it arrived on to match it. Applications take an amount, a cash discount and a deduction (a short payment with a reason code), and may pay a subsidiary\'s invoices.',
    body: Body({
      customer: IdInput, bank_account: IdInput, amount: MoneyInput, date: Opt(DateInput), reference: Type.String({ minLength: 1, maxLength: 200 }),
      statement_line: Opt(IdInput), source_message: Opt(IdInput), applications: Opt(Type.Array(ApplicationInput, { maxItems: 500 })), note: Opt(NoteInput),
    }),
    permission: CASH_RECEIPT_RECORD, emits: [CashReceiptRecorded],
    decide: ({ body }, ctx) => {
      const customer = ctx.read.customers.customer(body.customer);
      if (!customer) return refuse('not_found', `No customer ${body.customer}.`);
      const bank = ctx.read.cash.bankAccount(body.bank_account);
      if (!bank) return refuse('not_found', `No bank account ${body.bank_account}.`);
      const amount = toCents(body.amount);
      if (amount <= 0) return refuse('invalid_request', 'A receipt is a positive amount.', 422);
      const line = body.statement_line ? ctx.read.cash.statementLine(body.statement_line) : null;
      if (body.statement_line && !line) return refuse('not_found', `No bank statement line ${body.statement_line}.`);
      if (line) {
        if (line.kind !== 'deposit' || line.bank_account !== bank.id) return refuse('invalid_request', `${line.id} is a ${line.kind} line on ${line.bank_account}, not a deposit on ${bank.id}.`, 422);
        if (line.amount !== amount) return refuse('invalid_request', `${line.id} shows ${formatCents(line.amount)}, not ${formatCents(amount)}.`, 422);
        if (line.status === 'matched') return refuse('invalid_state', `${line.id} is already matched to ${line.matched}.`);
      }
      const date = body.date ?? line?.date ?? ctx.today;
      if (date > ctx.today) return refuse('invalid_request', `A receipt cannot be dated after today (${ctx.today}).`, 422);
      const closed = assertPeriodOpen(ctx, date);
      if (closed) return closed;
      if (body.source_message && !ctx.read.messages.message(body.source_message)) return refuse('not_found', `No message ${body.source_message}.`);
      const ar = arControl(ctx);
      if (isRefusal(ar)) return ar;
      const apps = applicationsFor(ctx, customer.id, body.applications ?? [], amount);
      if (isRefusal(apps)) return apps;
      const id = ctx.nextId('CR');
      const builder = new JournalBuilder(date, `Cash receipt ${id} from ${customer.id}: ${body.reference}`).transfer(bank.gl_account, ar.code, amount, customerRefs(customer.id, id));
      postDiscounts(ctx, builder, ar.code, id, apps);
      const journal = builder.build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(CashReceiptRecorded, {
        id, customer: customer.id, bank_account: bank.id, date, amount, reference: body.reference, statement_line: line?.id ?? null, source_message: body.source_message ?? null,
        applications: apps, note: body.note ?? '', journal,
        cash: [{ bank_account: bank.id, amount, kind: 'receipt', reference: id, ...(line ? { statement_line: line.id } : {}) }],
        ar: [movement(customer.id, null, 'receipt', -amount, 'cash_receipt', id), ...applicationMoves(customer.id, id, apps)],
      }, objectType, id);
    },
    view,
  }),
  defineAction({
    action: 'cash_receipt.apply', method: 'POST', path: '/cash-receipts/{id}/apply', tag, objectType,
    summary: 'Apply cash a receipt left on account to invoices (of its customer, or of a subsidiary it pays for)',
    body: Body({ applications: Type.Array(ApplicationInput, { minItems: 1, maxItems: 500 }), note: Opt(NoteInput) }),
    permission: CASH_RECEIPT_RECORD, emits: [CashReceiptApplied],
    decide: ({ params, body }, ctx) => {
      const receipt = ctx.read.arCash.receipt(params.id!);
      if (!receipt) return refuse('not_found', `No cash receipt ${params.id}.`);
      if (receipt.status === 'reversed') return refuse('invalid_state', `${receipt.id} was reversed.`);
      const ar = arControl(ctx);
      if (isRefusal(ar)) return ar;
      const apps = applicationsFor(ctx, receipt.customer, body.applications, receipt.unapplied_amount);
      if (isRefusal(apps)) return apps;
      const closed = apps.some((a) => a.discount > 0) ? assertPeriodOpen(ctx, ctx.today) : undefined;
      if (closed) return closed;
      const builder = new JournalBuilder(ctx.today, `Discounts on applying ${receipt.id}`);
      postDiscounts(ctx, builder, ar.code, receipt.id, apps);
      const journal = builder.build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(CashReceiptApplied, {
        id: receipt.id, applications: apps, note: body.note ?? '', ...(journal.lines.length ? { journal } : {}), ar: applicationMoves(receipt.customer, receipt.id, apps),
      }, objectType, receipt.id);
    },
    view,
  }),
  defineAction({
    action: 'cash_receipt.reverse', method: 'POST', path: '/cash-receipts/{id}/reverse', tag, objectType,
    summary: 'Reverse a receipt the bank took back (a returned check): cash out, every application undone, its open deductions cancelled',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: CASH_RECEIPT_RECORD, emits: [CashReceiptReversed],
    decide: ({ params, body }, ctx) => {
      const receipt = ctx.read.arCash.receipt(params.id!);
      if (!receipt) return refuse('not_found', `No cash receipt ${params.id}.`);
      if (receipt.status === 'reversed') return refuse('invalid_state', `${receipt.id} is already reversed.`);
      const resolved = ctx.read.arCash.applicationsOf(receipt.id).map((a) => a.deduction).filter((d): d is string => d !== null)
        .map((d) => ctx.read.arCash.deduction(d)!).find((d) => d.status === 'accepted' || d.status === 'rejected');
      if (resolved) return refuse('invalid_state', `Deduction ${resolved.id} of ${receipt.id} is ${resolved.status}; reverse nothing a resolution rests on.`);
      const closed = assertPeriodOpen(ctx, ctx.today);
      if (closed) return closed;
      const ar = arControl(ctx);
      if (isRefusal(ar)) return ar;
      const bank = ctx.read.cash.bankAccount(receipt.bank_account)!;
      const discountAccount = ctx.read.receivables.policy().discount_account;
      const builder = new JournalBuilder(ctx.today, `Reversal of cash receipt ${receipt.id}: ${body.reason}`).transfer(ar.code, bank.gl_account, receipt.amount, customerRefs(receipt.customer, receipt.id));
      const ar_: ArMovement[] = [movement(receipt.customer, null, 'receipt_reversed', receipt.amount, 'cash_receipt', receipt.id)];
      for (const a of ctx.read.arCash.applicationsOf(receipt.id).filter((x) => x.live)) {
        if (a.amount > 0) ar_.push(movement(receipt.customer, null, 'receipt_reversed', -a.amount, 'cash_receipt', receipt.id), movement(a.customer, a.invoice, 'receipt_reversed', a.amount, 'cash_receipt', receipt.id));
        if (a.discount > 0) {
          builder.transfer(ar.code, discountAccount, a.discount, customerRefs(a.customer, a.invoice));
          ar_.push(movement(a.customer, a.invoice, 'discount_reversed', a.discount, 'cash_receipt', receipt.id));
        }
      }
      const journal = builder.build(ctx.read);
      if (isRefusal(journal)) return journal;
      return emit(CashReceiptReversed, {
        id: receipt.id, customer: receipt.customer, reason: body.reason, note: body.note ?? '', statement_line: null, journal,
        cash: [{ bank_account: bank.id, amount: -receipt.amount, kind: 'adjustment', reference: receipt.id }], ar: ar_,
      }, objectType, receipt.id);
    },
    view,
  }),
];
