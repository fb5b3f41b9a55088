import { Type } from '@sinclair/typebox';
import { CustomerOrderPlaced, CustomerPaymentBanked, CustomerPaymentSent } from '../../events/contracts/receivables';
import { defineAction, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { toCents } from '../money';
import { SIM_SCRIPT } from '../payables/permissions';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt, QuantityInput, ReasonInput } from '../schemas';

/**
 * The customer counterparty's and the bank's own records of what they did (confidential: the
 * audit route shows the rows, never their data), for the simulator and the grader.
 */
export const simRecordRoutes: RouteDef[] = [
  defineAction({
    action: 'customer_order.place', method: 'POST', path: '/sim/customer-orders', tag: 'simulation', status: 201, objectType: 'customer_order',
    summary: 'Record what a customer counterparty ordered, structured, beside the email it sent (confidential; simulator only)',
    body: Body({
      customer: IdInput, customer_po: Type.String({ minLength: 1, maxLength: 80 }), ship_to: IdInput, message: IdInput, note: Opt(NoteInput),
      lines: Type.Array(Body({ item: IdInput, qty: QuantityInput, requested_date: DateInput, claimed_price: Opt(MoneyInput) }), { minItems: 1, maxItems: 200 }),
    }),
    permission: SIM_SCRIPT, emits: [CustomerOrderPlaced],
    decide: ({ body }, ctx) => {
      if (!ctx.read.customers.customer(body.customer)) return refuse('not_found', `No customer ${body.customer}.`);
      if (!ctx.read.messages.message(body.message)) return refuse('not_found', `No message ${body.message}.`);
      const id = ctx.nextId('COR');
      return emit(CustomerOrderPlaced, {
        id, customer: body.customer, customer_po: body.customer_po, ship_to: body.ship_to, message: body.message, note: body.note ?? '',
        lines: body.lines.map((l) => ({ item: l.item, qty: l.qty, requested_date: l.requested_date, claimed_price: l.claimed_price === undefined ? null : toCents(l.claimed_price) })),
      }, 'customer_order', id);
    },
    view: (_read, id) => ({ id }),
  }),
  defineAction({
    action: 'customer_payment.send', method: 'POST', path: '/sim/customer-payments', tag: 'simulation', status: 201, objectType: 'customer_payment',
    summary: 'Record a payment a customer counterparty sent and what it says it pays (confidential; simulator only)',
    body: Body({
      customer: IdInput, bank_account: IdInput, date: Opt(DateInput), amount: MoneyInput, reference: Type.String({ minLength: 1, maxLength: 200 }), behaviour: ReasonInput,
      message: Opt(IdInput), note: Opt(NoteInput),
      remittance: Type.Array(Body({
        reference: Type.String({ maxLength: 80 }), invoice: IdInput, amount: MoneyInput, discount: Opt(MoneyInput), deduction: Opt(Body({ amount: MoneyInput, reason: ReasonInput })),
      }), { minItems: 1, maxItems: 500 }),
    }),
    permission: SIM_SCRIPT, emits: [CustomerPaymentSent],
    decide: ({ body }, ctx) => {
      if (!ctx.read.customers.customer(body.customer)) return refuse('not_found', `No customer ${body.customer}.`);
      if (!ctx.read.cash.bankAccount(body.bank_account)) return refuse('not_found', `No bank account ${body.bank_account}.`);
      const amount = toCents(body.amount);
      if (amount <= 0) return refuse('invalid_request', 'A payment is a positive amount.', 422);
      const id = ctx.nextId('CPY');
      return emit(CustomerPaymentSent, {
        id, customer: body.customer, bank_account: body.bank_account, date: body.date ?? ctx.today, amount, reference: body.reference, behaviour: body.behaviour,
        message: body.message ?? null, note: body.note ?? '',
        remittance: body.remittance.map((r) => ({
          reference: r.reference, invoice: r.invoice, amount: toCents(r.amount), discount: r.discount === undefined ? 0 : toCents(r.discount),
          deduction: r.deduction ? { amount: toCents(r.deduction.amount), reason: r.deduction.reason } : null,
        })),
      }, 'customer_payment', id);
    },
    view: (_read, id) => ({ id }),
  }),
  defineAction({
    action: 'customer_payment.bank', method: 'POST', path: '/sim/customer-payments/{id}/banked', tag: 'simulation', objectType: 'customer_payment',
    summary: 'Record the statement line the bank showed a customer payment on (confidential; simulator only)',
    body: Body({ statement_line: IdInput }),
    permission: SIM_SCRIPT, emits: [CustomerPaymentBanked],
    decide: ({ params, body }, ctx) => {
      const payment = ctx.read.collections.customerPayment(params.id!);
      if (!payment) return refuse('not_found', `No customer payment ${params.id}.`);
      if (payment.statement_line) return refuse('invalid_state', `${payment.id} is already on ${payment.statement_line}.`);
      if (!ctx.read.cash.statementLine(body.statement_line)) return refuse('not_found', `No bank statement line ${body.statement_line}.`);
      return emit(CustomerPaymentBanked, { id: payment.id, statement_line: body.statement_line }, 'customer_payment', payment.id);
    },
    view: (_read, id) => ({ id }),
  }),
];
