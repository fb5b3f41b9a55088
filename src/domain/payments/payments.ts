import { Type } from '@sinclair/typebox';
import { ExternalPaymentRecorded, PaymentCleared, PaymentMade, PaymentReturned, PaymentVoided } from '../../events/contracts/payments';
import type { StatementLineRow } from '../../projections/ledger-cash';
import type { PaymentRow, PaymentStatus } from '../../projections/payments';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { VendorIdInput } from '../master/inputs';
import { formatCents, toCents } from '../money';
import { Body, DateInput, DiscountInput, IdInput, MoneyField, MoneyInput, NoteInput, Opt, ReasonInput } from '../schemas';
import { CLEAR, PAY, RECORD_EXTERNAL, VOID } from './permissions';
import { companyBankAccount, payable, settle, unsettle } from './settle';
import { paymentView } from './views';

const tag = 'payments';
const objectType = 'payment';
const view = (read: Parameters<typeof paymentView>[0], id: string) => paymentView(read, id);

function paymentIn(ctx: DecideContext, id: string, states: readonly PaymentStatus[], action: string): PaymentRow | Refusal {
  const p = ctx.read.payments.payment(id);
  if (!p) return refuse('not_found', `No payment ${id}.`);
  if (!states.includes(p.status)) return refuse('invalid_state', `${p.id} is ${p.status}; only a ${states.join(' or ')} payment can be ${action}.`);
  return p;
}

/** The bank's line for this payment: unmatched, on the payment's bank account, of the kind and amount expected. */
function statementLineFor(ctx: DecideContext, id: string, bankAccount: string, kind: StatementLineRow['kind'], amount: number): StatementLineRow | Refusal {
  const line = ctx.read.cash.statementLine(id);
  if (!line) return refuse('not_found', `No bank statement line ${id}.`);
  if (line.status === 'matched') return refuse('invalid_state', `Statement line ${line.id} is already matched to ${line.matched}.`);
  if (line.bank_account !== bankAccount) return refuse('invalid_request', `Statement line ${line.id} is on ${line.bank_account}, not ${bankAccount}.`, 422);
  if (line.kind !== kind || line.amount !== amount) {
    return refuse('invalid_request', `Statement line ${line.id} is a ${line.kind} of ${formatCents(line.amount)}, not a ${kind} of ${formatCents(amount)}.`, 422);
  }
  return line;
}

interface PayNow {
  amount?: number | string;
  discount?: number | string;
  bank_account: string;
  vendor_bank_account?: string;
  routing_number?: string;
  account_number?: string;
  note?: string;
}

function payNow(ctx: DecideContext, invoiceId: string, body: PayNow) {
  const bank = companyBankAccount(ctx, body.bank_account);
  if (isRefusal(bank)) return bank;
  const invoice = ctx.read.payables.invoice(invoiceId);
  const discount = body.discount === undefined ? 0 : toCents(body.discount);
  const amount = body.amount === undefined ? (invoice?.open_amount ?? 0) - discount : toCents(body.amount);
  const ok = payable(ctx, invoiceId, amount, discount);
  if (isRefusal(ok)) return ok;
  const verified = ok.bankAccount;
  const other = (body.vendor_bank_account !== undefined && body.vendor_bank_account !== verified.id)
    || (body.routing_number !== undefined && body.routing_number !== verified.routing_number)
    || (body.account_number !== undefined && body.account_number !== verified.account_number);
  if (other) return refuse('bank_account_unverified', `The account given is not the verified bank account of ${ok.invoice.vendor}; payments go only to its verified account.`);
  const payment = { id: ctx.nextId('PAY'), vendor: ok.invoice.vendor, vendor_bank_account: ok.bankAccount.id, amount, discount, allocations: [{ invoice: ok.invoice.id, amount, discount }] };
  const settlement = settle(ctx, bank, ctx.today, `Payment ${payment.id} of ${ok.invoice.id} (${ok.invoice.vendor_invoice_number})`, [payment]);
  if (isRefusal(settlement)) return settlement;
  return emit(PaymentMade, { payment, date: ctx.today, bank_account: bank.id, note: body.note ?? '', ...settlement }, objectType, payment.id);
}

/**
 * A wire released outside AP and cleared at the bank, applied to the invoices named in the bank
 * reference in the order given: each is paid in full before anything goes to the next, and the
 * rest of the last stays open (seed 004). The money has already left, so holds and approvals are
 * not checked here; the grader judges them.
 */
function recordExternal(ctx: DecideContext, body: { vendor: string; bank_account: string; amount: number | string; date?: string; reference: string; statement_line?: string; invoices: string[]; note?: string }) {
  const vendor = ctx.read.vendors.vendor(body.vendor);
  if (!vendor) return refuse('not_found', `No vendor ${body.vendor}.`);
  const bank = companyBankAccount(ctx, body.bank_account);
  if (isRefusal(bank)) return bank;
  const amount = toCents(body.amount);
  if (amount <= 0) return refuse('invalid_request', 'A payment amount must be positive.', 422);
  const date = body.date ?? ctx.today;
  if (date > ctx.today) return refuse('invalid_request', `A payment cannot be dated after today (${ctx.today}).`, 422);
  if (new Set(body.invoices).size !== body.invoices.length) return refuse('invalid_request', 'An invoice is listed twice.', 422);
  let rest = amount;
  const allocations = [];
  for (const id of body.invoices) {
    const inv = ctx.read.payables.invoice(id);
    if (!inv) return refuse('not_found', `No AP invoice ${id}.`);
    if (inv.vendor !== vendor.id) return refuse('invalid_request', `${inv.id} is from ${inv.vendor}, not ${vendor.id}.`, 422);
    if (!inv.posted || inv.lifecycle === 'voided') return refuse('invalid_state', `${inv.id} is not posted (it is ${inv.lifecycle}); only a posted invoice can be paid.`);
    if (rest === 0) break;
    const applied = Math.min(rest, inv.open_amount);
    if (applied <= 0) return refuse('invalid_state', `${inv.id} has nothing open.`);
    allocations.push({ invoice: inv.id, amount: applied, discount: 0 });
    rest -= applied;
  }
  if (rest > 0) return refuse('exceeds_open_amount', `The invoices named leave ${formatCents(rest)} of ${formatCents(amount)} unapplied.`);
  if (body.statement_line) {
    const line = statementLineFor(ctx, body.statement_line, bank.id, 'payment_cleared', -amount);
    if (isRefusal(line)) return line;
  }
  const payment = { id: ctx.nextId('PAY'), vendor: vendor.id, vendor_bank_account: null, amount, discount: 0, allocations };
  const settlement = settle(ctx, bank, date, `Payment ${payment.id} released outside AP: ${body.reference}`, [payment], body.statement_line ?? null);
  if (isRefusal(settlement)) return settlement;
  return emit(ExternalPaymentRecorded, {
    payment, date, bank_account: bank.id, reference: body.reference, statement_line: body.statement_line ?? null, note: body.note ?? '', ...settlement,
  }, objectType, payment.id);
}

export const paymentRoutes: RouteDef[] = [
  defineAction({
    action: 'payment.pay', method: 'POST', path: '/ap-invoices/{id}/pay', tag, status: 201, objectType,
    summary: 'Pay one approved invoice at once, to the vendor\'s verified account (same refusals and postings as a run)',
    description: 'Name the account paid to by id (vendor_bank_account) or by its numbers (routing_number, account_number); any account but the verified one is refused.',
    body: Body({
      amount: Opt(MoneyField('Amount paid; default the open amount less the discount given')), discount: Opt(DiscountInput), bank_account: IdInput, vendor_bank_account: Opt(IdInput),
      routing_number: Opt(Type.String({ pattern: '^[0-9]{9}$' })), account_number: Opt(Type.String({ pattern: '^[0-9]{4,17}$' })), note: Opt(NoteInput),
    }),
    permission: PAY, emits: [PaymentMade],
    decide: ({ params, body }, ctx) => payNow(ctx, params.id!, body),
    view,
  }),
  defineAction({
    action: 'payment.record_external', method: 'POST', path: '/payments/external', tag, status: 201, objectType,
    summary: 'Record a payment released outside AP that the bank shows cleared, applied to invoices in the order given; any remainder stays open',
    body: Body({
      vendor: VendorIdInput, bank_account: IdInput, amount: MoneyInput, date: Opt(DateInput), reference: Type.String({ minLength: 1, maxLength: 200 }),
      statement_line: Opt(IdInput), invoices: Type.Array(IdInput, { minItems: 1, maxItems: 100 }), note: Opt(NoteInput),
    }),
    permission: RECORD_EXTERNAL, emits: [ExternalPaymentRecorded],
    decide: ({ body }, ctx) => recordExternal(ctx, body),
    view,
  }),
  defineAction({
    action: 'payment.clear', method: 'POST', path: '/payments/{id}/clear', tag, objectType,
    summary: 'Clear a released payment against the bank\'s payment_cleared statement line, matching the line to its bank transaction',
    body: Body({ statement_line: IdInput }),
    permission: CLEAR, emits: [PaymentCleared],
    decide: ({ params, body }, ctx) => {
      const p = paymentIn(ctx, params.id!, ['released'], 'cleared');
      if (isRefusal(p)) return p;
      const line = statementLineFor(ctx, body.statement_line, p.bank_account, 'payment_cleared', -p.amount);
      if (isRefusal(line)) return line;
      return emit(PaymentCleared, { id: p.id, statement_line: line.id, date: line.date, bank_matches: [{ statement_line: line.id, reference: p.bank_transaction }] }, objectType, p.id);
    },
    view,
  }),
  defineAction({
    action: 'payment.return', method: 'POST', path: '/payments/{id}/return', tag, objectType,
    summary: 'Record a payment the bank returned (its returned_payment statement line): cash comes back and the invoices reopen',
    body: Body({ statement_line: IdInput, reason: ReasonInput, note: Opt(NoteInput) }),
    permission: CLEAR, emits: [PaymentReturned],
    decide: ({ params, body }, ctx) => {
      const p = paymentIn(ctx, params.id!, ['released', 'cleared'], 'returned');
      if (isRefusal(p)) return p;
      const line = statementLineFor(ctx, body.statement_line, p.bank_account, 'returned_payment', p.amount);
      if (isRefusal(line)) return line;
      const back = unsettle(ctx, p, ctx.read.payments.allocations(p.id), `Payment ${p.id} returned by the bank: ${body.reason}`, 'returned_payment', line.id);
      if (isRefusal(back)) return back;
      return emit(PaymentReturned, { id: p.id, statement_line: line.id, reason: body.reason, note: body.note ?? '', ...back }, objectType, p.id);
    },
    view,
  }),
  defineAction({
    action: 'payment.void', method: 'POST', path: '/payments/{id}/void', tag, objectType,
    summary: 'Void a released payment that has not cleared, with a reason: cash comes back and the invoices reopen',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: VOID, emits: [PaymentVoided],
    decide: ({ params, body }, ctx) => {
      const p = paymentIn(ctx, params.id!, ['released'], 'voided');
      if (isRefusal(p)) return p;
      const back = unsettle(ctx, p, ctx.read.payments.allocations(p.id), `Payment ${p.id} voided: ${body.reason}`, 'payment_void', null);
      if (isRefusal(back)) return back;
      return emit(PaymentVoided, { id: p.id, reason: body.reason, note: body.note ?? '', ...back }, objectType, p.id);
    },
    view,
  }),
];
