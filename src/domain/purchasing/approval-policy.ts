import { Type } from '@sinclair/typebox';
import { RequisitionFirstApproverSet } from '../../events/contracts/purchasing-policy';
import { defineAction, defineQuery, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { Body, Opt } from '../schemas';

export const approvalPolicyRoutes: RouteDef[] = [
  defineAction({
    action: 'purchasing_policy.set_first_approver', method: 'POST', path: '/purchasing/approval-policy', tag: 'purchasing',
    summary: "Who gets a submitted requisition first: each department's manager, or one named approver for every department",
    body: Body({ rule: Type.Union([Type.Literal('department_manager'), Type.Literal('named_user')]), user: Opt(Type.String({ pattern: '^[a-z][a-z0-9._-]{1,60}$' })) }),
    permission: 'org.admin', objectType: 'purchasing_policy', emits: [RequisitionFirstApproverSet],
    decide: ({ body }, ctx) => {
      if (body.rule === 'named_user' && !body.user) return refuse('invalid_request', 'Name the user who approves every requisition first.', 422);
      if (body.rule === 'department_manager' && body.user) return refuse('invalid_request', 'The department_manager rule names no user.', 422);
      if (body.user && !ctx.read.org.user(body.user)) return refuse('not_found', `No user ${body.user}.`);
      return emit(RequisitionFirstApproverSet, { rule: body.rule as 'named_user', user: body.user ?? null }, 'purchasing_policy', 'requisitions');
    },
    view: (read) => read.purchasingPolicy.policy(),
  }),
  defineQuery({
    path: '/purchasing/approval-policy', tag: 'purchasing', summary: 'Who gets a submitted requisition first', permission: null,
    query: Type.Object({}, { additionalProperties: false }),
    run: (_input, ctx) => ctx.read.purchasingPolicy.policy(),
  }),
];
