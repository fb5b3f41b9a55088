import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Quantity, Text } from './common';
import { AccountCode, Journal, ReasonCode } from './ledger';
import { VendorId } from './master';
import { ApMovement, InvoiceNumber, LineNo } from './payables';

/**
 * A vendor's credit memo (VCM): Dr AP, Cr the account it credits. Applied to an invoice at once, or
 * held on account until applied. Recorded from a dispute, it resolves the dispute.
 */
export const VendorCreditRecorded = defineEvent(
  'VendorCreditRecorded',
  Obj({
    id: Id,
    vendor: VendorId,
    /** The vendor's credit memo number as printed. */
    vendor_reference: Type.String({ maxLength: 80 }),
    document_date: DateString,
    amount: PositiveCents,
    account: AccountCode,
    invoice: Nullable(Id),
    dispute: Nullable(Id),
    source_message: Nullable(Id),
    note: Text,
    journal: Journal,
    ap: Type.Array(ApMovement, { minItems: 1, maxItems: 1 }),
  }),
);

/** Credit held on account applied to an invoice of the same vendor: AP moves between items, the GL does not change. */
export const VendorCreditApplied = defineEvent(
  'VendorCreditApplied',
  Obj({ id: Id, vendor: VendorId, invoice: Id, amount: PositiveCents, note: Text, ap: Type.Array(ApMovement, { minItems: 2, maxItems: 2 }) }),
);

export const DebitMemoLine = Obj({ po_line: LineNo, qty: Quantity, unit_price: Cents, amount: Cents });

/** A debit memo (DM) AP raises against an invoice, e.g. for unreceived units at PO price: Dr AP, Cr the variance account. */
export const DebitMemoRaised = defineEvent(
  'DebitMemoRaised',
  Obj({
    id: Id,
    vendor: VendorId,
    invoice: Id,
    amount: PositiveCents,
    account: AccountCode,
    reason: ReasonCode,
    lines: Type.Array(DebitMemoLine, { maxItems: 500 }),
    note: Text,
    journal: Journal,
    ap: Type.Array(ApMovement, { minItems: 1, maxItems: 1 }),
  }),
);

// Disputes: open → resolved (by a vendor credit memo) | refused (by the vendor) | withdrawn (by AP)

export const DisputeOpened = defineEvent('DisputeOpened', Obj({ id: Id, invoice: Id, vendor: VendorId, reason: ReasonCode, amount: PositiveCents, note: Text }));
export const DisputeWithdrawn = defineEvent('DisputeWithdrawn', Obj({ id: Id, reason: ReasonCode, note: Text }));
export const DisputeRefused = defineEvent('DisputeRefused', Obj({ id: Id, note: Text }));

export const BilledLine = Obj({
  po_line: Nullable(LineNo),
  item: Nullable(Id),
  description: Type.String({ maxLength: 400 }),
  qty: Quantity,
  unit_price: Cents,
  amount: Cents,
});

/**
 * What a vendor counterparty billed, structured, beside the rendered document it mailed: the
 * grader compares what was entered with this. Confidential: /audit shows the row, not the data.
 */
export const VendorInvoiceBilled = defineEvent(
  'VendorInvoiceBilled',
  Obj({
    id: Id,
    vendor: VendorId,
    invoice_number: InvoiceNumber,
    invoice_date: DateString,
    po: Nullable(Id),
    /** The shipment or receipt billed. */
    source_type: Type.Union([Type.Literal('delivery'), Type.Literal('receipt')]),
    source_id: Id,
    message: Id,
    lines: Type.Array(BilledLine, { minItems: 1, maxItems: 500 }),
    tax: Cents,
    freight: Cents,
    total: Cents,
    terms: Id,
    /** The planted billing defects this document carries. */
    defects: Type.Array(ReasonCode, { maxItems: 20 }),
    bank_notice: Nullable(Obj({ bank_name: Type.String({ maxLength: 200 }), routing: Type.String({ maxLength: 40 }), account: Type.String({ maxLength: 40 }) })),
    /** Set on a resubmission of an earlier billing, its number written differently. */
    resubmission_of: Nullable(Id),
  }),
  { confidential: true },
);
