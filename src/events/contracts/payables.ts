import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Quantity, Text } from './common';
import { AccountCode, Journal, ReasonCode } from './ledger';
import { VendorId } from './master';

export const LineNo = Type.Integer({ minimum: 1, maximum: 10000 });
export const InvoiceNumber = Type.String({ minLength: 1, maxLength: 80 });

/**
 * The fixed reason codes of an AP hold (docs/payables.md). A hold carries exactly one; an invoice
 * may carry several holds at once.
 */
export const HOLD_REASONS = [
  'price_variance', 'quantity_variance', 'awaiting_receipt', 'duplicate', 'tax', 'bank_details_unverified', 'non_po_approval', 'disputed', 'other',
] as const;
export const HoldReason = Type.Union(HOLD_REASONS.map((r) => Type.Literal(r)));
export type HoldReason = (typeof HOLD_REASONS)[number];

/**
 * A change to what the company owes a vendor, carried by any event as `ap: ApMovement[]` beside its
 * journal (like `cash` and `inventory`). The payables read model folds them into ap_transactions,
 * the AP subledger, and refuses (by throwing) an event whose movements differ from what its
 * journal posts to the AP control account. Amounts are signed: positive raises what is owed.
 * `invoice` is null for a vendor credit held on account.
 */
export const ApMovementKind = Type.Union(
  ['invoice', 'void', 'payment', 'payment_reversed', 'discount', 'discount_reversed', 'credit', 'credit_applied', 'debit_memo', 'write_off'].map((k) => Type.Literal(k)),
);
export const ApMovement = Obj({
  vendor: VendorId,
  invoice: Nullable(Id),
  kind: ApMovementKind,
  amount: Cents,
  document_type: ReasonCode,
  document_id: Id,
});
export type ApMovement = Static<typeof ApMovement>;

/**
 * Received value taken out of GRNI by a validated invoice (positive) or put back by its void
 * (negative), at PO price: carried as `grni: GrniMovement[]` and checked against the journal's
 * postings to the GRNI control account.
 */
export const GrniMovement = Obj({ po: Id, po_line: LineNo, invoice: Id, qty: Quantity, value: Cents });
export type GrniMovement = Static<typeof GrniMovement>;

/** A line as the vendor billed it. Non-PO lines carry the GL account and department they are coded to. */
export const ApInvoiceLine = Obj({
  line: LineNo,
  po_line: Nullable(LineNo),
  item: Nullable(Id),
  description: Type.String({ maxLength: 400 }),
  qty: Quantity,
  /** Cents per unit as printed. */
  unit_price: Cents,
  /** The line amount as printed, never recomputed. */
  amount: Cents,
  account: Nullable(AccountCode),
  department: Nullable(Id),
});
export type ApInvoiceLine = Static<typeof ApInvoiceLine>;

/** Everything the vendor printed, and what the vendor's terms make of it. */
const Billed = {
  vendor_invoice_number: InvoiceNumber,
  /** The number without punctuation, spaces, an INV prefix and leading zeros: how duplicates are found. */
  normalized_number: Type.String({ maxLength: 80 }),
  invoice_date: DateString,
  lines: Type.Array(ApInvoiceLine, { minItems: 1, maxItems: 500 }),
  tax: Cents,
  freight: Cents,
  total: Cents,
  terms: Id,
  due_date: DateString,
  discount_date: Nullable(DateString),
  discount_amount: PositiveCents,
};

export const ApInvoiceEntered = defineEvent(
  'ApInvoiceEntered',
  Obj({ id: Id, vendor: VendorId, po: Nullable(Id), source_message: Nullable(Id), department: Nullable(Id), ...Billed, note: Text }),
);

/** Billed values changed before posting: the old values travel with the new, so the trail shows who changed what. */
export const ApInvoiceRevised = defineEvent(
  'ApInvoiceRevised',
  Obj({ id: Id, previous: Obj(Billed), ...Billed, reason: Nullable(ReasonCode), note: Text }),
);

export const MatchKind = Type.Union([Type.Literal('goods'), Type.Literal('services'), Type.Literal('non_po')]);

/** The three-way match of one billed line, as stored when the invoice was validated. */
export const MatchLine = Obj({
  line: LineNo,
  po_line: Nullable(LineNo),
  kind: MatchKind,
  result: ReasonCode,
  exceptions: Type.Array(ReasonCode, { maxItems: 10 }),
  billed_qty: Quantity,
  billed_unit_price: Cents,
  billed_amount: Cents,
  /** qty × unit price less the amount as printed; 0 when the line adds up. */
  arithmetic_difference: Cents,
  po_unit_price: Nullable(Cents),
  price_variance_bp: Nullable(Type.Integer()),
  /** Received (goods) or ordered (services) and not yet invoiced, before this invoice. */
  available_qty: Nullable(Quantity),
  matched_qty: Quantity,
  /** At PO price: debited to GRNI (goods) or to the PO line's account (services). */
  matched_value: Cents,
  price_variance: Cents,
  quantity_variance: Cents,
});
export type MatchLine = Static<typeof MatchLine>;

export const Arithmetic = Obj({ lines_total: Cents, tax: Cents, freight: Cents, computed_total: Cents, billed_total: Cents, difference: Cents });
export type Arithmetic = Static<typeof Arithmetic>;

/** Matched and posted: Dr GRNI (or the PO line's account) at PO price, variances, freight and tax; Cr AP as billed. */
export const ApInvoiceValidated = defineEvent(
  'ApInvoiceValidated',
  Obj({
    id: Id,
    vendor: VendorId,
    po: Nullable(Id),
    gl_date: DateString,
    price_tolerance_bp: Type.Integer({ minimum: 0, maximum: 100000 }),
    match: Type.Array(MatchLine, { minItems: 1, maxItems: 500 }),
    arithmetic: Arithmetic,
    note: Text,
    journal: Journal,
    ap: Type.Array(ApMovement, { minItems: 1, maxItems: 10 }),
    grni: Type.Array(GrniMovement, { maxItems: 500 }),
  }),
);

export const ApInvoiceHoldPlaced = defineEvent('ApInvoiceHoldPlaced', Obj({ hold: Id, invoice: Id, reason: HoldReason, note: Text }));
export const ApInvoiceHoldReleased = defineEvent('ApInvoiceHoldReleased', Obj({ hold: Id, invoice: Id, reason: HoldReason, note: Text }));
export const ApInvoiceFlaggedDuplicate = defineEvent('ApInvoiceFlaggedDuplicate', Obj({ id: Id, original: Id, note: Text }));
export const ApInvoiceNoteAdded = defineEvent('ApInvoiceNoteAdded', Obj({ id: Id, text: Type.String({ minLength: 1, maxLength: 4000 }) }));
export const ApInvoiceApproved = defineEvent('ApInvoiceApproved', Obj({ id: Id, open_amount: Cents, note: Text }));
export const ApInvoiceRejected = defineEvent('ApInvoiceRejected', Obj({ id: Id, reason: ReasonCode, note: Text }));

/** Void of an unpaid invoice: a posted one has its validation reversed on the void date. */
export const ApInvoiceVoided = defineEvent(
  'ApInvoiceVoided',
  Obj({
    id: Id,
    reason: ReasonCode,
    note: Text,
    journal: Type.Optional(Journal),
    ap: Type.Optional(Type.Array(ApMovement, { maxItems: 10 })),
    grni: Type.Optional(Type.Array(GrniMovement, { maxItems: 500 })),
  }),
);

/** An open balance written off: Dr AP, Cr the write-off account. */
export const ApInvoiceWrittenOff = defineEvent(
  'ApInvoiceWrittenOff',
  Obj({ id: Id, vendor: VendorId, amount: PositiveCents, account: AccountCode, reason: ReasonCode, note: Text, journal: Journal, ap: Type.Array(ApMovement, { minItems: 1, maxItems: 1 }) }),
);

/** The handbook's match tolerance and the accounts AP postings use. */
export const ApPolicySet = defineEvent(
  'ApPolicySet',
  Obj({
    price_tolerance_bp: Type.Integer({ minimum: 0, maximum: 100000 }),
    price_variance_account: AccountCode,
    quantity_variance_account: AccountCode,
    freight_account: AccountCode,
    tax_account: AccountCode,
    write_off_account: AccountCode,
    discount_account: AccountCode,
  }),
);
