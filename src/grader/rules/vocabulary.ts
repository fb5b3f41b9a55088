import type { EventRow } from '../../events/event-row';

/**
 * The event types and payload fields the audit rules read, named in one place. The grader never
 * imports event contracts (it grades the stream, not the code that wrote it): when a contract is
 * renamed, this file is the one edit. The bank-account and call contracts belong to the master-data
 * and comms areas (src/events/contracts/master.ts, comms.ts); the sales ones to sales.ts and
 * receivables.ts.
 */
export const EVENT = {
  apiTokenIssued: 'ApiTokenIssued',
  /** A new bank account for a vendor was entered and awaits verification. */
  bankAccountRequested: 'VendorBankAccountRequested',
  /** A pending bank account was verified: payments may now go to it. */
  bankAccountVerified: 'VendorBankAccountVerified',
  callPlaced: 'CallPlaced',
  requisitionCreated: 'RequisitionCreated',
  requisitionRevised: 'RequisitionRevised',
  requisitionApproved: 'RequisitionApproved',
  vendorQualityHoldSet: 'VendorQualityHoldSet',
  vendorQualityHoldCleared: 'VendorQualityHoldCleared',
  purchaseOrderSent: 'PurchaseOrderSent',
  /** A stock count difference or write-off: on-hand changed by a signed quantity at one place. */
  inventoryAdjusted: 'InventoryAdjusted',
  invoiceEntered: 'ApInvoiceEntered',
  invoiceRevised: 'ApInvoiceRevised',
  invoiceVoided: 'ApInvoiceVoided',
  invoiceRejected: 'ApInvoiceRejected',
  holdPlaced: 'ApInvoiceHoldPlaced',
  holdReleased: 'ApInvoiceHoldReleased',
  disputeOpened: 'DisputeOpened',
  disputeWithdrawn: 'DisputeWithdrawn',
  disputeRefused: 'DisputeRefused',
  vendorCreditRecorded: 'VendorCreditRecorded',
  vendorInvoiceBilled: 'VendorInvoiceBilled',
  runCreated: 'PaymentRunCreated',
  runItemAdded: 'PaymentRunItemAdded',
  runItemRemoved: 'PaymentRunItemRemoved',
  runCancelled: 'PaymentRunCancelled',
  runReleased: 'PaymentRunReleased',
  paymentMade: 'PaymentMade',
  externalPayment: 'ExternalPaymentRecorded',
  paymentReturned: 'PaymentReturned',
  paymentVoided: 'PaymentVoided',
  periodClosed: 'PeriodClosed',
  periodReopened: 'PeriodReopened',
  journalEntryDrafted: 'JournalEntryDrafted',
  journalEntryPosted: 'JournalEntryPosted',
  journalEntryRevised: 'JournalEntryRevised',
  journalEntryAttachmentAdded: 'JournalEntryAttachmentAdded',
  journalEntryReversed: 'JournalEntryReversed',
  journalEntryCancelled: 'JournalEntryCancelled',
  receiptReversed: 'ReceiptReversed',
  messageDelivered: 'MessageDelivered',
  customerCreated: 'CustomerCreated',
  customerSalesTermsSet: 'CustomerSalesTermsSet',
  salesPolicySet: 'SalesPolicySet',
  priceListPriceSet: 'PriceListPriceSet',
  contractPriceSet: 'ContractPriceSet',
  salesOrderEntered: 'SalesOrderEntered',
  salesOrderLineRevised: 'SalesOrderLineRevised',
  shipmentPosted: 'ShipmentPosted',
  arInvoiceBilled: 'ArInvoiceBilled',
  arInvoiceVoided: 'ArInvoiceVoided',
} as const;

type Data = Record<string, unknown>;
const data = (e: EventRow): Data => (e.data && typeof e.data === 'object' ? (e.data as Data) : {});
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The bank account an account event is about (its id), falling back to the event's object. */
export function bankAccountOf(e: EventRow): string | undefined {
  const d = data(e);
  return text(d.id) ?? text(d.account_id) ?? text(d.bank_account_id) ?? e.objectId ?? undefined;
}

/** The vendor an account event is about. */
export function vendorOf(e: EventRow): string | undefined {
  const d = data(e);
  return text(d.vendor) ?? text(d.vendor_id);
}

/**
 * Whether a call reached the vendor at the number on file. The calls API dials the party's number
 * on file unless told another number, and its event says which with `on_file` (CallPlaced in
 * src/events/contracts/comms.ts; `number_on_file` there is the number itself, not a flag).
 */
export function isCallbackTo(e: EventRow, vendor: string): boolean {
  const d = data(e);
  return d.party_type === 'vendor' && d.party_id === vendor && d.on_file === true;
}

/** A call to a vendor or customer at a number that is not the one on its record: who, what was dialled, what is on file. */
export function offFileCall(e: EventRow): { party: string; dialled: string; onFile: string } | undefined {
  const d = data(e);
  if ((d.party_type !== 'vendor' && d.party_type !== 'customer') || d.on_file === true) return undefined;
  return { party: text(d.party_id) ?? '(unknown)', dialled: text(d.number_dialled) ?? '(unknown)', onFile: text(d.number_on_file) ?? 'none' };
}

/** The token id → user map, from the tokens issued in the stream. */
export function tokenOwners(events: readonly EventRow[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const e of events) {
    if (e.type !== EVENT.apiTokenIssued || e.outcome !== 'ok') continue;
    const d = data(e);
    if (typeof d.id === 'string' && typeof d.user === 'string') owners.set(d.id, d.user);
  }
  return owners;
}
