import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Text } from './common';

export const AccountCode = Type.String({ pattern: '^[0-9]{4,6}$' });
export const PeriodString = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' });
export const ReasonCode = Type.String({ minLength: 1, maxLength: 80, pattern: '^[a-z][a-z0-9_]*$' });

export const AccountType = Type.Union(['asset', 'liability', 'equity', 'revenue', 'expense'].map((t) => Type.Literal(t)));
export const NormalSide = Type.Union([Type.Literal('debit'), Type.Literal('credit')]);
/** The subledger a control account ties to (docs/ledger.md, "Control accounts and their subledgers"). */
export const SubledgerKind = Type.Union(['cash', 'ar', 'inventory', 'ap', 'grni', 'wip'].map((t) => Type.Literal(t)));
export const PartyType = Type.Union([Type.Literal('vendor'), Type.Literal('customer'), Type.Literal('employee')]);

/** One posting line; exactly one of debit and credit is positive (the ledger read model checks it). */
export const JournalLine = Obj({
  account: AccountCode,
  debit: PositiveCents,
  credit: PositiveCents,
  party_type: Nullable(PartyType),
  party_id: Nullable(Id),
  document_id: Nullable(Id),
  /** For budget-vs-actual: the department the amount belongs to. */
  department: Type.Optional(Nullable(Id)),
});
export type JournalLine = Static<typeof JournalLine>;

/**
 * A balanced set of postings carried inside the event of the action that caused them
 * (docs/ledger.md). The ledger read model refuses, by throwing, to fold an unbalanced one.
 */
export const Journal = Obj({
  date: DateString,
  memo: Type.String({ maxLength: 400 }),
  lines: Type.Array(JournalLine, { maxItems: 2000 }),
});
export type Journal = Static<typeof Journal>;

export const BankTransactionKind = Type.Union(
  ['payment', 'payment_void', 'returned_payment', 'receipt', 'deposit', 'fee', 'interest', 'transfer', 'adjustment'].map((t) => Type.Literal(t)),
);

/**
 * A movement of money through a company bank account: the cash subledger. Any event may carry
 * `cash: CashMovement[]` beside its journal; amounts are signed (money in positive, out negative)
 * and are dated with the event's journal (or the business date when it has none).
 */
export const CashMovement = Obj({
  bank_account: Id,
  amount: Cents,
  kind: BankTransactionKind,
  reference: Type.String({ maxLength: 200 }),
  /** Set when the movement is already on a bank statement line (a fee the bank charged). */
  statement_line: Type.Optional(Nullable(Id)),
});
export type CashMovement = Static<typeof CashMovement>;

/**
 * A statement line reconciled to a book item, carried by any event as `bank_matches`. The
 * reference is what the line was matched to (a payment id, a bank transaction id BT-…); null
 * clears a match.
 */
export const BankMatch = Obj({ statement_line: Id, reference: Nullable(Type.String({ minLength: 1, maxLength: 200 })) });
export type BankMatch = Static<typeof BankMatch>;

// Chart of accounts

export const AccountCreated = defineEvent(
  'AccountCreated',
  Obj({
    code: AccountCode,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: AccountType,
    normal_side: NormalSide,
    control: Type.Boolean(),
    subledger: Nullable(SubledgerKind),
  }),
);

export const AccountDeactivated = defineEvent('AccountDeactivated', Obj({ code: AccountCode, reason: ReasonCode, note: Text }));
export const AccountActivated = defineEvent('AccountActivated', Obj({ code: AccountCode, reason: ReasonCode, note: Text }));

// Periods: a month comes into existence, open, when the clock first reaches it or when opened ahead.

export const PeriodOpened = defineEvent('PeriodOpened', Obj({ period: PeriodString, note: Text }));
export const PeriodCloseStarted = defineEvent('PeriodCloseStarted', Obj({ period: PeriodString, note: Text }));
export const PeriodClosed = defineEvent('PeriodClosed', Obj({ period: PeriodString, note: Text }));
export const PeriodReopened = defineEvent('PeriodReopened', Obj({ period: PeriodString, reason: ReasonCode, note: Text }));

/** The handbook threshold up to which a journal entry's preparer may also approve it (seed §4). */
export const JournalApprovalPolicySet = defineEvent('JournalApprovalPolicySet', Obj({ preparer_may_approve_up_to: PositiveCents }));

// Company bank accounts and the bank's statement

export const CompanyBankAccountOpened = defineEvent(
  'CompanyBankAccountOpened',
  Obj({
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    gl_account: AccountCode,
    bank_name: Type.String({ minLength: 1, maxLength: 200 }),
    /** Only the masked number is ever stored, e.g. ••••••4410. */
    masked_number: Type.String({ maxLength: 40 }),
  }),
);

export const StatementLineKind = Type.Union(['payment_cleared', 'fee', 'returned_payment', 'deposit', 'interest'].map((t) => Type.Literal(t)));

/** A line of the bank's statement. A fee line books itself (journal and cash); the others are recorded only. */
export const BankStatementLinePosted = defineEvent(
  'BankStatementLinePosted',
  Obj({
    id: Id,
    bank_account: Id,
    date: DateString,
    amount: Cents,
    kind: StatementLineKind,
    reference: Type.String({ maxLength: 200 }),
    description: Type.String({ maxLength: 400 }),
    journal: Type.Optional(Journal),
    cash: Type.Optional(Type.Array(CashMovement, { maxItems: 10 })),
  }),
);

export const BankStatementLineMatched = defineEvent('BankStatementLineMatched', Obj({ bank_matches: Type.Array(BankMatch, { minItems: 1, maxItems: 1 }), note: Text }));
export const BankStatementLineUnmatched = defineEvent('BankStatementLineUnmatched', Obj({ bank_matches: Type.Array(BankMatch, { minItems: 1, maxItems: 1 }), reason: ReasonCode, note: Text }));

// Manual journal entries: draft → submitted → approved → posted → reversed; returned; cancelled.

export const JournalEntryLine = Obj({
  account: AccountCode,
  debit: PositiveCents,
  credit: PositiveCents,
  department: Nullable(Id),
  party_type: Nullable(PartyType),
  party_id: Nullable(Id),
  memo: Type.String({ maxLength: 400 }),
});
export type JournalEntryLine = Static<typeof JournalEntryLine>;

/** Supporting evidence by reference: a message, a report, a receipt, a file. */
export const Attachment = Obj({ kind: ReasonCode, ref: Id, description: Type.String({ maxLength: 400 }) });
export type Attachment = Static<typeof Attachment>;

export const JournalEntryDrafted = defineEvent(
  'JournalEntryDrafted',
  Obj({
    id: Id,
    date: DateString,
    memo: Type.String({ minLength: 1, maxLength: 400 }),
    lines: Type.Array(JournalEntryLine, { minItems: 2, maxItems: 500 }),
    attachments: Type.Array(Attachment, { maxItems: 50 }),
  }),
);

export const JournalEntryRevised = defineEvent(
  'JournalEntryRevised',
  Obj({ id: Id, date: DateString, memo: Type.String({ minLength: 1, maxLength: 400 }), lines: Type.Array(JournalEntryLine, { minItems: 2, maxItems: 500 }) }),
);

export const JournalEntryAttachmentAdded = defineEvent('JournalEntryAttachmentAdded', Obj({ id: Id, attachment: Attachment }));
export const JournalEntrySubmitted = defineEvent('JournalEntrySubmitted', Obj({ id: Id, note: Text }));
export const JournalEntryApproved = defineEvent('JournalEntryApproved', Obj({ id: Id, note: Text }));
export const JournalEntryReturned = defineEvent('JournalEntryReturned', Obj({ id: Id, reason: ReasonCode, note: Text }));
export const JournalEntryCancelled = defineEvent('JournalEntryCancelled', Obj({ id: Id, reason: ReasonCode, note: Text }));
export const JournalEntryPosted = defineEvent('JournalEntryPosted', Obj({ id: Id, journal: Journal }));
export const JournalEntryReversed = defineEvent('JournalEntryReversed', Obj({ id: Id, date: DateString, reason: ReasonCode, note: Text, journal: Journal }));

/**
 * Money received into a company bank account and booked against an account of the caller's
 * choosing: opening balances (equity), receipts not yet handled by receivables (sales), refunds.
 */
export const CashDepositBooked = defineEvent(
  'CashDepositBooked',
  Obj({
    id: Id,
    bank_account: Id,
    date: DateString,
    amount: PositiveCents,
    credit_account: AccountCode,
    reference: Type.String({ maxLength: 200 }),
    memo: Type.String({ maxLength: 400 }),
    journal: Journal,
    cash: Type.Array(CashMovement, { minItems: 1, maxItems: 1 }),
  }),
);

/**
 * Money paid out of a company bank account outside AP and booked against an account of the
 * caller's choosing: an equipment purchase by wire, a tax payment, a transfer out.
 */
export const CashWithdrawalBooked = defineEvent(
  'CashWithdrawalBooked',
  Obj({
    id: Id,
    bank_account: Id,
    date: DateString,
    amount: PositiveCents,
    debit_account: AccountCode,
    reference: Type.String({ maxLength: 200 }),
    memo: Type.String({ maxLength: 400 }),
    journal: Journal,
    cash: Type.Array(CashMovement, { minItems: 1, maxItems: 1 }),
  }),
);
