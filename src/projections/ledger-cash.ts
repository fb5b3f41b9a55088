import { BankStatementLinePosted, CompanyBankAccountOpened, type BankMatch, type CashMovement } from '../events/contracts/ledger';
import { BankMinimumBalanceSet, BankReconciliationCompleted } from '../events/contracts/ledger-close';
import type { EventRow } from '../events/event-row';
import { documentStamp } from './history';
import { journalOf, UnpostableJournal } from './ledger';
import { defineReadModel, on, onEvery, type ProjectionTx } from './read-model';
import type { TableAccess } from './table-access';

export interface BankAccountRow {
  id: string;
  name: string;
  gl_account: string;
  bank_name: string;
  masked_number: string;
  status: 'active';
  /** The balance treasury keeps the account above, in cents (0 when none is set). */
  minimum_balance: number;
}

export interface OutstandingItemRow {
  id: string;
  date: string;
  kind: string;
  reference: string;
  amount: number;
}

export interface BankReconciliationRow {
  id: string;
  bank_account: string;
  as_of: string;
  statement_balance: number;
  book_balance: number;
  outstanding: OutstandingItemRow[];
  note: string;
  created_by: string;
  created_date: string;
}

export interface BankTransactionRow {
  id: string;
  event_id: number;
  line_no: number;
  date: string;
  period: string;
  bank_account: string;
  amount: number;
  kind: string;
  reference: string;
  source_type: string;
  object_id: string | null;
  statement_line: string | null;
  posted_by: string;
}

export interface StatementLineRow {
  id: string;
  bank_account: string;
  date: string;
  amount: number;
  kind: 'payment_cleared' | 'fee' | 'returned_payment' | 'deposit' | 'interest' | 'withdrawal' | 'transfer';
  reference: string;
  description: string;
  status: 'unmatched' | 'matched';
  matched: string | null;
  matched_date: string | null;
  matched_by: string | null;
  created_by: string;
  created_date: string;
}

/** A bank transaction's id: the event that recorded it and its position there, e.g. BT-000123-1. */
export function bankTransactionId(eventId: number, lineNo: number): string {
  return `BT-${String(eventId).padStart(6, '0')}-${lineNo}`;
}

function cashOf(data: unknown): CashMovement[] {
  if (data === null || typeof data !== 'object' || !('cash' in data)) return [];
  return (data as { cash?: CashMovement[] }).cash ?? [];
}

function matchesOf(data: unknown): BankMatch[] {
  if (data === null || typeof data !== 'object' || !('bank_matches' in data)) return [];
  return (data as { bank_matches?: BankMatch[] }).bank_matches ?? [];
}

function setMatch(tx: ProjectionTx, lineId: string, reference: string | null, event: EventRow): void {
  const line = tx.get<StatementLineRow & Record<string, unknown>>('bank_statement_lines', lineId);
  if (!line) throw new UnpostableJournal(`${event.type}: no bank statement line ${lineId} to match.`);
  if (line.matched && tx.get('bank_transactions', line.matched)) {
    tx.update<BankTransactionRow & Record<string, unknown>>('bank_transactions', line.matched, (r) => { r.statement_line = null; });
  }
  tx.update<StatementLineRow & Record<string, unknown>>('bank_statement_lines', lineId, (r) => {
    r.status = reference ? 'matched' : 'unmatched';
    r.matched = reference;
    r.matched_date = reference ? event.businessDate : null;
    r.matched_by = reference ? event.actor : null;
  });
  if (reference && tx.get('bank_transactions', reference)) {
    tx.update<BankTransactionRow & Record<string, unknown>>('bank_transactions', reference, (r) => { r.statement_line = lineId; });
  }
}

/**
 * The cash subledger: company bank accounts, the book-side movements any event records in `cash`,
 * and the bank's statement lines with what each was matched to (`bank_matches`).
 */
export const cash = defineReadModel({
  name: 'cash',
  tables: [
    {
      name: 'bank_accounts',
      columns: { id: 'text', name: 'text', gl_account: 'text', bank_name: 'text', masked_number: 'text', status: 'text', minimum_balance: 'integer', created_by: 'text', created_date: 'text', created_wall: 'text' },
      key: ['id'],
    },
    {
      name: 'bank_transactions',
      columns: {
        id: 'text', event_id: 'integer', line_no: 'integer', date: 'text', period: 'text', bank_account: 'text', amount: 'integer', kind: 'text',
        reference: 'text', source_type: 'text', object_id: 'text', statement_line: 'text', posted_by: 'text',
      },
      key: ['id'],
      indexes: [['bank_account', 'date'], ['reference']],
    },
    {
      name: 'bank_statement_lines',
      columns: {
        id: 'text', bank_account: 'text', date: 'text', amount: 'integer', kind: 'text', reference: 'text', description: 'text', status: 'text',
        matched: 'text', matched_date: 'text', matched_by: 'text', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['bank_account', 'date'], ['status'], ['bank_account', 'reference']],
    },
    {
      name: 'bank_reconciliations',
      columns: {
        id: 'text', bank_account: 'text', as_of: 'text', statement_balance: 'integer', book_balance: 'integer', outstanding: 'json', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['bank_account', 'as_of']],
    },
  ],
  handlers: [
    on(CompanyBankAccountOpened, (tx, d, e) => {
      const { created_by, created_date, created_wall } = documentStamp(e, 'active');
      tx.insert('bank_accounts', { ...d, status: 'active', minimum_balance: 0, created_by, created_date, created_wall });
    }),
    on(BankMinimumBalanceSet, (tx, d) => void tx.update<BankAccountRow & Record<string, unknown>>('bank_accounts', d.bank_account, (r) => { r.minimum_balance = d.minimum_balance; })),
    on(BankReconciliationCompleted, (tx, d, e) => {
      const { created_by, created_date, created_wall } = documentStamp(e, 'reconciled');
      tx.insert('bank_reconciliations', { ...d, created_by, created_date, created_wall });
    }),
    on(BankStatementLinePosted, (tx, d, e) => {
      const { created_by, created_date, created_wall } = documentStamp(e, 'unmatched');
      tx.insert('bank_statement_lines', {
        id: d.id, bank_account: d.bank_account, date: d.date, amount: d.amount, kind: d.kind, reference: d.reference, description: d.description,
        status: 'unmatched', matched: null, matched_date: null, matched_by: null, created_by, created_date, created_wall,
      });
    }),
    onEvery((tx, event) => {
      const movements = cashOf(event.data);
      const date = journalOf(event.data)?.date ?? event.businessDate;
      movements.forEach((m, i) => {
        if (!tx.get('bank_accounts', m.bank_account)) throw new UnpostableJournal(`${event.type}: cash movement ${i + 1} names unknown bank account ${m.bank_account}.`);
        const id = bankTransactionId(event.seq, i + 1);
        tx.insert('bank_transactions', {
          id, event_id: event.seq, line_no: i + 1, date, period: date.slice(0, 7), bank_account: m.bank_account, amount: m.amount, kind: m.kind,
          reference: m.reference, source_type: event.type, object_id: event.objectId, statement_line: null, posted_by: event.actor,
        });
        if (m.statement_line) setMatch(tx, m.statement_line, id, event);
      });
      for (const match of matchesOf(event.data)) setMatch(tx, match.statement_line, match.reference, event);
    }),
  ],
  queries: (t) => cashQueries(t),
});

function cashQueries(t: TableAccess) {
  return {
    bankAccount: (id: string) => t.get<BankAccountRow & Record<string, unknown>>('bank_accounts', id),
    bankAccounts: () => t.find<BankAccountRow & Record<string, unknown>>('bank_accounts'),
    bankTransaction: (id: string) => t.get<BankTransactionRow & Record<string, unknown>>('bank_transactions', id),
    transactionsByReference: (reference: string) => t.find<BankTransactionRow & Record<string, unknown>>('bank_transactions', { reference }),
    statementLine: (id: string) => t.get<StatementLineRow & Record<string, unknown>>('bank_statement_lines', id),
    reconciliation: (id: string) => t.get<BankReconciliationRow & Record<string, unknown>>('bank_reconciliations', id),
    /** The latest reconciliation of an account, by the date it was reconciled as of. */
    lastReconciliation(bankAccount: string): BankReconciliationRow | undefined {
      const row = t.prepared('SELECT id FROM bank_reconciliations WHERE bank_account = ? ORDER BY as_of DESC, id DESC LIMIT 1').get(bankAccount) as { id: string } | undefined;
      return row ? t.get<BankReconciliationRow & Record<string, unknown>>('bank_reconciliations', row.id) : undefined;
    },
    /** Net of the bank's statement lines dated on or before `asOf`: the statement balance. */
    statementBalance(bankAccount: string, asOf: string): number {
      return (t.prepared('SELECT COALESCE(SUM(amount), 0) AS s FROM bank_statement_lines WHERE bank_account = ? AND date <= ?').get(bankAccount, asOf) as { s: number }).s;
    },
    /** Book items dated on or before `asOf` that no statement line dated by then has cleared: outstanding payments and deposits in transit. */
    outstandingAsOf(bankAccount: string, asOf: string): BankTransactionRow[] {
      return t.prepared(`SELECT bt.* FROM bank_transactions bt LEFT JOIN bank_statement_lines sl ON sl.id = bt.statement_line
        WHERE bt.bank_account = ? AND bt.date <= ? AND (bt.statement_line IS NULL OR sl.date > ?) ORDER BY bt.date, bt.id`).all(bankAccount, asOf, asOf) as BankTransactionRow[];
    },
    /** Statement lines dated on or before `asOf` with no book item of that account dated by then: what the bank shows and the books do not. */
    unbookedAsOf(bankAccount: string, asOf: string): StatementLineRow[] {
      return t.prepared(`SELECT sl.* FROM bank_statement_lines sl LEFT JOIN bank_transactions bt ON bt.id = sl.matched AND bt.bank_account = sl.bank_account
        WHERE sl.bank_account = ? AND sl.date <= ? AND (bt.id IS NULL OR bt.date > ?) ORDER BY sl.date, sl.id`).all(bankAccount, asOf, asOf) as StatementLineRow[];
    },
    /** Book items the bank has not put on a statement yet, of the given kinds and dated before a day: what the bank's statement behaviour reads. */
    notOnStatement(kinds: readonly string[], before: string): BankTransactionRow[] {
      const marks = kinds.map(() => '?').join(', ');
      return t.prepared(`SELECT bt.* FROM bank_transactions bt WHERE bt.statement_line IS NULL AND bt.kind IN (${marks}) AND bt.date < ?
        AND NOT EXISTS (SELECT 1 FROM bank_statement_lines sl WHERE sl.bank_account = bt.bank_account AND sl.reference = bt.reference) ORDER BY bt.id`).all(...kinds, before) as BankTransactionRow[];
    },
    /** Every unmatched statement line of an account, oldest first. */
    unmatchedLines: (bankAccount: string) => t.find<StatementLineRow & Record<string, unknown>>('bank_statement_lines', { bank_account: bankAccount, status: 'unmatched' }, { orderBy: ['date', 'id'] }),
    /** Unmatched statement lines of an account with a reference, as the bank printed it. */
    unmatchedLinesByReference(bankAccount: string, reference: string): StatementLineRow[] {
      return t.find<StatementLineRow & Record<string, unknown>>('bank_statement_lines', { bank_account: bankAccount, reference, status: 'unmatched' });
    },
    /** Book balance of one bank account: its movements dated on or before `asOf`. */
    bookBalance(bankAccount: string, asOf: string): number {
      const row = t.prepared('SELECT COALESCE(SUM(amount), 0) AS s FROM bank_transactions WHERE bank_account = ? AND date <= ?').get(bankAccount, asOf) as { s: number };
      return row.s;
    },
    /** The cash subledger of a GL account: every bank account that posts to it. */
    subledgerBalance(glAccount: string, asOf: string): number {
      const row = t.prepared(
        'SELECT COALESCE(SUM(bt.amount), 0) AS s FROM bank_transactions bt JOIN bank_accounts ba ON ba.id = bt.bank_account WHERE ba.gl_account = ? AND bt.date <= ?',
      ).get(glAccount, asOf) as { s: number };
      return row.s;
    },
    /** Net of the statement lines dated on or before `asOf`, and how many book and bank items are unreconciled. */
    statementPosition(bankAccount: string, asOf: string) {
      const st = t.prepared(`SELECT COALESCE(SUM(amount), 0) AS s, COALESCE(SUM(status = 'unmatched'), 0) AS open FROM bank_statement_lines WHERE bank_account = ? AND date <= ?`).get(bankAccount, asOf) as { s: number; open: number };
      const bk = t.prepared('SELECT COUNT(*) AS n, COALESCE(SUM(amount), 0) AS s FROM bank_transactions WHERE bank_account = ? AND date <= ? AND statement_line IS NULL').get(bankAccount, asOf) as { n: number; s: number };
      return { statement_net: st.s, unmatched_statement_lines: st.open, uncleared_book_items: bk.n, uncleared_book_amount: bk.s };
    },
  };
}
