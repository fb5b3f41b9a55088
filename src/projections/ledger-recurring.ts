import { JournalEntryDrafted, type Attachment, type JournalEntryLine } from '../events/contracts/ledger';
import { RecurringEntryCreated, RecurringEntryEnded } from '../events/contracts/ledger-close';
import { documentStamp, statusChange, type StatusChange } from './history';
import { defineReadModel, on } from './read-model';

export interface RecurringEntryRow {
  id: string;
  memo: string;
  lines: JournalEntryLine[];
  attachments: Attachment[];
  day: number;
  start_period: string;
  end_period: string | null;
  reversing: boolean;
  status: 'active' | 'ended';
  /** The latest month an entry was drafted for. */
  last_period: string | null;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

type Row = RecurringEntryRow & Record<string, unknown>;

/** Recurring journal entries: templates that draft the same entry month after month. */
export const recurringEntries = defineReadModel({
  name: 'recurring-entries',
  tables: [{
    name: 'recurring_entries',
    columns: {
      id: 'text', memo: 'text', lines: 'json', attachments: 'json', day: 'integer', start_period: 'text', end_period: 'text', reversing: 'bool',
      status: 'text', last_period: 'text', created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
    },
    key: ['id'],
    indexes: [['status']],
  }],
  handlers: [
    on(RecurringEntryCreated, (tx, d, e) => tx.insert('recurring_entries', { ...d, status: 'active', last_period: null, ...documentStamp(e, 'active') })),
    on(RecurringEntryEnded, (tx, d, e) => void tx.update<Row>('recurring_entries', d.id, (r) => {
      r.status = 'ended';
      r.status_history.push(statusChange('ended', e, d.reason));
    })),
    on(JournalEntryDrafted, (tx, d) => {
      const source = d.recurring;
      if (!source) return;
      tx.update<Row>('recurring_entries', source.template, (r) => {
        if (r.last_period === null || source.period > r.last_period) r.last_period = source.period;
      });
    }),
  ],
  queries: (t) => ({
    template: (id: string) => t.get<Row>('recurring_entries', id),
    active: () => t.find<Row>('recurring_entries', { status: 'active' }),
  }),
});
