import { Type } from '@sinclair/typebox';
import { RequisitionCancelled, RequisitionCreated, RequisitionRevised, RequisitionSubmitted } from '../../events/contracts/purchasing';
import type { RequisitionRow, RequisitionStatus } from '../../projections/purchasing-requisitions';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { Body, DateInput, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { UserIdInput } from './inputs';
import { REQUISITION_CREATE } from './permissions';
import { parseRequisitionLines, RequisitionLinesInput } from './requisition-lines';
import { requisitionView } from './requisition-views';

const tag = 'purchasing';
const objectType = 'requisition';
const Purpose = Type.String({ maxLength: 4000, description: 'Free text, stored as given' });
export const RequisitionStatusInput = Type.Union(
  ['draft', 'submitted', 'approved', 'returned', 'rejected', 'converted', 'cancelled'].map((s) => Type.Literal(s)),
);

/** The requisition, or a refusal: missing, not the actor's own, or not in a state the action starts from. */
export function ownRequisitionIn(ctx: DecideContext, id: string, states: readonly RequisitionStatus[], action: string): RequisitionRow | Refusal {
  const req = ctx.read.requisitions.requisition(id);
  if (!req) return refuse('not_found', `No requisition ${id}.`);
  if (!ctx.actor.system && req.requester !== ctx.actor.id) return refuse('forbidden', `${id} is ${req.requester}'s requisition; only its requester may ${action} it.`);
  if (!states.includes(req.status)) return refuse('invalid_state', `${id} is ${req.status}; only a requisition that is ${states.join(' or ')} can be ${action}ed.`);
  return req;
}

export const requisitionRoutes: RouteDef[] = [
  defineAction({
    action: 'requisition.create', method: 'POST', path: '/requisitions', tag, status: 201, objectType,
    summary: 'Draft a requisition: purpose, need-by date and lines (item or free description, quantity, estimated price, expense account)',
    body: Body({
      department: Opt(IdInput),
      purpose: Opt(Purpose),
      need_by: DateInput,
      lines: RequisitionLinesInput,
      // Only the system actor (scenario generators) may raise one for someone else.
      requester: Opt(UserIdInput),
    }),
    permission: REQUISITION_CREATE, emits: [RequisitionCreated],
    decide: ({ body }, ctx) => {
      const requester = body.requester ?? ctx.actor.id;
      if (requester !== ctx.actor.id && !ctx.actor.system) return refuse('forbidden', 'You may raise requisitions only as yourself.');
      const user = ctx.read.org.user(requester);
      if (!user) return refuse('not_found', `No user ${requester}.`);
      const department = body.department ?? user.department;
      if (!department) return refuse('invalid_request', `${requester} belongs to no department; name the department the requisition is for.`, 422);
      if (!ctx.read.org.department(department)) return refuse('not_found', `No department ${department}.`);
      const parsed = parseRequisitionLines(ctx.read, body.lines);
      if (isRefusal(parsed)) return parsed;
      const id = ctx.nextId('REQ');
      return emit(RequisitionCreated, { id, requester, department, purpose: body.purpose ?? '', need_by: body.need_by, ...parsed }, objectType, id);
    },
    view: requisitionView,
  }),
  defineAction({
    action: 'requisition.revise', method: 'POST', path: '/requisitions/{id}/revise', tag, objectType,
    summary: 'Replace the lines (and optionally purpose and need-by date) of your draft or returned requisition',
    body: Body({ purpose: Opt(Purpose), need_by: Opt(DateInput), lines: RequisitionLinesInput }),
    permission: REQUISITION_CREATE, emits: [RequisitionRevised],
    decide: ({ params, body }, ctx) => {
      const req = ownRequisitionIn(ctx, params.id!, ['draft', 'returned'], 'revise');
      if (isRefusal(req)) return req;
      const parsed = parseRequisitionLines(ctx.read, body.lines);
      if (isRefusal(parsed)) return parsed;
      return emit(RequisitionRevised, { id: req.id, purpose: body.purpose ?? req.purpose, need_by: body.need_by ?? req.need_by, ...parsed }, objectType, req.id);
    },
    view: requisitionView,
  }),
  defineAction({
    action: 'requisition.submit', method: 'POST', path: '/requisitions/{id}/submit', tag, objectType,
    summary: "Submit your draft or returned requisition: an approval request goes to the first approver's queue (the department manager, or the company's named approver)",
    body: Body({ note: Opt(NoteInput) }),
    permission: REQUISITION_CREATE, emits: [RequisitionSubmitted],
    decide: ({ params, body }, ctx) => {
      const req = ownRequisitionIn(ctx, params.id!, ['draft', 'returned'], 'submit');
      if (isRefusal(req)) return req;
      // The first approver gets it even when they are the requester: routing on is their job.
      const manager = ctx.read.purchasingPolicy.firstApprover(ctx.read.org.department(req.department));
      if (!manager) return refuse('invalid_state', `Department ${req.department} has no manager to approve ${req.id}.`);
      const approval_request = ctx.nextId('APR');
      return emit(RequisitionSubmitted, { id: req.id, approval_request, assigned_to: manager, amount: req.total, note: body.note ?? '' }, objectType, req.id);
    },
    view: requisitionView,
  }),
  defineAction({
    action: 'requisition.cancel', method: 'POST', path: '/requisitions/{id}/cancel', tag, objectType,
    summary: 'Cancel your requisition (not once any line is on a purchase order), with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: REQUISITION_CREATE, emits: [RequisitionCancelled],
    decide: ({ params, body }, ctx) => {
      const req = ownRequisitionIn(ctx, params.id!, ['draft', 'submitted', 'returned', 'approved'], 'cancel');
      if (isRefusal(req)) return req;
      const onPo = ctx.read.requisitions.lines(req.id).find((l) => l.converted_po !== null);
      if (onPo) return refuse('invalid_state', `Line ${onPo.line} of ${req.id} is on ${onPo.converted_po}; cancel or revise that PO first.`);
      return emit(RequisitionCancelled, { id: req.id, approval_request: req.approval_request, reason: body.reason, note: body.note ?? '' }, objectType, req.id);
    },
    view: requisitionView,
  }),
  defineQuery({
    path: '/requisitions', tag, summary: 'List requisitions by status, current assignee, requester or department', permission: null,
    query: ListQuery({ status: Opt(RequisitionStatusInput), assigned_to: Opt(UserIdInput), requester: Opt(UserIdInput), department: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'requisitions', { status: query.status, assigned_to: query.assigned_to, requester: query.requester, department: query.department }, query, {
      map: (r) => withDecimals(r as unknown as RequisitionRow, ['total']),
    }),
  }),
  defineQuery({
    path: '/requisitions/{id}', tag, summary: 'A requisition with its lines, approval history, status history and links', permission: null, objectType,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => requisitionView(ctx.read, params.id!),
  }),
];
