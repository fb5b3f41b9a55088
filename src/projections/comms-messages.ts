import type { Draft } from 'immer';
import {
  MessageBoxDefined, MessageDelivered, MessageDispositioned, MessageMarkedUnread, MessageRead, MessageSent,
} from '../events/contracts/comms';
import type { EventData } from '../events/event-types';
import type { EventRow } from '../events/event-row';
import { defineReadModel, on, type ProjectionTx } from './read-model';
import { orderClause, type TableAccess } from './table-access';
import { decodeRow, type Row } from './table-spec';

export interface StatusEntry {
  status: string;
  date: string;
  by: string;
  reason: string | null;
  event_id: number;
}

export interface MessageRow {
  id: string;
  box: string;
  owner: string | null;
  direction: 'inbound' | 'outbound';
  sender: string | null;
  from_address: string;
  from_name: string;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  sent_date: string;
  in_reply_to: string | null;
  thread_id: string;
  forward_of: string | null;
  related: { type: string; id: string }[];
  attachment_count: number;
  /** Inbound: new | processed | duplicate | rejected | suspicious. Outbound: sent. */
  status: string;
  disposition_ref: string | null;
  disposition_note: string | null;
  disposition_by: string | null;
  disposition_date: string | null;
  status_history: StatusEntry[];
  created_by: string;
  created_date: string;
  created_wall: string;
}

export interface AttachmentMeta {
  n: number;
  filename: string;
  content_type: string;
  encoding: 'utf8' | 'base64';
  size: number;
}

export interface AttachmentRow extends AttachmentMeta {
  message_id: string;
  content: string;
}

export interface DispositionRow {
  event_id: number;
  message_id: string;
  disposition: string;
  ref: string | null;
  note: string;
  by: string;
  date: string;
}

export interface BoxRow {
  box: string;
  address: string;
  name: string;
}

/** Which messages a mailbox listing covers; see domain/comms/visibility.ts for who may ask. */
export interface MailboxFilter {
  /** Whose read flags the listing shows. */
  reader: string;
  /** Shared boxes whose inbound mail is included. */
  boxes: readonly string[];
  /** Include inbound personal mail of this user. */
  personalOwner: string | null;
  /** Include any message addressed (to or cc) to one of these. */
  addresses: readonly string[];
  status?: string;
  unread?: boolean;
  /** Only mail sent on or after this date. */
  since?: string;
  /** ORDER BY terms over messages (checked by the route); default newest first. */
  order?: readonly string[];
  offset: number;
  limit: number;
}

type Message = EventData<typeof MessageDelivered> | EventData<typeof MessageSent>;

function insertMessage(tx: ProjectionTx, d: Message, event: EventRow, direction: 'inbound' | 'outbound'): void {
  const sender = 'sender' in d ? d.sender : null;
  const status = direction === 'inbound' ? 'new' : 'sent';
  tx.insert('messages', {
    id: d.id, box: d.box, owner: 'owner' in d ? d.owner : null, direction, sender,
    from_address: d.from_address, from_name: d.from_name, to: d.to, cc: d.cc, subject: d.subject, body: d.body,
    sent_date: d.sent_date, in_reply_to: d.in_reply_to, thread_id: d.thread_id, forward_of: 'forward_of' in d ? d.forward_of : null,
    related: d.related, attachment_count: d.attachments.length, status,
    disposition_ref: null, disposition_note: null, disposition_by: null, disposition_date: null,
    status_history: [{ status, date: event.businessDate, by: event.actor, reason: null, event_id: event.seq }],
    created_by: event.actor, created_date: event.businessDate, created_wall: event.wallTime,
  });
  for (const [kind, list] of [['to', d.to], ['cc', d.cc]] as const) {
    for (const address of list) tx.insert('message_recipients', { message_id: d.id, kind, address });
  }
  for (const a of d.attachments) tx.insert('message_attachments', { message_id: d.id, ...a });
  for (const link of d.related) tx.insert('message_links', { message_id: d.id, record_type: link.type, record_id: link.id });
}

/** Mail: shared and personal boxes, recipients, attachments, per-user read flags and dispositions. */
export const messages = defineReadModel({
  name: 'messages',
  tables: [
    { name: 'message_boxes', columns: { box: 'text', address: 'text', name: 'text' }, key: ['box'], indexes: [['address']] },
    {
      name: 'messages',
      columns: {
        id: 'text', box: 'text', owner: 'text', direction: 'text', sender: 'text', from_address: 'text', from_name: 'text',
        to: 'json', cc: 'json', subject: 'text', body: 'text', sent_date: 'text', in_reply_to: 'text', thread_id: 'text',
        forward_of: 'text', related: 'json', attachment_count: 'integer', status: 'text', disposition_ref: 'text',
        disposition_note: 'text', disposition_by: 'text', disposition_date: 'text', status_history: 'json',
        created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['box', 'direction'], ['owner'], ['sender'], ['thread_id'], ['in_reply_to']],
    },
    { name: 'message_recipients', columns: { message_id: 'text', kind: 'text', address: 'text' }, key: ['message_id', 'kind', 'address'], indexes: [['address']] },
    {
      name: 'message_attachments',
      columns: { message_id: 'text', n: 'integer', filename: 'text', content_type: 'text', encoding: 'text', content: 'text', size: 'integer' },
      key: ['message_id', 'n'],
    },
    { name: 'message_links', columns: { message_id: 'text', record_type: 'text', record_id: 'text' }, key: ['message_id', 'record_type', 'record_id'], indexes: [['record_type', 'record_id']] },
    { name: 'message_reads', columns: { message_id: 'text', user_id: 'text', read_date: 'text' }, key: ['message_id', 'user_id'] },
    {
      name: 'dispositions',
      columns: { event_id: 'integer', message_id: 'text', disposition: 'text', ref: 'text', note: 'text', by: 'text', date: 'text' },
      key: ['event_id'],
      indexes: [['message_id']],
    },
  ],
  handlers: [
    on(MessageBoxDefined, (tx, d) => {
      tx.upsert('message_boxes', { box: d.box, address: d.address, name: d.name }, (r) => Object.assign(r, { address: d.address, name: d.name }));
    }),
    on(MessageDelivered, (tx, d, e) => insertMessage(tx, d, e, 'inbound')),
    on(MessageSent, (tx, d, e) => insertMessage(tx, d, e, 'outbound')),
    // A second read keeps the date of the first.
    on(MessageRead, (tx, d, e) => void tx.upsert('message_reads', { message_id: d.message, user_id: d.user, read_date: e.businessDate })),
    on(MessageMarkedUnread, (tx, d) => tx.remove('message_reads', { message_id: d.message, user_id: d.user })),
    on(MessageDispositioned, (tx, d, e) => {
      tx.update<MessageRow & Row>('messages', d.message, (m: Draft<MessageRow>) => {
        m.status = d.disposition;
        m.disposition_ref = d.ref;
        m.disposition_note = d.note;
        m.disposition_by = d.by;
        m.disposition_date = e.businessDate;
        m.status_history.push({ status: d.disposition, date: e.businessDate, by: d.by, reason: d.note || null, event_id: e.seq });
      });
      tx.insert('dispositions', { event_id: e.seq, message_id: d.message, disposition: d.disposition, ref: d.ref, note: d.note, by: d.by, date: e.businessDate });
    }),
  ],
  queries: (t) => ({
    box: (code: string) => t.get<BoxRow & Row>('message_boxes', code),
    boxes: () => t.find<BoxRow & Row>('message_boxes'),
    boxByAddress: (address: string) => t.find<BoxRow & Row>('message_boxes', { address })[0],
    message: (id: string) => t.get<MessageRow & Row>('messages', id),
    attachments(id: string): AttachmentMeta[] {
      return t.db.prepare('SELECT n, filename, content_type, encoding, size FROM message_attachments WHERE message_id = ? ORDER BY n').all(id) as AttachmentMeta[];
    },
    attachment: (id: string, n: number) => t.get<AttachmentRow & Row>('message_attachments', { message_id: id, n }),
    recipients: (id: string) => t.find<{ kind: string; address: string }>('message_recipients', { message_id: id }).map((r) => r.address),
    isRead: (id: string, user: string) => t.get('message_reads', { message_id: id, user_id: user }) !== undefined,
    dispositions: (id: string) => t.find<DispositionRow & Row>('dispositions', { message_id: id }),
    replies: (id: string) => t.find<{ id: string }>('messages', { in_reply_to: id }).map((m) => m.id),
    /** Ids of the messages linked to a record, oldest first: for areas that show a document's mail. */
    messagesAbout: (recordType: string, recordId: string) =>
      t.find<{ message_id: string }>('message_links', { record_type: recordType, record_id: recordId }, { orderBy: 'message_id' }).map((r) => r.message_id),
    mailbox: (filter: MailboxFilter) => mailboxPage(t, filter),
    /** Mail a user sent, oldest first, optionally from one box. */
    sentBy(user: string, box: string | undefined, offset: number, limit: number, order: readonly string[] = NEWEST_FIRST) {
      const where = { sender: user, direction: 'outbound', box };
      return { items: t.find<MessageRow & Row>('messages', where, { orderBy: order, offset, limit }), total: t.count('messages', where) };
    },
  }),
});

/** A mailbox lists this week's mail first: a busy box holds hundreds of older messages. */
export const NEWEST_FIRST = ['sent_date desc', 'id desc'] as const;

function mailboxPage(t: TableAccess, f: MailboxFilter): { items: (MessageRow & { read: boolean })[]; total: number } {
  const scope: string[] = [];
  const params: unknown[] = [];
  if (f.boxes.length > 0) {
    scope.push(`(m.direction = 'inbound' AND m.box IN (${f.boxes.map(() => '?').join(', ')}))`);
    params.push(...f.boxes);
  }
  if (f.personalOwner !== null) {
    scope.push(`(m.direction = 'inbound' AND m.box = 'personal' AND m.owner = ?)`);
    params.push(f.personalOwner);
  }
  if (f.addresses.length > 0) {
    scope.push(`m.id IN (SELECT message_id FROM message_recipients WHERE address IN (${f.addresses.map(() => '?').join(', ')}))`);
    params.push(...f.addresses);
  }
  if (scope.length === 0) return { items: [], total: 0 };
  const where = [`(${scope.join(' OR ')})`];
  if (f.status !== undefined) {
    where.push('m.status = ?');
    params.push(f.status);
  }
  if (f.since !== undefined) {
    where.push('m.sent_date >= ?');
    params.push(f.since);
  }
  const read = 'EXISTS (SELECT 1 FROM message_reads r WHERE r.message_id = m.id AND r.user_id = ?)';
  if (f.unread !== undefined) {
    where.push(f.unread ? `NOT ${read}` : read);
    params.push(f.reader);
  }
  const sql = `FROM messages m WHERE ${where.join(' AND ')}`;
  const total = (t.db.prepare(`SELECT COUNT(*) AS n ${sql}`).get(...params) as { n: number }).n;
  const rows = t.db.prepare(`SELECT m.*, ${read} AS is_read ${sql} ORDER BY ${orderClause(f.order ?? NEWEST_FIRST, 'm')} LIMIT ? OFFSET ?`).all(f.reader, ...params, f.limit, f.offset) as Row[];
  const spec = t.spec('messages');
  const items = rows.map((raw) => {
    const isRead = raw.is_read === 1;
    delete raw.is_read;
    return { ...(decodeRow(spec, raw) as unknown as MessageRow), read: isRead };
  });
  return { items, total };
}
