import { WorkItemAssigned, type WorkRecordType } from '../events/contracts/workqueue';
import { documentStamp, type StatusChange } from './history';
import { defineReadModel, on } from './read-model';
import type { Row } from './table-spec';

export interface WorkItemRow {
  id: string;
  assigned_to: string;
  record_type: WorkRecordType;
  record_id: string;
  note: string;
  status: 'open';
  created_by: string;
  created_date: string;
  created_wall: string;
  status_history: StatusChange[];
}

type Item = WorkItemRow & Row;

/** Work queues: the records assigned to each user, in the order they were assigned. */
export const workQueue = defineReadModel({
  name: 'work-queue',
  tables: [
    {
      name: 'work_items',
      columns: {
        id: 'text', assigned_to: 'text', record_type: 'text', record_id: 'text', note: 'text', status: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['assigned_to'], ['record_type', 'record_id']],
    },
  ],
  handlers: [
    on(WorkItemAssigned, (tx, d, e) => tx.insert('work_items', {
      id: d.id, assigned_to: d.assigned_to, record_type: d.record_type, record_id: d.record_id, note: d.note, status: 'open', ...documentStamp(e, 'open'),
    })),
  ],
  queries: (t) => ({
    item: (id: string) => t.get<Item>('work_items', id),
    /** A user's open items, in queue order (ids are assigned in order). */
    queueOf: (user: string) => t.find<Item>('work_items', { assigned_to: user, status: 'open' }, { orderBy: 'id' }),
    /** Open items naming a record, whoever holds them. */
    itemsFor: (recordType: string, recordId: string) => t.find<Item>('work_items', { record_type: recordType, record_id: recordId, status: 'open' }, { orderBy: 'id' }),
  }),
});
