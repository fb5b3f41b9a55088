import { EscalationAnswered, EscalationClosed, EscalationRaised } from '../events/contracts/comms';
import type { StatusEntry } from './comms-messages';
import { defineReadModel, on } from './read-model';
import { orderClause } from './table-access';
import { decodeRow, type Row } from './table-spec';

export interface EscalationRow {
  id: string;
  record_type: string;
  record_id: string;
  raised_by: string;
  assignee: string;
  reason: string;
  note: string;
  /** open → answered → closed; an open escalation may also be closed (withdrawn) by its raiser. */
  status: 'open' | 'answered' | 'closed';
  decision: string | null;
  response_note: string | null;
  answered_by: string | null;
  answered_date: string | null;
  closed_date: string | null;
  status_history: StatusEntry[];
  created_by: string;
  created_date: string;
  created_wall: string;
}

export interface EscalationFilter {
  /** Escalations this user raised or is assigned. */
  user: string;
  role?: 'raised' | 'assigned';
  status?: string;
  record_type?: string;
  record_id?: string;
  /** ORDER BY terms over escalations (checked by the route); default by id. */
  order?: readonly string[];
  offset: number;
  limit: number;
}

/** Escalations: a record sent to a named person with a reason code, and their coded decision. */
export const escalations = defineReadModel({
  name: 'escalations',
  tables: [
    {
      name: 'escalations',
      columns: {
        id: 'text', record_type: 'text', record_id: 'text', raised_by: 'text', assignee: 'text', reason: 'text', note: 'text',
        status: 'text', decision: 'text', response_note: 'text', answered_by: 'text', answered_date: 'text', closed_date: 'text',
        status_history: 'json', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['assignee'], ['raised_by'], ['record_type', 'record_id']],
    },
  ],
  handlers: [
    on(EscalationRaised, (tx, d, e) => tx.insert('escalations', {
      id: d.id, record_type: d.record_type, record_id: d.record_id, raised_by: d.raised_by, assignee: d.assignee, reason: d.reason, note: d.note,
      status: 'open', decision: null, response_note: null, answered_by: null, answered_date: null, closed_date: null,
      status_history: [{ status: 'open', date: e.businessDate, by: d.raised_by, reason: d.reason, event_id: e.seq }],
      created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime,
    })),
    on(EscalationAnswered, (tx, d, e) => void tx.update<EscalationRow & Row>('escalations', d.id, (r) => {
      r.status = 'answered';
      r.decision = d.decision;
      r.response_note = d.note;
      r.answered_by = d.by;
      r.answered_date = e.businessDate;
      r.status_history.push({ status: 'answered', date: e.businessDate, by: d.by, reason: d.decision, event_id: e.seq });
    })),
    on(EscalationClosed, (tx, d, e) => void tx.update<EscalationRow & Row>('escalations', d.id, (r) => {
      r.status = 'closed';
      r.closed_date = e.businessDate;
      r.status_history.push({ status: 'closed', date: e.businessDate, by: d.by, reason: d.note || null, event_id: e.seq });
    })),
  ],
  queries: (t) => ({
    escalation: (id: string) => t.get<EscalationRow & Row>('escalations', id),
    /** Escalations about one record, oldest first: for areas that show a document's escalations. */
    about: (recordType: string, recordId: string) => t.find<EscalationRow & Row>('escalations', { record_type: recordType, record_id: recordId }),
    /** Open escalations assigned to a user: what a manager counterparty answers. */
    openFor: (assignee: string) => t.find<EscalationRow & Row>('escalations', { assignee, status: 'open' }),
    page(f: EscalationFilter): { items: EscalationRow[]; total: number } {
      const where: string[] = [];
      const params: unknown[] = [];
      if (f.role === 'raised') where.push('raised_by = ?');
      else if (f.role === 'assigned') where.push('assignee = ?');
      else where.push('(raised_by = ? OR assignee = ?)');
      params.push(...(f.role ? [f.user] : [f.user, f.user]));
      for (const column of ['status', 'record_type', 'record_id'] as const) {
        if (f[column] === undefined) continue;
        where.push(`${column} = ?`);
        params.push(f[column]);
      }
      const sql = `FROM escalations WHERE ${where.join(' AND ')}`;
      const total = (t.db.prepare(`SELECT COUNT(*) AS n ${sql}`).get(...params) as { n: number }).n;
      const spec = t.spec('escalations');
      const rows = t.db.prepare(`SELECT * ${sql} ORDER BY ${orderClause(f.order ?? ['id'])} LIMIT ? OFFSET ?`).all(...params, f.limit, f.offset) as Row[];
      return { items: rows.map((r) => decodeRow(spec, r) as unknown as EscalationRow), total };
    },
  }),
});
