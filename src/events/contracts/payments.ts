import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Text } from './common';
import { BankMatch, CashMovement, Journal, ReasonCode } from './ledger';
import { VendorId } from './master';
import { ApMovement } from './payables';

/** An invoice proposed in a payment run: what it would pay, the discount it would take, and to which account. */
export const RunItem = Obj({
  invoice: Id,
  vendor: VendorId,
  amount: PositiveCents,
  discount: PositiveCents,
  /** The invoice's open amount when the item was added. */
  open_amount: Cents,
  /** The vendor's verified account when the item was added; a payment goes to the one verified at release. */
  vendor_bank_account: Nullable(Id),
});
export type RunItem = Static<typeof RunItem>;

export const Allocation = Obj({ invoice: Id, amount: PositiveCents, discount: PositiveCents });

/** One payment to one vendor: how much, the discount taken, the vendor account paid to, and the invoices it settles. */
export const PaymentRecord = Obj({
  id: Id,
  vendor: VendorId,
  vendor_bank_account: Nullable(Id),
  amount: PositiveCents,
  discount: PositiveCents,
  allocations: Type.Array(Allocation, { minItems: 1, maxItems: 500 }),
});
export type PaymentRecord = Static<typeof PaymentRecord>;

const Items = Type.Array(RunItem, { maxItems: 1000 });
const Money = { journal: Journal, cash: Type.Array(CashMovement, { minItems: 1, maxItems: 1000 }), ap: Type.Array(ApMovement, { minItems: 1, maxItems: 2000 }) };

// Payment runs: draft → submitted → approved → released; returned (to the preparer); cancelled

export const PaymentRunCreated = defineEvent(
  'PaymentRunCreated',
  Obj({ id: Id, payment_date: DateString, bank_account: Id, note: Text, items: Items }),
);
export const PaymentRunItemAdded = defineEvent('PaymentRunItemAdded', Obj({ id: Id, item: RunItem }));
export const PaymentRunItemRemoved = defineEvent('PaymentRunItemRemoved', Obj({ id: Id, invoice: Id, reason: ReasonCode, note: Text }));
export const PaymentRunSubmitted = defineEvent('PaymentRunSubmitted', Obj({ id: Id, total: Cents, discount: Cents, note: Text }));
export const PaymentRunApproved = defineEvent('PaymentRunApproved', Obj({ id: Id, total: Cents, note: Text }));
export const PaymentRunReturned = defineEvent('PaymentRunReturned', Obj({ id: Id, reason: ReasonCode, note: Text }));
export const PaymentRunCancelled = defineEvent('PaymentRunCancelled', Obj({ id: Id, reason: ReasonCode, note: Text }));

/** Released: one payment per vendor; Dr AP (amount + discount), Cr cash (amount), Cr discounts taken. */
export const PaymentRunReleased = defineEvent(
  'PaymentRunReleased',
  Obj({ id: Id, date: DateString, bank_account: Id, payments: Type.Array(PaymentRecord, { minItems: 1, maxItems: 1000 }), ...Money }),
);

/** A single invoice paid at once, outside a run. */
export const PaymentMade = defineEvent(
  'PaymentMade',
  Obj({ payment: PaymentRecord, date: DateString, bank_account: Id, note: Text, ...Money }),
);

/** A payment released outside AP (a wire) that the bank feed shows as cleared, applied to invoices in the order given. */
export const ExternalPaymentRecorded = defineEvent(
  'ExternalPaymentRecorded',
  Obj({ payment: PaymentRecord, date: DateString, bank_account: Id, reference: Type.String({ maxLength: 200 }), statement_line: Nullable(Id), note: Text, ...Money }),
);

/** The bank's statement shows the payment: it is cleared and its statement line matched to its bank transaction. */
export const PaymentCleared = defineEvent(
  'PaymentCleared',
  Obj({ id: Id, statement_line: Id, date: DateString, bank_matches: Type.Array(BankMatch, { minItems: 1, maxItems: 1 }) }),
);

/** The bank returned the payment: cash comes back, the invoices it settled reopen (Dr cash, Dr discounts taken, Cr AP). */
export const PaymentReturned = defineEvent(
  'PaymentReturned',
  Obj({ id: Id, statement_line: Id, reason: ReasonCode, note: Text, ...Money }),
);

/** A released payment that has not cleared, voided: the same reversal as a return, without a statement line. */
export const PaymentVoided = defineEvent('PaymentVoided', Obj({ id: Id, reason: ReasonCode, note: Text, ...Money }));
