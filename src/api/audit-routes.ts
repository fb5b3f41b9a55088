import { Type } from '@sinclair/typebox';
import { defineQuery, type RouteDef } from '../domain/action';
import { isConfidentialEventType } from '../events/event-types';
import type { EventRow } from '../events/event-row';
import { fromStoredRow } from '../events/store';
import { IdInput, ListQuery, Opt } from '../domain/schemas';

export const AUDIT_READ = 'audit.read';

export const auditRoutes: RouteDef[] = [
  defineQuery({
    path: '/whoami', tag: 'session', summary: 'Who you are: user, roles, permissions, approval limits, message boxes, business date', permission: null,
    query: Type.Object({}, { additionalProperties: false }),
    run: (_input, ctx) => {
      const user = ctx.read.org.user(ctx.actor.id);
      return {
        user: user ? { id: user.id, name: user.name, title: user.title, email: user.email, department: user.department, manager: user.manager } : { id: ctx.actor.id, name: ctx.actor.name },
        roles: ctx.actor.roles,
        permissions: [...ctx.actor.permissions].sort(),
        approval_limits: ctx.read.org.limitsOf(ctx.actor.id).map((l) => ({ ...l, amount: l.amount / 100 })),
        boxes: boxesFor(ctx.actor.permissions),
      };
    },
  }),
  defineQuery({
    path: '/audit', tag: 'session',
    summary: 'The audit trail: your own requests, or everyone\'s with the audit.read permission',
    permission: null,
    query: ListQuery({
      actor: Opt(IdInput),
      action: Opt(Type.String({ maxLength: 80 })),
      object_id: Opt(IdInput),
      outcome: Opt(Type.Union([Type.Literal('ok'), Type.Literal('refused')])),
      kind: Opt(Type.Union([Type.Literal('write'), Type.Literal('read')])),
      from_seq: Opt(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    }),
    run: ({ query }, ctx) => {
      const clauses: string[] = ['seq >= ?'];
      const params: unknown[] = [query.from_seq ?? 0];
      const actor = ctx.actor.permissions.has(AUDIT_READ) ? query.actor : ctx.actor.id;
      if (actor) { clauses.push('actor = ?'); params.push(actor); }
      if (query.action) { clauses.push('action = ?'); params.push(query.action); }
      if (query.object_id) { clauses.push('object_id = ?'); params.push(query.object_id); }
      if (query.outcome) { clauses.push('outcome = ?'); params.push(query.outcome); }
      if (query.kind) { clauses.push('kind = ?'); params.push(query.kind); }
      const where = clauses.join(' AND ');
      const db = ctx.tables.db;
      const total = (db.prepare(`SELECT COUNT(*) AS n FROM events WHERE ${where}`).get(...params) as { n: number }).n;
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 200;
      const rows = db.prepare(`SELECT * FROM events WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`).all(...params, limit, offset);
      const readable = new Map<string, boolean>();
      const mayRead = (type: string, id: string) => {
        const key = `${type}\n${id}`;
        let ok = readable.get(key);
        if (ok === undefined) readable.set(key, (ok = ctx.mayRead(type, id)));
        return ok;
      };
      const items = rows.map((r) => {
        const e = fromStoredRow(r as Record<string, unknown>);
        return {
          event_id: e.seq, business_date: e.businessDate, wall_time: e.wallTime, actor: e.actor, token_id: e.tokenId, method: e.method,
          path: e.path, action: e.action, object_type: e.objectType, object_id: e.objectId, outcome: e.outcome, error_code: e.errorCode,
          idempotency_key: e.idempotencyKey, type: e.type, data: shownData(e, mayRead),
        };
      });
      return { items, total, offset, limit };
    },
  }),
];

/**
 * What an audit row shows of its payload. The trail leaks nothing its reader could not read at the
 * source (seed 000 §7.2): a confidential payload (a counterparty's script) is hidden from everyone,
 * and the payload of a row about a document the reader may not open (a message in a box they
 * cannot read) is withheld. Bank numbers are masked in whatever is shown, as in every response.
 */
function shownData(e: EventRow, mayRead: (type: string, id: string) => boolean): unknown {
  if (isConfidentialEventType(e.type)) return { confidential: true };
  if (e.objectType && e.objectId && !mayRead(e.objectType, e.objectId)) return { withheld: true, reason: `You may not read ${e.objectType} ${e.objectId}.` };
  return e.data;
}

/** Message boxes a user may read, by permission (`messages.read_<box>`). */
function boxesFor(permissions: ReadonlySet<string>): string[] {
  const boxes = ['personal'];
  for (const p of permissions) {
    const m = /^messages\.read_([a-z_]+)$/.exec(p);
    if (m) boxes.push(m[1]!);
  }
  return [...new Set(boxes)].sort();
}
