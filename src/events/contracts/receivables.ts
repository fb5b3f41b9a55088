import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { BasisPoints, Cents, DateString, Id, Nullable, Obj, PositiveCents, Quantity, Text } from './common';
import { AccountCode, CashMovement, Journal, ReasonCode } from './ledger';
import { LineNo } from './payables';

/**
 * A change to what a customer owes, carried by any event as `ar: ArMovement[]` beside its journal
 * (like `ap`). The receivables read model folds them into ar_transactions, the AR subledger, and
 * refuses (by throwing) an event whose movements differ from what its journal posts to the AR
 * control account. Signed: positive raises what the customer owes. `invoice` is null for cash or
 * credit held on the customer's account.
 */
export const ArMovementKind = Type.Union(
  ['invoice', 'void', 'receipt', 'receipt_applied', 'payment', 'discount', 'credit_memo', 'credit_applied', 'deduction_accepted', 'receipt_reversed', 'discount_reversed'].map((k) => Type.Literal(k)),
);
export const ArMovement = Obj({ customer: Id, invoice: Nullable(Id), kind: ArMovementKind, amount: Cents, document_type: ReasonCode, document_id: Id });
export type ArMovement = Static<typeof ArMovement>;

/** The accounts receivables and sales post to (docs/receivables.md, "Postings"). */
export const SalesPolicySet = defineEvent(
  'SalesPolicySet',
  Obj({
    default_price_list: Nullable(Id),
    revenue_account: AccountCode,
    freight_account: AccountCode,
    tax_account: AccountCode,
    discount_account: AccountCode,
    returns_account: AccountCode,
    restocking_account: AccountCode,
    rebate_account: AccountCode,
    allowance_account: AccountCode,
    cogs_account: AccountCode,
  }),
);

// AR invoices: open → paid; voided (nothing applied) with a reason

export const ArInvoiceLine = Obj({
  line: LineNo,
  so_line: Nullable(LineNo),
  item: Nullable(Id),
  description: Type.String({ maxLength: 400 }),
  qty: Quantity,
  unit_price: Cents,
  amount: Cents,
  account: AccountCode,
  /** The inventory cost of the units billed (from their shipment): what the line's margin is taken against. */
  cost: Cents,
});
export type ArInvoiceLine = Static<typeof ArInvoiceLine>;

export const ArInvoiceBilled = defineEvent(
  'ArInvoiceBilled',
  Obj({
    id: Id,
    customer: Id,
    kind: Type.Union([Type.Literal('shipment'), Type.Literal('manual')]),
    sales_order: Nullable(Id),
    shipment: Nullable(Id),
    customer_po: Type.String({ maxLength: 80 }),
    ship_to: Nullable(Id),
    invoice_date: DateString,
    /** The posting date: the invoice date, except opening balances booked on the first day of the books. */
    gl_date: DateString,
    terms: Id,
    due_date: DateString,
    discount_date: Nullable(DateString),
    discount_amount: PositiveCents,
    lines: Type.Array(ArInvoiceLine, { minItems: 1, maxItems: 400 }),
    subtotal: Cents,
    tax_code: Nullable(Id),
    tax_rate_bp: BasisPoints,
    tax: Cents,
    freight: Cents,
    total: Cents,
    note: Text,
    journal: Journal,
    ar: Type.Array(ArMovement, { minItems: 1, maxItems: 1 }),
  }),
);

/** An invoice nothing was applied to, taken back: its postings reversed on the void date; a shipment it billed can be billed again. */
export const ArInvoiceVoided = defineEvent(
  'ArInvoiceVoided',
  Obj({ id: Id, customer: Id, shipment: Nullable(Id), reason: ReasonCode, note: Text, journal: Journal, ar: Type.Array(ArMovement, { minItems: 1, maxItems: 1 }) }),
);

// Cash receipts and their applications

export const DeductionTaken = Obj({ id: Id, amount: PositiveCents, reason: ReasonCode });

/** Part of a receipt applied to one invoice: cash, a cash discount, and a short payment kept open as a deduction. */
export const Application = Obj({
  invoice: Id,
  customer: Id,
  amount: PositiveCents,
  discount: PositiveCents,
  deduction: Nullable(DeductionTaken),
});
export type Application = Static<typeof Application>;

/**
 * Money a customer paid into a company bank account: Dr cash, Cr AR on the customer's account, then
 * applied to invoices (cash discounts Dr the discount account). What is not applied stays on account.
 */
export const CashReceiptRecorded = defineEvent(
  'CashReceiptRecorded',
  Obj({
    id: Id, customer: Id, bank_account: Id, date: DateString, amount: PositiveCents, reference: Type.String({ maxLength: 200 }),
    statement_line: Nullable(Id), source_message: Nullable(Id), applications: Type.Array(Application, { maxItems: 500 }), note: Text,
    journal: Journal, cash: Type.Array(CashMovement, { minItems: 1, maxItems: 1 }), ar: Type.Array(ArMovement, { minItems: 1, maxItems: 2000 }),
  }),
);

/** Cash held on account applied to invoices later; a discount on them posts, the cash itself only moves between AR items. */
export const CashReceiptApplied = defineEvent(
  'CashReceiptApplied',
  Obj({ id: Id, applications: Type.Array(Application, { minItems: 1, maxItems: 500 }), note: Text, journal: Type.Optional(Journal), ar: Type.Array(ArMovement, { minItems: 2, maxItems: 2000 }) }),
);

/** A receipt the bank took back (a returned check): cash out again, every application undone, its deductions cancelled. */
export const CashReceiptReversed = defineEvent(
  'CashReceiptReversed',
  Obj({
    id: Id, customer: Id, reason: ReasonCode, note: Text, statement_line: Nullable(Id),
    journal: Journal, cash: Type.Array(CashMovement, { minItems: 1, maxItems: 1 }), ar: Type.Array(ArMovement, { minItems: 1, maxItems: 2000 }),
  }),
);

/**
 * A deduction resolved: accepted, it is credited to the invoice (Dr the account, Cr AR); rejected,
 * it stays owed on the invoice and is collected.
 */
export const DeductionResolved = defineEvent(
  'DeductionResolved',
  Obj({
    id: Id, invoice: Id, customer: Id, resolution: Type.Union([Type.Literal('accepted'), Type.Literal('rejected')]), amount: PositiveCents,
    account: Nullable(AccountCode), note: Text, journal: Type.Optional(Journal), ar: Type.Optional(Type.Array(ArMovement, { maxItems: 1 })),
  }),
);

// Credit memos: for returns (from an RMA), rebates, allowances and accepted claims

export const CreditMemoLine = Obj({
  line: LineNo, item: Nullable(Id), description: Type.String({ maxLength: 400 }), qty: Quantity, unit_price: Cents, amount: Cents, account: AccountCode,
  /** For returned units: the inventory cost they came back at, which reduces the margin's cost. */
  cost: Cents,
});
export type CreditMemoLine = Static<typeof CreditMemoLine>;

export const ArCreditMemoIssued = defineEvent(
  'ArCreditMemoIssued',
  Obj({
    id: Id, customer: Id, date: DateString, reason: ReasonCode, invoice: Nullable(Id), rma: Nullable(Id), rebate_agreement: Nullable(Id),
    lines: Type.Array(CreditMemoLine, { minItems: 1, maxItems: 200 }), subtotal: Cents, tax: Cents, restocking_fee: PositiveCents, total: PositiveCents,
    note: Text, journal: Journal, ar: Type.Array(ArMovement, { minItems: 1, maxItems: 1 }),
  }),
);

export const ArCreditMemoApplied = defineEvent(
  'ArCreditMemoApplied',
  Obj({ id: Id, customer: Id, invoice: Id, amount: PositiveCents, note: Text, ar: Type.Array(ArMovement, { minItems: 2, maxItems: 2 }) }),
);

// Collections: dunning actions, promises to pay, customer credit holds, credit limits

export const DUNNING_LEVELS = ['reminder', 'second_notice', 'final_notice', 'collections'] as const;
export const DunningLevel = Type.Union(DUNNING_LEVELS.map((l) => Type.Literal(l)));
export type DunningLevel = (typeof DUNNING_LEVELS)[number];

/** The aging buckets of ar-aging and ap-aging. */
export const AgingBucket = Type.Union(['current', '1_30', '31_60', '61_90', 'over_90'].map((b) => Type.Literal(b)));
export const DunnedInvoice = Obj({ invoice: Id, open_amount: Cents, due_date: DateString, days_past_due: Type.Integer({ minimum: 0 }), bucket: AgingBucket });

export const DunningActionRecorded = defineEvent(
  'DunningActionRecorded',
  Obj({
    id: Id, customer: Id, level: DunningLevel, channel: Type.Union([Type.Literal('email'), Type.Literal('call'), Type.Literal('letter')]),
    /** The oldest bucket among the invoices dunned (ar-aging's buckets). */
    bucket: AgingBucket, invoices: Type.Array(DunnedInvoice, { minItems: 1, maxItems: 500 }), total_overdue: Cents, message: Nullable(Id), note: Text,
  }),
);

export const PromiseToPayRecorded = defineEvent(
  'PromiseToPayRecorded',
  Obj({ id: Id, customer: Id, promise_date: DateString, amount: PositiveCents, invoices: Type.Array(Id, { maxItems: 500 }), dunning: Nullable(Id), note: Text }),
);

export const CustomerCreditHoldPlaced = defineEvent('CustomerCreditHoldPlaced', Obj({ id: Id, customer: Id, reason: ReasonCode, note: Text }));
export const CustomerCreditHoldReleased = defineEvent('CustomerCreditHoldReleased', Obj({ id: Id, customer: Id, note: Text }));

// The customer counterparty's own records (confidential: simulator and grader only)

export const CustomerOrderPlaced = defineEvent(
  'CustomerOrderPlaced',
  Obj({
    id: Id, customer: Id, customer_po: Type.String({ minLength: 1, maxLength: 80 }), ship_to: Id, message: Id,
    lines: Type.Array(Obj({ item: Id, qty: Quantity, requested_date: DateString, claimed_price: Nullable(PositiveCents) }), { minItems: 1, maxItems: 200 }),
    note: Text,
  }),
  { confidential: true },
);

export const RemittanceLine = Obj({
  /** The invoice as the customer wrote it on the remittance (a wrong reference is planted here). */
  reference: Type.String({ maxLength: 80 }),
  /** The invoice it really pays. */
  invoice: Id,
  amount: PositiveCents,
  discount: PositiveCents,
  deduction: Nullable(Obj({ amount: PositiveCents, reason: ReasonCode })),
});
export type RemittanceLine = Static<typeof RemittanceLine>;

export const CustomerPaymentSent = defineEvent(
  'CustomerPaymentSent',
  Obj({
    id: Id, customer: Id, bank_account: Id, date: DateString, amount: PositiveCents, reference: Type.String({ minLength: 1, maxLength: 200 }),
    /** The payment behaviour the profile planted: on_time, late, short, wrong_reference, parent, promise. */
    behaviour: ReasonCode, remittance: Type.Array(RemittanceLine, { minItems: 1, maxItems: 500 }), message: Nullable(Id), note: Text,
  }),
  { confidential: true },
);

export const CustomerPaymentBanked = defineEvent('CustomerPaymentBanked', Obj({ id: Id, statement_line: Id }), { confidential: true });

export const CustomerCreditLimitChanged = defineEvent(
  'CustomerCreditLimitChanged',
  Obj({ customer: Id, credit_limit: PositiveCents, previous: PositiveCents, reason: ReasonCode, note: Text }),
);
