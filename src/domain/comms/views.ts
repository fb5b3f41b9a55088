import type { Queries } from '../../projections';
import type { MessageRow } from '../../projections/comms-messages';
import type { Actor } from '../decision';
import { canRead } from './visibility';

/** A message as a list shows it: the envelope and the caller's read flag, without body or files. */
export function messageSummary(m: MessageRow, read: boolean) {
  return {
    id: m.id, box: m.box, direction: m.direction, from_address: m.from_address, from_name: m.from_name, to: m.to, cc: m.cc,
    subject: m.subject, sent_date: m.sent_date, received_date: m.created_date, status: m.status, attachment_count: m.attachment_count,
    related: m.related, in_reply_to: m.in_reply_to, thread_id: m.thread_id, read,
  };
}

/** GET /messages/{id}: the whole message, its files (without content), links and the caller's read flag. */
export function messageView(read: Queries, id: string, actor: Actor) {
  const m = read.messages.message(id);
  if (!m) return undefined;
  const links: { rel: string; type: string; id: string }[] = m.related.map((r) => ({ rel: 'related', type: r.type, id: r.id }));
  if (m.in_reply_to) links.push({ rel: 'in_reply_to', type: 'message', id: m.in_reply_to });
  if (m.forward_of) links.push({ rel: 'forward_of', type: 'message', id: m.forward_of });
  for (const reply of read.messages.replies(m.id)) {
    const r = read.messages.message(reply);
    if (r && canRead(read, actor, r)) links.push({ rel: 'reply', type: 'message', id: reply });
  }
  const disposition = m.direction === 'inbound' && m.status !== 'new'
    ? { disposition: m.status, ref: m.disposition_ref, note: m.disposition_note, by: m.disposition_by, date: m.disposition_date }
    : null;
  return {
    id: m.id, box: m.box, owner: m.owner, direction: m.direction, sender: m.sender, from_address: m.from_address, from_name: m.from_name,
    to: m.to, cc: m.cc, subject: m.subject, body: m.body, sent_date: m.sent_date, received_date: m.created_date,
    in_reply_to: m.in_reply_to, thread_id: m.thread_id, forward_of: m.forward_of, status: m.status, disposition,
    read: read.messages.isRead(m.id, actor.id), attachments: read.messages.attachments(m.id), links, status_history: m.status_history,
  };
}
