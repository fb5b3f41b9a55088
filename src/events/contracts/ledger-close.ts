import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Text } from './common';
import { AccountCode, Attachment, CashMovement, Journal, JournalEntryLine, PeriodString, ReasonCode } from './ledger';

// Recurring journal entries: a template drafts the same entry each month, which then takes the
// ordinary journal-entry flow (submit, approve, post).

export const RecurringEntryCreated = defineEvent(
  'RecurringEntryCreated',
  Obj({
    id: Id,
    memo: Type.String({ minLength: 1, maxLength: 400 }),
    lines: Type.Array(JournalEntryLine, { minItems: 2, maxItems: 500 }),
    attachments: Type.Array(Attachment, { maxItems: 50 }),
    /** The day of the month each entry is dated: 1 to 28, or 0 for the last day. */
    day: Type.Integer({ minimum: 0, maximum: 28 }),
    start_period: PeriodString,
    end_period: Nullable(PeriodString),
    /** Each drafted entry reverses on the first day of the next month. */
    reversing: Type.Boolean(),
  }),
);
export const RecurringEntryEnded = defineEvent('RecurringEntryEnded', Obj({ id: Id, reason: ReasonCode, note: Text }));

// Company bank accounts: transfers between them, the minimum balance treasury keeps, reconciliations.

/** Money moved between two of the company's bank accounts: two cash movements, one journal. */
export const BankTransferBooked = defineEvent(
  'BankTransferBooked',
  Obj({
    id: Id,
    from_account: Id,
    to_account: Id,
    date: DateString,
    amount: PositiveCents,
    reference: Type.String({ maxLength: 200 }),
    memo: Type.String({ maxLength: 400 }),
    journal: Journal,
    cash: Type.Array(CashMovement, { minItems: 2, maxItems: 2 }),
  }),
);

export const BankMinimumBalanceSet = defineEvent('BankMinimumBalanceSet', Obj({ bank_account: Id, minimum_balance: PositiveCents, note: Text }));

/** A book item still waiting for the bank at a reconciliation: an outstanding payment or a deposit in transit. */
export const OutstandingItem = Obj({ id: Id, date: DateString, kind: Type.String({ maxLength: 40 }), reference: Type.String({ maxLength: 200 }), amount: Cents });

/**
 * A bank account reconciled as of a date: every statement line to that date matched, and the
 * statement balance equal to the book balance less the items still outstanding.
 */
export const BankReconciliationCompleted = defineEvent(
  'BankReconciliationCompleted',
  Obj({
    id: Id,
    bank_account: Id,
    as_of: DateString,
    statement_balance: Cents,
    book_balance: Cents,
    outstanding: Type.Array(OutstandingItem, { maxItems: 5000 }),
    note: Text,
  }),
);

// Fixed assets and depreciation.

export const FixedAssetRegistered = defineEvent(
  'FixedAssetRegistered',
  Obj({
    id: Id,
    description: Type.String({ minLength: 1, maxLength: 200 }),
    cost_account: AccountCode,
    accumulated_account: AccountCode,
    expense_account: AccountCode,
    department: Nullable(Id),
    cost: PositiveCents,
    salvage: PositiveCents,
    life_months: Type.Integer({ minimum: 1, maximum: 600 }),
    in_service_date: DateString,
    /** Depreciation taken before the asset entered this register (opening balances). */
    opening_accumulated: PositiveCents,
    /** Where its cost was posted: the entry, invoice or withdrawal that capitalised it. */
    source: Type.String({ minLength: 1, maxLength: 200 }),
  }),
);

/** One month's depreciation of every asset in service, posted in one journal dated the month's end. */
export const DepreciationRunPosted = defineEvent(
  'DepreciationRunPosted',
  Obj({
    id: Id,
    period: PeriodString,
    lines: Type.Array(Obj({ asset: Id, amount: PositiveCents }), { maxItems: 5000 }),
    journal: Journal,
  }),
);

// Prepaid expenses and their amortization.

export const PrepaidScheduleCreated = defineEvent(
  'PrepaidScheduleCreated',
  Obj({
    id: Id,
    description: Type.String({ minLength: 1, maxLength: 200 }),
    prepaid_account: AccountCode,
    expense_account: AccountCode,
    department: Nullable(Id),
    amount: PositiveCents,
    start_period: PeriodString,
    months: Type.Integer({ minimum: 1, maximum: 120 }),
    /** Amortized before the schedule entered the register (opening balances). */
    opening_amortized: PositiveCents,
    source: Type.String({ minLength: 1, maxLength: 200 }),
  }),
);

/** One month's amortization of every prepaid schedule, posted in one journal dated the month's end. */
export const AmortizationRunPosted = defineEvent(
  'AmortizationRunPosted',
  Obj({
    id: Id,
    period: PeriodString,
    lines: Type.Array(Obj({ schedule: Id, amount: PositiveCents }), { maxItems: 5000 }),
    journal: Journal,
  }),
);
