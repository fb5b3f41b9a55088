import { Type } from '@sinclair/typebox';
import { EscalationAnswered, EscalationClosed, EscalationRaised } from '../../events/contracts/comms';
import type { Queries } from '../../projections';
import type { EscalationRow } from '../../projections/comms-escalations';
import { defineAction, defineQuery, sortOf, type RouteDef } from '../action';
import { emit, isRefusal, refuse, type Actor } from '../decision';
import { Body, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { CodeInput } from './inputs';

export const ESCALATE = 'escalation.raise';

function visibleTo(actor: Actor, e: EscalationRow): boolean {
  return actor.system || e.raised_by === actor.id || e.assignee === actor.id;
}

function escalationView(read: Queries, id: string) {
  const e = read.escalations.escalation(id);
  if (!e) return undefined;
  const { created_wall: _wall, ...row } = e;
  return { ...row, links: [{ rel: 'record', type: e.record_type, id: e.record_id }] };
}

/** The staff user named by id or email; counterparty and system users cannot be escalated to. */
function staffUser(read: Queries, to: string) {
  const user = to.includes('@') ? read.org.userByEmail(to.trim()) : read.org.user(to.trim());
  return user && user.kind === 'staff' ? user : undefined;
}

export const escalationRoutes: RouteDef[] = [
  defineAction({
    action: 'escalation.raise', method: 'POST', path: '/escalations', tag: 'escalations', status: 201,
    summary: 'Escalate a record to a named staff user with a reason code',
    description: 'Managers answer escalations with a decision code by their rules for that record and reason; a wrong person or reason usually gets no answer.',
    body: Body({
      record_type: CodeInput, record_id: IdInput,
      to: Type.String({ minLength: 1, maxLength: 320, description: 'User id or email of a staff user' }),
      reason: ReasonInput, note: Opt(NoteInput),
    }),
    permission: ESCALATE, objectType: 'escalation', emits: [EscalationRaised],
    decide: ({ body }, ctx) => {
      const assignee = staffUser(ctx.read, body.to);
      if (!assignee) return refuse('not_found', `No staff user ${body.to} to escalate to.`);
      if (assignee.id === ctx.actor.id) return refuse('invalid_request', 'You cannot escalate to yourself.', 422);
      const id = ctx.nextId('ESC');
      return emit(EscalationRaised, {
        id, record_type: body.record_type, record_id: body.record_id, raised_by: ctx.actor.id, assignee: assignee.id, reason: body.reason, note: body.note ?? '',
      }, 'escalation', id);
    },
    view: (read, id) => escalationView(read, id),
  }),
  defineAction({
    action: 'escalation.respond', method: 'POST', path: '/escalations/{id}/respond', tag: 'escalations',
    summary: 'Answer an escalation assigned to you with a decision code',
    body: Body({ decision: ReasonInput, note: Opt(NoteInput) }),
    permission: null, objectType: 'escalation', emits: [EscalationAnswered],
    decide: ({ params, body }, ctx) => {
      const e = ctx.read.escalations.escalation(params.id!);
      if (!e || !visibleTo(ctx.actor, e)) return refuse('not_found', `No escalation ${params.id}.`);
      if (e.assignee !== ctx.actor.id) return refuse('forbidden', `Only ${e.assignee}, to whom ${e.id} is assigned, may answer it.`);
      if (e.status !== 'open') return refuse('invalid_state', `${e.id} is ${e.status}; only an open escalation can be answered.`);
      return emit(EscalationAnswered, { id: e.id, decision: body.decision, note: body.note ?? '', by: ctx.actor.id }, 'escalation', e.id);
    },
    view: (read, id) => escalationView(read, id),
  }),
  defineAction({
    action: 'escalation.close', method: 'POST', path: '/escalations/{id}/close', tag: 'escalations',
    summary: 'Close an escalation you raised: after its answer, or to withdraw it',
    body: Body({ note: Opt(NoteInput) }),
    permission: null, objectType: 'escalation', emits: [EscalationClosed],
    decide: ({ params, body }, ctx) => {
      const e = ctx.read.escalations.escalation(params.id!);
      if (!e || !visibleTo(ctx.actor, e)) return refuse('not_found', `No escalation ${params.id}.`);
      if (e.raised_by !== ctx.actor.id) return refuse('forbidden', `Only ${e.raised_by}, who raised ${e.id}, may close it.`);
      if (e.status === 'closed') return refuse('invalid_state', `${e.id} is already closed.`);
      return emit(EscalationClosed, { id: e.id, note: body.note ?? '', by: ctx.actor.id }, 'escalation', e.id);
    },
    view: (read, id) => escalationView(read, id),
  }),
  defineQuery({
    path: '/escalations', tag: 'escalations', permission: null,
    summary: 'Escalations you raised or that are assigned to you, oldest first',
    query: ListQuery({
      role: Opt(Type.Union([Type.Literal('raised'), Type.Literal('assigned')])),
      status: Opt(Type.Union([Type.Literal('open'), Type.Literal('answered'), Type.Literal('closed')])),
      record_type: Opt(CodeInput), record_id: Opt(IdInput),
    }),
    run: ({ query }, ctx) => {
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 200;
      const order = sortOf(ctx, 'escalations', query.sort);
      if (isRefusal(order)) return order;
      const page = ctx.read.escalations.page({ user: ctx.actor.id, role: query.role, status: query.status, record_type: query.record_type, record_id: query.record_id, order, offset, limit });
      return { items: page.items.map((e) => escalationView(ctx.read, e.id)), total: page.total, offset, limit };
    },
  }),
  defineQuery({
    path: '/escalations/{id}', tag: 'escalations', permission: null, objectType: 'escalation',
    summary: 'An escalation with its answer and status history',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => {
      const e = ctx.read.escalations.escalation(params.id!);
      return e && visibleTo(ctx.actor, e) ? escalationView(ctx.read, e.id) : undefined;
    },
  }),
];
