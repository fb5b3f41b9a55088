import { Type } from '@sinclair/typebox';
import { defineQuery, sortOf, type RouteDef } from '../action';
import { isRefusal, refuse } from '../decision';
import { DateInput, ListQuery, Opt } from '../schemas';
import { BoxInput } from './inputs';
import { messageSummary, messageView } from './views';
import { PERSONAL, actorAddresses, actorEmail, mayReadBox, readPermission, readableBoxes, visibleMessage } from './visibility';

const InboundStatusInput = Type.Union(['new', 'processed', 'duplicate', 'rejected', 'suspicious'].map((s) => Type.Literal(s)));
const NoQuery = Type.Object({}, { additionalProperties: false });

export const mailboxRoutes: RouteDef[] = [
  defineQuery({
    path: '/inbox', tag: 'messages', permission: null,
    summary: 'Your mail: the shared boxes you work and your personal box, newest first',
    description: 'box=personal or a shared box code narrows the list; reading a shared box needs messages.read_<box>. since=YYYY-MM-DD keeps mail sent on or after that day; unread=true what you have not read; sort=sent_date lists the oldest first.',
    query: ListQuery({ box: Opt(BoxInput), unread: Opt(Type.Boolean()), status: Opt(InboundStatusInput), since: Opt(DateInput) }),
    run: ({ query }, ctx) => {
      const email = actorEmail(ctx.read, ctx.actor);
      let scope: { boxes: string[]; personalOwner: string | null; addresses: string[] };
      if (query.box === undefined) {
        const boxes = readableBoxes(ctx.actor);
        scope = { boxes, personalOwner: ctx.actor.id, addresses: actorAddresses(ctx.read, ctx.actor, boxes) };
      } else if (query.box === PERSONAL) {
        scope = { boxes: [], personalOwner: ctx.actor.id, addresses: email ? [email] : [] };
      } else {
        if (!mayReadBox(ctx.actor, query.box)) {
          return refuse('forbidden', `Reading the ${query.box} box needs the ${readPermission(query.box)} permission, which your roles do not grant.`);
        }
        const address = ctx.read.messages.box(query.box)?.address;
        scope = { boxes: [query.box], personalOwner: null, addresses: address ? [address] : [] };
      }
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 200;
      const order = sortOf(ctx, 'messages', query.sort);
      if (isRefusal(order)) return order;
      const page = ctx.read.messages.mailbox({ reader: ctx.actor.id, ...scope, status: query.status, unread: query.unread, since: query.since, order, offset, limit });
      return { items: page.items.map((m) => messageSummary(m, m.read)), total: page.total, offset, limit };
    },
  }),
  defineQuery({
    path: '/outbox', tag: 'messages', permission: null,
    summary: 'Messages you sent (forwards included), newest first',
    query: ListQuery({ box: Opt(BoxInput) }),
    run: ({ query }, ctx) => {
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 200;
      const order = sortOf(ctx, 'messages', query.sort);
      if (isRefusal(order)) return order;
      const page = ctx.read.messages.sentBy(ctx.actor.id, query.box, offset, limit, order);
      return { items: page.items.map((m) => messageSummary(m, ctx.read.messages.isRead(m.id, ctx.actor.id))), total: page.total, offset, limit };
    },
  }),
  defineQuery({
    path: '/messages/{id}', tag: 'messages', permission: null, objectType: 'message',
    summary: 'A message with its body, attachment list, links and your read flag (reading does not mark it read)',
    query: NoQuery,
    run: ({ params }, ctx) => (visibleMessage(ctx.read, ctx.actor, params.id!) ? messageView(ctx.read, params.id!, ctx.actor) : undefined),
  }),
  defineQuery({
    path: '/messages/{id}/attachments/{n}', tag: 'messages', permission: null, objectType: 'attachment',
    summary: 'One attachment of a message: filename, content type, encoding (utf8 or base64) and content',
    query: NoQuery,
    run: ({ params }, ctx) => {
      if (!visibleMessage(ctx.read, ctx.actor, params.id!) || !/^[1-9][0-9]{0,2}$/.test(params.n!)) return undefined;
      const file = ctx.read.messages.attachment(params.id!, Number(params.n));
      if (!file) return undefined;
      return { message: file.message_id, n: file.n, filename: file.filename, content_type: file.content_type, encoding: file.encoding, size: file.size, content: file.content };
    },
  }),
  defineQuery({
    path: '/message-boxes', tag: 'messages', permission: null,
    summary: 'Shared boxes: address, name, and whether you may read them',
    query: NoQuery,
    run: (_input, ctx) => {
      const items = ctx.read.messages.boxes().map((b) => ({ box: b.box, address: b.address, name: b.name, readable: mayReadBox(ctx.actor, b.box) }));
      return { items, total: items.length };
    },
  }),
];
