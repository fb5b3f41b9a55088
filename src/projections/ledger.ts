import { ClockAdvanced } from '../events/contracts/clock';
import {
  AccountActivated, AccountCreated, AccountDeactivated, JournalApprovalPolicySet, PeriodCloseStarted, PeriodClosed,
  PeriodOpened, PeriodReopened, type Journal,
} from '../events/contracts/ledger';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { defineReadModel, on, onEvery, type ProjectionTx } from './read-model';
import type { TableAccess } from './table-access';

export interface AccountRow {
  code: string;
  name: string;
  type: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';
  normal_side: 'debit' | 'credit';
  control: boolean;
  subledger: 'cash' | 'ar' | 'inventory' | 'ap' | 'grni' | 'wip' | null;
  status: 'active' | 'inactive';
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export type PeriodStatus = 'open' | 'closing' | 'closed';

export interface PeriodRow {
  period: string;
  status: PeriodStatus;
  opened_date: string;
  opened_by: string;
  closed_date: string | null;
  closed_by: string | null;
  status_history: StatusChange[];
}

export interface GlLineRow {
  event_id: number;
  line_no: number;
  date: string;
  period: string;
  account: string;
  debit: number;
  credit: number;
  party_type: string | null;
  party_id: string | null;
  document_id: string | null;
  department: string | null;
  memo: string;
  source_type: string;
  object_id: string | null;
  posted_by: string;
}

/** Debits and credits of an account; its balance follows from its normal side. */
export interface AccountTotals {
  account: string;
  debit: number;
  credit: number;
}

/** Thrown inside the append transaction: an event whose journal cannot be posted is never written. */
export class UnpostableJournal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnpostableJournal';
  }
}

/** The journal an event carries, if any (docs/ledger.md: any event that moves money has one). */
export function journalOf(data: unknown): Journal | undefined {
  if (data === null || typeof data !== 'object' || !('journal' in data)) return undefined;
  return (data as { journal?: Journal }).journal;
}

/**
 * Every journal an event carries: its `journal`, and the `reversal_journal` of a reversing entry
 * (posted at once, dated in a later period). The ledger folds them in that order.
 */
export function journalsOf(data: unknown): Journal[] {
  const journal = journalOf(data);
  if (!journal) return [];
  const reversal = (data as { reversal_journal?: Journal }).reversal_journal;
  return reversal ? [journal, reversal] : [journal];
}

export function balanceOf(account: Pick<AccountRow, 'normal_side'>, totals: { debit: number; credit: number }): number {
  return account.normal_side === 'debit' ? totals.debit - totals.credit : totals.credit - totals.debit;
}

function checkJournal(tx: ProjectionTx, journal: Journal, event: EventRow): void {
  let debits = 0;
  let credits = 0;
  journal.lines.forEach((line, i) => {
    if ((line.debit > 0) === (line.credit > 0)) throw new UnpostableJournal(`${event.type}: journal line ${i + 1} must have exactly one of debit and credit.`);
    if (!tx.get('accounts', line.account)) throw new UnpostableJournal(`${event.type}: journal line ${i + 1} posts to unknown account ${line.account}.`);
    debits += line.debit;
    credits += line.credit;
  });
  if (debits !== credits) throw new UnpostableJournal(`${event.type}: journal is unbalanced (debits ${debits}, credits ${credits} cents).`);
  if (journal.lines.length === 0) return;
  const period = tx.get<PeriodRow & Record<string, unknown>>('periods', journal.date.slice(0, 7));
  // Deciders refuse with period_closed first; this keeps a decider that forgot from writing one.
  if (!period || period.status === 'closed') throw new UnpostableJournal(`${event.type}: period ${journal.date.slice(0, 7)} is not open for postings.`);
}

function openPeriod(tx: ProjectionTx, period: string, event: EventRow): void {
  if (tx.get('periods', period)) return;
  const { status_history } = documentStamp(event, 'open');
  tx.insert('periods', { period, status: 'open', opened_date: event.businessDate, opened_by: event.actor, closed_date: null, closed_by: null, status_history });
}

function setPeriodStatus(tx: ProjectionTx, period: string, status: PeriodStatus, event: EventRow, reason: string | null = null): void {
  tx.update<PeriodRow & Record<string, unknown>>('periods', period, (r) => {
    r.status = status;
    if (status === 'closed') {
      r.closed_date = event.businessDate;
      r.closed_by = event.actor;
    }
    r.status_history.push(statusChange(status, event, reason));
  });
}

function setAccountStatus(tx: ProjectionTx, code: string, status: AccountRow['status'], event: EventRow, reason: string): void {
  tx.update<AccountRow & Record<string, unknown>>('accounts', code, (r) => {
    r.status = status;
    r.status_history.push(statusChange(status, event, reason));
  });
}

/** The chart of accounts, the periods, and every posting: `gl_lines` folds the journal of every event. */
export const ledger = defineReadModel({
  name: 'ledger',
  tables: [
    {
      name: 'accounts',
      columns: { code: 'text', name: 'text', type: 'text', normal_side: 'text', control: 'bool', subledger: 'text', status: 'text', created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json' },
      key: ['code'],
    },
    {
      name: 'periods',
      columns: { period: 'text', status: 'text', opened_date: 'text', opened_by: 'text', closed_date: 'text', closed_by: 'text', status_history: 'json' },
      key: ['period'],
    },
    {
      name: 'gl_lines',
      columns: {
        event_id: 'integer', line_no: 'integer', date: 'text', period: 'text', account: 'text', debit: 'integer', credit: 'integer',
        party_type: 'text', party_id: 'text', document_id: 'text', department: 'text', memo: 'text', source_type: 'text', object_id: 'text', posted_by: 'text',
      },
      key: ['event_id', 'line_no'],
      indexes: [['account', 'date'], ['period'], ['document_id'], ['department', 'period']],
    },
    { name: 'ledger_settings', columns: { key: 'text', value: 'integer' }, key: ['key'] },
  ],
  handlers: [
    on(AccountCreated, (tx, d, e) => tx.insert('accounts', { ...d, status: 'active', ...documentStamp(e, 'active') })),
    on(AccountDeactivated, (tx, d, e) => setAccountStatus(tx, d.code, 'inactive', e, d.reason)),
    on(AccountActivated, (tx, d, e) => setAccountStatus(tx, d.code, 'active', e, d.reason)),
    on(ClockAdvanced, (tx, d, e) => openPeriod(tx, d.to.slice(0, 7), e)),
    on(PeriodOpened, (tx, d, e) => openPeriod(tx, d.period, e)),
    on(PeriodCloseStarted, (tx, d, e) => setPeriodStatus(tx, d.period, 'closing', e)),
    on(PeriodClosed, (tx, d, e) => setPeriodStatus(tx, d.period, 'closed', e)),
    on(PeriodReopened, (tx, d, e) => setPeriodStatus(tx, d.period, 'open', e, d.reason)),
    on(JournalApprovalPolicySet, (tx, d) => void tx.upsert('ledger_settings', { key: 'preparer_may_approve_up_to', value: d.preparer_may_approve_up_to }, (r) => { r.value = d.preparer_may_approve_up_to; })),
    onEvery((tx, event) => {
      let lineNo = 0;
      for (const journal of journalsOf(event.data)) {
        checkJournal(tx, journal, event);
        for (const line of journal.lines) {
          tx.insert('gl_lines', {
            event_id: event.seq, line_no: ++lineNo, date: journal.date, period: journal.date.slice(0, 7), account: line.account,
            debit: line.debit, credit: line.credit, party_type: line.party_type, party_id: line.party_id, document_id: line.document_id,
            department: line.department ?? null, memo: journal.memo, source_type: event.type, object_id: event.objectId, posted_by: event.actor,
          });
        }
      }
    }),
  ],
  queries: (t) => ledgerQueries(t),
});

function ledgerQueries(t: TableAccess) {
  const sums = (where: string, params: unknown[]): AccountTotals[] =>
    t.all<AccountTotals>(`SELECT account, SUM(debit) AS debit, SUM(credit) AS credit FROM gl_lines WHERE ${where} GROUP BY account ORDER BY account`, ...params);
  return {
    account: (code: string) => t.get<AccountRow & Record<string, unknown>>('accounts', code),
    accounts: () => t.find<AccountRow & Record<string, unknown>>('accounts'),
    controlAccounts: () => t.find<AccountRow & Record<string, unknown>>('accounts', { control: true }),
    period: (period: string) => t.get<PeriodRow & Record<string, unknown>>('periods', period),
    periods: () => t.find<PeriodRow & Record<string, unknown>>('periods'),
    /** Up to this amount (cents) a journal entry's preparer may also approve it; 0 unless the handbook sets one. */
    preparerMayApproveUpTo: () => t.get<{ value: number }>('ledger_settings', 'preparer_may_approve_up_to')?.value ?? 0,
    /** Debits and credits of every account with postings dated on or before `asOf`. */
    totalsAsOf: (asOf: string) => sums('date <= ?', [asOf]),
    /** Debits and credits of every account with postings dated from … to (inclusive). */
    totalsBetween: (from: string, to: string) => sums('date >= ? AND date <= ?', [from, to]),
    /** The balance of one account on its normal side, postings dated on or before `asOf`. */
    balance(code: string, asOf: string): number {
      const account = t.get<AccountRow & Record<string, unknown>>('accounts', code);
      if (!account) return 0;
      const [row] = sums('account = ? AND date <= ?', [code, asOf]);
      return row ? balanceOf(account, row) : 0;
    },
    /** Debits and credits per department and account for the months from … to (inclusive). */
    departmentTotals(department: string | null, fromPeriod: string, toPeriod: string): (AccountTotals & { department: string })[] {
      const params: unknown[] = [fromPeriod, toPeriod];
      let where = 'period >= ? AND period <= ? AND department IS NOT NULL';
      if (department) {
        where += ' AND department = ?';
        params.push(department);
      }
      return t.all<AccountTotals & { department: string }>(`SELECT department, account, SUM(debit) AS debit, SUM(credit) AS credit FROM gl_lines WHERE ${where} GROUP BY department, account ORDER BY department, account`, ...params);
    },
    glLinesOf: (documentId: string) => t.find<GlLineRow & Record<string, unknown>>('gl_lines', { document_id: documentId }),
  };
}
