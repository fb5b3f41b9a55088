import { Type } from '@sinclair/typebox';
import { ApPolicySet } from '../../events/contracts/payables';
import { VendorInvoiceBilled } from '../../events/contracts/payables-memos';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { assertAccountsPostable } from '../ledger/journal';
import { AccountInput, VendorIdInput } from '../master/inputs';
import { toCents } from '../money';
import { Body, DateInput, IdInput, MoneyInput, Opt, QuantityInput, ReasonInput } from '../schemas';
import { tag } from './invoices';
import { AP_POLICY, SIM_SCRIPT } from './permissions';

const ACCOUNTS = ['price_variance_account', 'quantity_variance_account', 'freight_account', 'tax_account', 'write_off_account', 'discount_account'] as const;

const BilledLineInput = Type.Object({
  po_line: Opt(Type.Integer({ minimum: 1, maximum: 10000 })), item: Opt(IdInput), description: Type.String({ maxLength: 400 }),
  qty: QuantityInput, unit_price: MoneyInput, amount: MoneyInput,
}, { additionalProperties: false });

export const policyRoutes: RouteDef[] = [
  defineAction({
    action: 'ap_policy.set', method: 'POST', path: '/payables/policy', tag, objectType: 'ap_policy',
    summary: "Set the handbook's price tolerance (basis points) and the accounts AP postings use; fields left out keep their value",
    body: Body({ price_tolerance_bp: Opt(Type.Integer({ minimum: 0, maximum: 100000 })), ...Object.fromEntries(ACCOUNTS.map((a) => [a, Opt(AccountInput)])) }),
    permission: AP_POLICY, emits: [ApPolicySet],
    decide: ({ body }, ctx) => {
      const next = { ...ctx.read.payables.policy(), ...(body as Record<string, unknown>) } as ReturnType<typeof ctx.read.payables.policy>;
      const bad = assertAccountsPostable(ctx.read, ACCOUNTS.map((a) => next[a]));
      if (bad) return bad;
      const control = ACCOUNTS.find((a) => ctx.read.ledger.account(next[a])!.control);
      if (control) return refuse('invalid_request', `${control} cannot be control account ${next[control]}.`, 422);
      return emit(ApPolicySet, next, 'ap_policy', 'current');
    },
    view: (read) => read.payables.policy(),
  }),
  defineQuery({
    path: '/payables/policy', tag, permission: null, summary: 'The price tolerance and the accounts AP postings use',
    query: Type.Object({}, { additionalProperties: false }),
    run: (_input, ctx) => ctx.read.payables.policy(),
  }),
  defineAction({
    action: 'vendor_invoice.bill', method: 'POST', path: '/sim/vendor-invoices', tag: 'simulation', status: 201, objectType: 'vendor_billing',
    summary: 'Record what a vendor counterparty billed, structured, beside the document it mailed (confidential; simulator only)',
    body: Body({
      vendor: VendorIdInput, invoice_number: Type.String({ minLength: 1, maxLength: 80 }), invoice_date: DateInput, po: Opt(IdInput),
      source_type: Type.Union([Type.Literal('delivery'), Type.Literal('receipt')]), source_id: IdInput, message: IdInput,
      lines: Type.Array(BilledLineInput, { minItems: 1, maxItems: 500 }), tax: MoneyInput, freight: MoneyInput, total: MoneyInput, terms: IdInput,
      defects: Type.Array(ReasonInput, { maxItems: 20 }),
      bank_notice: Opt(Type.Object({ bank_name: Type.String({ maxLength: 200 }), routing: Type.String({ maxLength: 40 }), account: Type.String({ maxLength: 40 }) }, { additionalProperties: false })),
      resubmission_of: Opt(IdInput),
    }),
    permission: SIM_SCRIPT, emits: [VendorInvoiceBilled],
    decide: ({ body }, ctx) => {
      if (!ctx.read.vendors.vendor(body.vendor)) return refuse('not_found', `No vendor ${body.vendor}.`);
      if (!ctx.read.messages.message(body.message)) return refuse('not_found', `No message ${body.message}.`);
      if (body.resubmission_of && !ctx.read.apMemos.billing(body.resubmission_of)) return refuse('not_found', `No billing ${body.resubmission_of}.`);
      const id = ctx.nextId('VB');
      return emit(VendorInvoiceBilled, {
        id, vendor: body.vendor, invoice_number: body.invoice_number, invoice_date: body.invoice_date, po: body.po ?? null, source_type: body.source_type,
        source_id: body.source_id, message: body.message,
        lines: body.lines.map((l) => ({ po_line: l.po_line ?? null, item: l.item ?? null, description: l.description, qty: l.qty, unit_price: toCents(l.unit_price), amount: toCents(l.amount) })),
        tax: toCents(body.tax), freight: toCents(body.freight), total: toCents(body.total), terms: body.terms, defects: body.defects,
        bank_notice: body.bank_notice ?? null, resubmission_of: body.resubmission_of ?? null,
      }, 'vendor_billing', id);
    },
    view: (_read, id) => ({ id }),
  }),
];
