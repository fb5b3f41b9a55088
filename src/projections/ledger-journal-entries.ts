import {
  JournalEntryApproved, JournalEntryAttachmentAdded, JournalEntryCancelled, JournalEntryDrafted, JournalEntryPosted,
  JournalEntryReturned, JournalEntryReversed, JournalEntryRevised, JournalEntrySubmitted, type Attachment, type JournalEntryLine,
} from '../events/contracts/ledger';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { defineReadModel, on, type ProjectionTx } from './read-model';

export type JournalEntryStatus = 'draft' | 'submitted' | 'returned' | 'approved' | 'posted' | 'reversed' | 'cancelled';

export interface JournalEntryRow {
  id: string;
  date: string;
  period: string;
  memo: string;
  status: JournalEntryStatus;
  /** Sum of the debits, in cents: what an approver's limit is measured against. */
  total: number;
  attachments: Attachment[];
  /** A reversing entry's reversal date: posting it posts the reversal too. */
  reverse_on: string | null;
  /** The recurring entry it was drafted from, and for which month. */
  recurring_template: string | null;
  recurring_period: string | null;
  submitted_by: string | null;
  approved_by: string | null;
  approved_date: string | null;
  posted_by: string | null;
  posted_date: string | null;
  posted_event: number | null;
  reversal_date: string | null;
  reversal_event: number | null;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface JournalEntryLineRow extends JournalEntryLine {
  journal_entry: string;
  line_no: number;
}

type Row = JournalEntryRow & Record<string, unknown>;

function writeLines(tx: ProjectionTx, id: string, lines: readonly JournalEntryLine[]): number {
  for (const old of tx.find<{ journal_entry: string; line_no: number }>('journal_lines', { journal_entry: id })) tx.remove('journal_lines', old);
  lines.forEach((l, i) => tx.insert('journal_lines', { journal_entry: id, line_no: i + 1, ...l }));
  return lines.reduce((s, l) => s + l.debit, 0);
}

function transition(tx: ProjectionTx, id: string, status: JournalEntryStatus, event: EventRow, reason: string | null, recipe: (r: Row) => void = () => undefined): void {
  tx.update<Row>('journal_entries', id, (r) => {
    r.status = status;
    r.status_history.push(statusChange(status, event, reason));
    recipe(r as Row);
  });
}

/** Manual journal entries (seed §4): the document and its lines; postings go to gl_lines through the events' journals. */
export const journalEntries = defineReadModel({
  name: 'journal-entries',
  tables: [
    {
      name: 'journal_entries',
      columns: {
        id: 'text', date: 'text', period: 'text', memo: 'text', status: 'text', total: 'integer', attachments: 'json',
        reverse_on: 'text', recurring_template: 'text', recurring_period: 'text', submitted_by: 'text', approved_by: 'text', approved_date: 'text', posted_by: 'text', posted_date: 'text', posted_event: 'integer',
        reversal_date: 'text', reversal_event: 'integer', created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['status'], ['period'], ['recurring_template', 'recurring_period']],
    },
    {
      name: 'journal_lines',
      columns: { journal_entry: 'text', line_no: 'integer', account: 'text', debit: 'integer', credit: 'integer', department: 'text', party_type: 'text', party_id: 'text', memo: 'text' },
      key: ['journal_entry', 'line_no'],
      indexes: [['account']],
    },
  ],
  handlers: [
    on(JournalEntryDrafted, (tx, d, e) => {
      const total = writeLines(tx, d.id, d.lines);
      tx.insert('journal_entries', {
        id: d.id, date: d.date, period: d.date.slice(0, 7), memo: d.memo, status: 'draft', total, attachments: d.attachments,
        reverse_on: d.reverse_on ?? null, recurring_template: d.recurring?.template ?? null, recurring_period: d.recurring?.period ?? null, submitted_by: null, approved_by: null, approved_date: null, posted_by: null, posted_date: null, posted_event: null,
        reversal_date: null, reversal_event: null, ...documentStamp(e, 'draft'),
      });
    }),
    on(JournalEntryRevised, (tx, d) => {
      const total = writeLines(tx, d.id, d.lines);
      tx.update<Row>('journal_entries', d.id, (r) => Object.assign(r, { date: d.date, period: d.date.slice(0, 7), memo: d.memo, total, reverse_on: d.reverse_on ?? null }));
    }),
    on(JournalEntryAttachmentAdded, (tx, d) => void tx.update<Row>('journal_entries', d.id, (r) => { r.attachments.push(d.attachment); })),
    on(JournalEntrySubmitted, (tx, d, e) => transition(tx, d.id, 'submitted', e, null, (r) => { r.submitted_by = e.actor; })),
    on(JournalEntryReturned, (tx, d, e) => transition(tx, d.id, 'returned', e, d.reason)),
    on(JournalEntryApproved, (tx, d, e) => transition(tx, d.id, 'approved', e, null, (r) => { r.approved_by = e.actor; r.approved_date = e.businessDate; })),
    on(JournalEntryCancelled, (tx, d, e) => transition(tx, d.id, 'cancelled', e, d.reason)),
    on(JournalEntryPosted, (tx, d, e) => {
      transition(tx, d.id, 'posted', e, null, (r) => { r.posted_by = e.actor; r.posted_date = e.businessDate; r.posted_event = e.seq; });
      if (d.reversal_journal) {
        const date = d.reversal_journal.date;
        transition(tx, d.id, 'reversed', e, 'reversing_entry', (r) => { r.reversal_date = date; r.reversal_event = e.seq; });
      }
    }),
    on(JournalEntryReversed, (tx, d, e) => transition(tx, d.id, 'reversed', e, d.reason, (r) => { r.reversal_date = d.date; r.reversal_event = e.seq; })),
  ],
  queries: (t) => ({
    entry: (id: string) => t.get<Row>('journal_entries', id),
    lines: (id: string) => t.find<JournalEntryLineRow & Record<string, unknown>>('journal_lines', { journal_entry: id }),
    /** Entries dated in a period that are not yet posted (or cancelled): what a close checklist looks at. */
    unpostedIn: (period: string) => t.find<Row>('journal_entries', { period, status: ['draft', 'submitted', 'returned', 'approved'] }),
    /** Entries in one state, oldest first: the approver's queue is `withStatus('submitted')`. */
    withStatus: (status: JournalEntryStatus) => t.find<Row>('journal_entries', { status }),
    /** The entry a recurring entry drafted for a month, if any (cancelled ones included). */
    fromRecurring: (template: string, period: string) => t.find<Row>('journal_entries', { recurring_template: template, recurring_period: period }),
    /** Every entry a recurring entry drafted, by month. */
    ofRecurring: (template: string) => t.find<Row>('journal_entries', { recurring_template: template }, { orderBy: ['recurring_period', 'id'] }),
  }),
});
