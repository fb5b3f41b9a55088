import { Type } from '@sinclair/typebox';
import { MessageBoxDefined, MessageDelivered, MessageMarkedUnread, MessageRead, MessageSent } from '../../events/contracts/comms';
import type { Queries } from '../../projections';
import type { MessageRow } from '../../projections/comms-messages';
import { defineAction, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type Actor, type DecideContext, type Refusal } from '../decision';
import { Body, DateInput, IdInput, NoteInput, Opt } from '../schemas';
import {
  AddressInput, AddressList, AttachmentsInput, BoxInput, dedupeLinks, RelatedInput, resolveAddresses, toAttachmentFiles,
  type AttachmentFile,
} from './inputs';
import { messageView } from './views';
import { DELIVER, PERSONAL, SEND, mayReadBox, readPermission, visibleMessage } from './visibility';

const Subject = Type.String({ maxLength: 500 });
const MessageBody = Type.String({ maxLength: 200_000, description: 'Free text: stored, never acted on by any counterparty' });
const UserId = Type.String({ pattern: '^[a-z][a-z0-9._-]{1,60}$' });

interface Sender {
  box: string;
  address: string;
  name: string;
}

/** The envelope of mail sent by the actor from a box: their own address, or the shared box's. */
function senderFor(read: Queries, actor: Actor, box: string): Sender | Refusal {
  const user = read.org.user(actor.id);
  if (box === PERSONAL) {
    if (!user) return refuse('invalid_request', `${actor.id} has no personal mailbox; send from a shared box.`, 422);
    return { box, address: user.email, name: user.name };
  }
  if (!mayReadBox(actor, box)) return refuse('forbidden', `Sending from the ${box} box needs the ${readPermission(box)} permission, which your roles do not grant.`);
  const defined = read.messages.box(box);
  if (defined) return { box, address: defined.address, name: defined.name };
  const domain = user?.email.split('@')[1];
  if (!domain) return refuse('invalid_request', `The ${box} box has no address; define it with POST /message-boxes.`, 422);
  return { box, address: `${box}@${domain}`, name: user!.name };
}

interface Outgoing {
  sender: Sender;
  to: readonly string[];
  cc: readonly string[] | undefined;
  subject: string;
  body: string;
  inReplyTo: MessageRow | null;
  related: readonly { type: string; id: string }[] | undefined;
  files: AttachmentFile[];
  forwardOf: string | null;
}

function sendMessage(o: Outgoing, ctx: DecideContext) {
  const to = resolveAddresses(ctx.read, 'to', o.to);
  if (isRefusal(to)) return to;
  if (to.length === 0) return refuse('invalid_request', 'A message needs at least one recipient in to.', 422);
  const cc = resolveAddresses(ctx.read, 'cc', o.cc ?? []);
  if (isRefusal(cc)) return cc;
  const id = ctx.nextId('MSG');
  return emit(MessageSent, {
    id, box: o.sender.box, from_address: o.sender.address, from_name: o.sender.name, to, cc: cc.filter((a) => !to.includes(a)),
    subject: o.subject, body: o.body, sent_date: ctx.today, in_reply_to: o.inReplyTo?.id ?? null, thread_id: o.inReplyTo?.thread_id ?? id,
    related: dedupeLinks(o.related), attachments: o.files, sender: ctx.actor.id, forward_of: o.forwardOf,
  }, 'message', id);
}

function forwardedBody(note: string, m: MessageRow): string {
  const header = [
    '---------- Forwarded message ----------',
    `From: ${m.from_name ? `${m.from_name} <${m.from_address}>` : m.from_address}`,
    `Date: ${m.sent_date}`,
    `Subject: ${m.subject}`,
    `To: ${m.to.join(', ')}`,
    ...(m.cc.length ? [`Cc: ${m.cc.join(', ')}`] : []),
  ];
  return `${note ? `${note}\n\n` : ''}${header.join('\n')}\n\n${m.body}`;
}

/** The envelope of an inbound message, shared by every route that delivers mail from outside. */
export const InboundEnvelope = {
  box: BoxInput, owner: Opt(UserId), from: AddressInput, from_name: Opt(Type.String({ maxLength: 200 })),
  to: AddressList, cc: Opt(AddressList), subject: Subject, body: MessageBody, sent_date: Opt(DateInput),
  in_reply_to: Opt(IdInput), related: Opt(RelatedInput), attachments: Opt(AttachmentsInput),
};

export interface InboundRequest {
  box: string;
  owner?: string;
  from: string;
  from_name?: string;
  to: string[];
  cc?: string[];
  subject: string;
  body: string;
  sent_date?: string;
  in_reply_to?: string;
  related?: { type: string; id: string }[];
}

/** Mail from outside into a box, with its files already numbered. */
export function deliverInbound(body: InboundRequest, files: AttachmentFile[], ctx: DecideContext) {
  if (body.box === PERSONAL && !body.owner) return refuse('invalid_request', 'A message for a personal box names its owner.', 422);
  if (body.box !== PERSONAL && body.owner) return refuse('invalid_request', `The ${body.box} box is shared: it has no owner.`, 422);
  if (body.owner && !ctx.read.org.user(body.owner)) return refuse('not_found', `No user ${body.owner} to own the message.`);
  const sentDate = body.sent_date ?? ctx.today;
  if (sentDate > ctx.today) return refuse('invalid_request', `A message cannot be sent after today (${ctx.today}).`, 422);
  const from = resolveAddresses(ctx.read, 'from', [body.from]);
  if (isRefusal(from)) return from;
  const to = resolveAddresses(ctx.read, 'to', body.to);
  if (isRefusal(to)) return to;
  if (to.length === 0) return refuse('invalid_request', 'A message needs at least one recipient in to.', 422);
  const cc = resolveAddresses(ctx.read, 'cc', body.cc ?? []);
  if (isRefusal(cc)) return cc;
  const parent = body.in_reply_to ? ctx.read.messages.message(body.in_reply_to) : null;
  if (body.in_reply_to && !parent) return refuse('not_found', `No message ${body.in_reply_to} to reply to.`);
  const id = ctx.nextId('MSG');
  return emit(MessageDelivered, {
    id, box: body.box, owner: body.owner ?? null, from_address: from[0]!, from_name: body.from_name ?? '', to, cc: cc.filter((a) => !to.includes(a)),
    subject: body.subject, body: body.body, sent_date: sentDate, in_reply_to: parent?.id ?? null, thread_id: parent?.thread_id ?? id,
    related: dedupeLinks(body.related), attachments: files,
  }, 'message', id);
}

export const view = (read: Queries, id: string, actor: Actor) => messageView(read, id, actor);

export const messageRoutes: RouteDef[] = [
  defineAction({
    action: 'message.send', method: 'POST', path: '/messages', tag: 'messages', status: 201,
    summary: 'Send a message from your personal box or a shared box you work',
    description: 'Free text is stored and never read by counterparties; they react only to structured actions.',
    body: Body({
      to: AddressList, cc: Opt(AddressList), subject: Subject, body: MessageBody, related: Opt(RelatedInput),
      in_reply_to: Opt(IdInput), box: Opt(BoxInput), attachments: Opt(AttachmentsInput),
    }),
    permission: SEND, objectType: 'message', emits: [MessageSent],
    decide: ({ body }, ctx) => {
      const sender = senderFor(ctx.read, ctx.actor, body.box ?? PERSONAL);
      if (isRefusal(sender)) return sender;
      let inReplyTo: MessageRow | null = null;
      if (body.in_reply_to) {
        inReplyTo = visibleMessage(ctx.read, ctx.actor, body.in_reply_to) ?? null;
        if (!inReplyTo) return refuse('not_found', `No message ${body.in_reply_to} to reply to.`);
      }
      const files = toAttachmentFiles(body.attachments);
      if (isRefusal(files)) return files;
      return sendMessage({ sender, to: body.to, cc: body.cc, subject: body.subject, body: body.body, inReplyTo, related: body.related, files, forwardOf: null }, ctx);
    },
    view,
  }),
  defineAction({
    action: 'message.forward', method: 'POST', path: '/messages/{id}/forward', tag: 'messages', status: 201,
    summary: 'Forward a message with its attachments and a note',
    body: Body({ to: AddressList, cc: Opt(AddressList), note: Opt(NoteInput), box: Opt(BoxInput) }),
    permission: SEND, objectType: 'message', emits: [MessageSent],
    decide: ({ params, body }, ctx) => {
      const original = visibleMessage(ctx.read, ctx.actor, params.id!);
      if (!original) return refuse('not_found', `No message ${params.id}.`);
      // Mail of a shared box goes on from that box unless the caller names another.
      const box = body.box ?? (original.box !== PERSONAL && mayReadBox(ctx.actor, original.box) ? original.box : PERSONAL);
      const sender = senderFor(ctx.read, ctx.actor, box);
      if (isRefusal(sender)) return sender;
      const subject = /^fwd?:/i.test(original.subject) ? original.subject : `Fwd: ${original.subject}`;
      const files = ctx.read.messages.attachments(original.id).map((a) => ({ ...a, content: ctx.read.messages.attachment(original.id, a.n)!.content }));
      return sendMessage({
        sender, to: body.to, cc: body.cc, subject, body: forwardedBody(body.note ?? '', original), inReplyTo: null,
        related: original.related, files, forwardOf: original.id,
      }, ctx);
    },
    view,
  }),
  defineAction({
    action: 'message.deliver', method: 'POST', path: '/messages/inbound', tag: 'messages', status: 201,
    summary: 'Deliver an inbound message into a box (counterparties and scenario generators)',
    body: Body(InboundEnvelope),
    permission: DELIVER, objectType: 'message', emits: [MessageDelivered],
    decide: ({ body }, ctx) => {
      const files = toAttachmentFiles(body.attachments);
      if (isRefusal(files)) return files;
      return deliverInbound(body, files, ctx);
    },
    view,
  }),
  defineAction({
    action: 'message.read', method: 'POST', path: '/messages/{id}/read', tag: 'messages',
    summary: 'Mark a message read (for you only; reading with GET changes nothing)',
    body: Body({}), permission: null, objectType: 'message', emits: [MessageRead],
    decide: ({ params }, ctx) => {
      if (!visibleMessage(ctx.read, ctx.actor, params.id!)) return refuse('not_found', `No message ${params.id}.`);
      return emit(MessageRead, { message: params.id!, user: ctx.actor.id }, 'message', params.id!);
    },
    view,
  }),
  defineAction({
    action: 'message.unread', method: 'POST', path: '/messages/{id}/unread', tag: 'messages',
    summary: 'Mark a message unread again (for you only)',
    body: Body({}), permission: null, objectType: 'message', emits: [MessageMarkedUnread],
    decide: ({ params }, ctx) => {
      if (!visibleMessage(ctx.read, ctx.actor, params.id!)) return refuse('not_found', `No message ${params.id}.`);
      if (!ctx.read.messages.isRead(params.id!, ctx.actor.id)) return refuse('invalid_state', `Message ${params.id} is already unread.`);
      return emit(MessageMarkedUnread, { message: params.id!, user: ctx.actor.id }, 'message', params.id!);
    },
    view,
  }),
  defineAction({
    action: 'message_box.define', method: 'POST', path: '/message-boxes', tag: 'messages',
    summary: "Define a shared box's address and display name",
    body: Body({ box: BoxInput, address: Type.String({ format: 'email' }), name: Type.String({ minLength: 1, maxLength: 200 }) }),
    permission: 'org.admin', objectType: 'message_box', emits: [MessageBoxDefined],
    decide: ({ body }, ctx) => {
      if (body.box === PERSONAL) return refuse('invalid_request', 'personal is not a shared box.', 422);
      const address = body.address.toLowerCase();
      const taken = ctx.read.messages.boxByAddress(address);
      if (taken && taken.box !== body.box) return refuse('already_exists', `${address} is already the address of the ${taken.box} box.`);
      if (ctx.read.org.userByEmail(address)) return refuse('already_exists', `${address} is a user's address.`);
      return emit(MessageBoxDefined, { box: body.box, address, name: body.name }, 'message_box', body.box);
    },
    view: (read, box) => read.messages.box(box),
  }),
];
