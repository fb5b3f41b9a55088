import { BankStatementLinePosted, CompanyBankAccountOpened, type BankMatch, type CashMovement } from '../events/contracts/ledger';
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
  kind: 'payment_cleared' | 'fee' | 'returned_payment' | 'deposit' | 'interest';
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
    { name: 'bank_accounts', columns: { id: 'text', name: 'text', gl_account: 'text', bank_name: 'text', masked_number: 'text', status: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' }, key: ['id'] },
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
      indexes: [['bank_account', 'date'], ['status']],
    },
  ],
  handlers: [
    on(CompanyBankAccountOpened, (tx, d, e) => {
      const { created_by, created_date, created_wall } = documentStamp(e, 'active');
      tx.insert('bank_accounts', { ...d, status: 'active', created_by, created_date, created_wall });
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
    /** Book balance of one bank account: its movements dated on or before `asOf`. */
    bookBalance(bankAccount: string, asOf: string): number {
      const row = t.db.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM bank_transactions WHERE bank_account = ? AND date <= ?').get(bankAccount, asOf) as { s: number };
      return row.s;
    },
    /** The cash subledger of a GL account: every bank account that posts to it. */
    subledgerBalance(glAccount: string, asOf: string): number {
      const row = t.db.prepare(
        'SELECT COALESCE(SUM(bt.amount), 0) AS s FROM bank_transactions bt JOIN bank_accounts ba ON ba.id = bt.bank_account WHERE ba.gl_account = ? AND bt.date <= ?',
      ).get(glAccount, asOf) as { s: number };
      return row.s;
    },
    /** Net of the statement lines dated on or before `asOf`, and how many book and bank items are unreconciled. */
    statementPosition(bankAccount: string, asOf: string) {
      const st = t.db.prepare(`SELECT COALESCE(SUM(amount), 0) AS s, COALESCE(SUM(status = 'unmatched'), 0) AS open FROM bank_statement_lines WHERE bank_account = ? AND date <= ?`).get(bankAccount, asOf) as { s: number; open: number };
      const bk = t.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(amount), 0) AS s FROM bank_transactions WHERE bank_account = ? AND date <= ? AND statement_line IS NULL').get(bankAccount, asOf) as { n: number; s: number };
      return { statement_net: st.s, unmatched_statement_lines: st.open, uncleared_book_items: bk.n, uncleared_book_amount: bk.s };
    },
  };
}
