import { Type } from '@sinclair/typebox';
import { RequisitionApproved, RequisitionRejected, RequisitionReturned, RequisitionRouted } from '../../events/contracts/purchasing';
import type { ApprovalRequestRow, RequisitionRow } from '../../projections/purchasing-requisitions';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { approvalRefusal } from '../approval';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { Body, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { UserIdInput } from './inputs';
import { REQUISITION_APPROVE } from './permissions';
import { approvalRequestDetail, approvalRequestView, requisitionView } from './requisition-views';

const tag = 'purchasing';
const objectType = 'requisition';

interface Pending {
  req: RequisitionRow;
  request: ApprovalRequestRow;
}

/**
 * The requisition and its open approval request, when the actor is the one it waits on. Only the
 * current assignee decides or routes it; a request assigned to someone on leave waits for them.
 */
function pendingFor(ctx: DecideContext, id: string, verb: string): Pending | Refusal {
  const req = ctx.read.requisitions.requisition(id);
  if (!req) return refuse('not_found', `No requisition ${id}.`);
  const request = req.approval_request ? ctx.read.requisitions.approvalRequest(req.approval_request) : undefined;
  if (req.status !== 'submitted' || !request || request.status !== 'pending') {
    return refuse('invalid_state', `${id} is ${req.status}; only a submitted requisition awaiting approval can be ${verb}.`);
  }
  if (!ctx.actor.system && request.assigned_to !== ctx.actor.id && req.requester !== ctx.actor.id) {
    return refuse('forbidden', `${id} waits on ${request.assigned_to} (${request.id}); only the current assignee may act on it.`);
  }
  return { req, request };
}

const assigneeOnly = (ctx: DecideContext, p: Pending): Refusal | undefined =>
  ctx.actor.system || p.request.assigned_to === ctx.actor.id ? undefined
    : refuse('forbidden', `${p.req.id} waits on ${p.request.assigned_to} (${p.request.id}); only the current assignee may act on it.`);

export const requisitionApprovalRoutes: RouteDef[] = [
  defineAction({
    action: 'requisition.approve', method: 'POST', path: '/requisitions/{id}/approve', tag, objectType,
    summary: 'Approve a requisition in your queue, within your requisition limit for its department; a requester cannot approve their own',
    body: Body({ note: Opt(NoteInput) }),
    permission: REQUISITION_APPROVE, emits: [RequisitionApproved],
    decide: ({ params, body }, ctx) => {
      const p = pendingFor(ctx, params.id!, 'approved');
      if (isRefusal(p)) return p;
      const { req, request } = p;
      // The requester's own approval is the probe the handbook cares about, so it is named first.
      const refusal = (req.requester === ctx.actor.id ? undefined : assigneeOnly(ctx, p))
        ?? approvalRefusal(ctx, { documentType: 'requisition', documentId: req.id, requester: req.requester, amount: req.total, department: req.department });
      if (refusal) return refusal;
      return emit(RequisitionApproved, { id: req.id, approval_request: request.id, amount: req.total, note: body.note ?? '' }, objectType, req.id);
    },
    view: requisitionView,
  }),
  defineAction({
    action: 'requisition.reject', method: 'POST', path: '/requisitions/{id}/reject', tag, objectType,
    summary: 'Reject a requisition in your queue, with a reason code',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: REQUISITION_APPROVE, emits: [RequisitionRejected],
    decide: ({ params, body }, ctx) => {
      const p = pendingFor(ctx, params.id!, 'rejected');
      if (isRefusal(p)) return p;
      const refusal = assigneeOnly(ctx, p);
      if (refusal) return refusal;
      return emit(RequisitionRejected, { id: p.req.id, approval_request: p.request.id, reason: body.reason, note: body.note ?? '' }, objectType, p.req.id);
    },
    view: requisitionView,
  }),
  defineAction({
    action: 'requisition.return', method: 'POST', path: '/requisitions/{id}/return', tag, objectType,
    summary: 'Return a requisition in your queue to its requester for changes, with a reason code',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: REQUISITION_APPROVE, emits: [RequisitionReturned],
    decide: ({ params, body }, ctx) => {
      const p = pendingFor(ctx, params.id!, 'returned');
      if (isRefusal(p)) return p;
      const refusal = assigneeOnly(ctx, p);
      if (refusal) return refusal;
      return emit(RequisitionReturned, { id: p.req.id, approval_request: p.request.id, reason: body.reason, note: body.note ?? '' }, objectType, p.req.id);
    },
    view: requisitionView,
  }),
  defineAction({
    action: 'requisition.route', method: 'POST', path: '/requisitions/{id}/route', tag, objectType,
    summary: 'Route a requisition in your queue on to another approver, with a reason code (lower_snake_case; which code a routing carries is the company policy\'s to say)',
    body: Body({ to: UserIdInput, reason: ReasonInput, note: Opt(NoteInput) }),
    permission: REQUISITION_APPROVE, emits: [RequisitionRouted],
    decide: ({ params, body }, ctx) => {
      const p = pendingFor(ctx, params.id!, 'routed');
      if (isRefusal(p)) return p;
      const refusal = assigneeOnly(ctx, p);
      if (refusal) return refusal;
      const to = ctx.read.org.user(body.to);
      if (!to) return refuse('not_found', `No user ${body.to}.`);
      if (to.kind !== 'staff') return refuse('invalid_request', `${body.to} is not a member of staff; route to a person who approves.`, 422);
      if (to.id === p.request.assigned_to) return refuse('invalid_request', `${p.req.id} is already assigned to ${to.id}.`, 422);
      const new_request = ctx.nextId('APR');
      return emit(RequisitionRouted, { id: p.req.id, approval_request: p.request.id, new_request, to: to.id, reason: body.reason, note: body.note ?? '' }, objectType, p.req.id);
    },
    view: requisitionView,
  }),
  defineQuery({
    path: '/approval-requests', tag, summary: "Approval requests: an approver's queue (assigned_to, status=pending), or a document's history", permission: null,
    query: ListQuery({
      assigned_to: Opt(UserIdInput),
      status: Opt(Type.Union(['pending', 'approved', 'rejected', 'returned', 'routed', 'cancelled'].map((s) => Type.Literal(s)))),
      document_type: Opt(IdInput),
      document_id: Opt(IdInput),
    }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'approval_requests', {
      assigned_to: query.assigned_to, status: query.status, document_type: query.document_type, document_id: query.document_id,
    }, query, { map: (r) => approvalRequestView(r as unknown as ApprovalRequestRow) }),
  }),
  defineQuery({
    path: '/approval-requests/{id}', tag, summary: 'An approval request: the document, who it is assigned to and why, and its decision', permission: null, objectType: 'approval_request',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => approvalRequestDetail(ctx.read, params.id!),
  }),
];
