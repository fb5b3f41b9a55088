import { Type } from '@sinclair/typebox';
import { CustomerOrderPlaced, CustomerPaymentBanked, CustomerPaymentSent, SalesPolicySet } from '../../events/contracts/receivables';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { AccountInput } from '../master/inputs';
import { SIM_SCRIPT } from '../payables/permissions';
import { toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, NoteInput, Opt, QuantityInput, ReasonInput } from '../schemas';
import { SALES_POLICY_SET } from './permissions';
import { tag } from './shared';

const ACCOUNTS = ['revenue_account', 'freight_account', 'tax_account', 'discount_account', 'returns_account', 'restocking_account', 'rebate_account', 'allowance_account', 'cogs_account'] as const;

export const policyRoutes: RouteDef[] = [
  defineAction({
    action: 'sales_policy.set', method: 'POST', path: '/sales/policy', tag, objectType: 'sales_policy',
    summary: 'Set the default price list and the accounts sales and receivables post to; fields left out keep their value',
    body: Body({ default_price_list: Opt(IdInput), ...Object.fromEntries(ACCOUNTS.map((a) => [a, Opt(AccountInput)])) as Record<(typeof ACCOUNTS)[number], ReturnType<typeof Opt<typeof AccountInput>>> }),
    permission: SALES_POLICY_SET, emits: [SalesPolicySet],
    decide: ({ body }, ctx) => {
      const next = { ...ctx.read.receivables.policy(), ...body } as ReturnType<typeof ctx.read.receivables.policy>;
      if (next.default_price_list && !ctx.read.salesPricing.priceList(next.default_price_list)) return refuse('not_found', `No price list ${next.default_price_list}.`);
      const controls = new Set(ctx.read.ledger.controlAccounts().map((a) => a.code));
      for (const a of ACCOUNTS) {
        if (!ctx.read.ledger.account(next[a])) return refuse('not_found', `${a}: no account ${next[a]}.`);
        if (controls.has(next[a]) && a !== 'tax_account') return refuse('invalid_request', `${a}: ${next[a]} is a control account.`, 422);
      }
      return emit(SalesPolicySet, next, 'sales_policy', 'sales');
    },
    view: (read) => read.receivables.policy(),
  }),
  defineQuery({
    path: '/sales/policy', tag, summary: 'The default price list and the accounts sales and receivables post to', permission: null,
    query: Type.Object({}, { additionalProperties: false }), run: (_input, ctx) => ctx.read.receivables.policy(),
  }),
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
