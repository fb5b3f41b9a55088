import { Type } from '@sinclair/typebox';
import {
  ApiTokenIssued, ApprovalLimitSet, DepartmentCreated, DepartmentManagerAssigned, LeaveCancelled,
  LeaveScheduled, RoleDefined, UserCreated, UserRolesChanged,
} from '../../events/contracts/org';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, Opt } from '../schemas';

const ADMIN = 'org.admin';
const UserId = Type.String({ pattern: '^[a-z][a-z0-9._-]{1,60}$' });

export const orgRoutes: RouteDef[] = [
  defineAction({
    action: 'department.create', method: 'POST', path: '/departments', tag: 'org', status: 201,
    summary: 'Create a department',
    body: Body({ id: IdInput, name: Type.String({ minLength: 1, maxLength: 200 }) }),
    permission: ADMIN, objectType: 'department', emits: [DepartmentCreated],
    decide: ({ body }, ctx) => {
      if (ctx.read.org.department(body.id)) return refuse('already_exists', `Department ${body.id} already exists.`);
      return emit(DepartmentCreated, { id: body.id, name: body.name }, 'department', body.id);
    },
    view: (read, id) => read.org.department(id),
  }),
  defineAction({
    action: 'department.assign_manager', method: 'POST', path: '/departments/{id}/manager', tag: 'org',
    summary: "Set a department's manager",
    body: Body({ manager: UserId }),
    permission: ADMIN, objectType: 'department', emits: [DepartmentManagerAssigned],
    decide: ({ params, body }, ctx) => {
      if (!ctx.read.org.department(params.id!)) return refuse('not_found', `No department ${params.id}.`);
      if (!ctx.read.org.user(body.manager)) return refuse('not_found', `No user ${body.manager}.`);
      return emit(DepartmentManagerAssigned, { department: params.id!, manager: body.manager }, 'department', params.id!);
    },
    view: (read, id) => read.org.department(id),
  }),
  defineAction({
    action: 'role.define', method: 'POST', path: '/roles', tag: 'org', status: 201,
    summary: 'Define a role and the permissions it grants (replaces an existing definition)',
    body: Body({ id: IdInput, name: Type.String({ minLength: 1, maxLength: 200 }), permissions: Type.Array(Type.String({ pattern: '^[a-z_]+\\.[a-z_]+$' }), { uniqueItems: true }) }),
    permission: ADMIN, objectType: 'role', emits: [RoleDefined],
    decide: ({ body }) => emit(RoleDefined, { id: body.id, name: body.name, permissions: body.permissions }, 'role', body.id),
  }),
  defineAction({
    action: 'user.create', method: 'POST', path: '/users', tag: 'org', status: 201,
    summary: 'Create a user',
    body: Body({
      id: UserId,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      title: Opt(Type.String({ maxLength: 200 })),
      email: Type.String({ format: 'email' }),
      phone: Opt(Type.String({ maxLength: 40 })),
      department: Opt(IdInput),
      manager: Opt(UserId),
      roles: Type.Array(IdInput, { uniqueItems: true }),
      kind: Opt(Type.Union([Type.Literal('staff'), Type.Literal('system'), Type.Literal('counterparty')])),
    }),
    permission: ADMIN, objectType: 'user', emits: [UserCreated],
    decide: ({ body }, ctx) => {
      if (ctx.read.org.user(body.id)) return refuse('already_exists', `User ${body.id} already exists.`);
      if (body.department && !ctx.read.org.department(body.department)) return refuse('not_found', `No department ${body.department}.`);
      if (body.manager && !ctx.read.org.user(body.manager)) return refuse('not_found', `No user ${body.manager} to be the manager.`);
      return emit(UserCreated, {
        id: body.id, name: body.name, title: body.title ?? '', email: body.email.toLowerCase(), phone: body.phone ?? '',
        department: body.department ?? null, manager: body.manager ?? null, roles: body.roles, kind: body.kind ?? 'staff',
      }, 'user', body.id);
    },
    view: (read, id) => read.org.user(id),
  }),
  defineAction({
    action: 'user.set_roles', method: 'POST', path: '/users/{id}/roles', tag: 'org',
    summary: "Replace a user's roles",
    body: Body({ roles: Type.Array(IdInput, { uniqueItems: true }) }),
    permission: ADMIN, objectType: 'user', emits: [UserRolesChanged],
    decide: ({ params, body }, ctx) => {
      if (!ctx.read.org.user(params.id!)) return refuse('not_found', `No user ${params.id}.`);
      return emit(UserRolesChanged, { user: params.id!, roles: body.roles }, 'user', params.id!);
    },
  }),
  defineAction({
    action: 'approval_limit.set', method: 'POST', path: '/approval-limits', tag: 'org',
    summary: 'Set an approval limit of the delegation-of-authority table',
    body: Body({
      subject_type: Type.Union([Type.Literal('role'), Type.Literal('user')]),
      subject: IdInput,
      document_type: Type.Union(['requisition', 'purchase_order', 'ap_invoice', 'payment_run', 'journal_entry', 'non_po_invoice'].map((t) => Type.Literal(t))),
      department: Opt(IdInput),
      amount: MoneyInput,
    }),
    permission: ADMIN, objectType: 'approval_limit', emits: [ApprovalLimitSet],
    decide: ({ body }) => {
      const amount = toCents(body.amount);
      if (amount < 0) return refuse('invalid_request', 'An approval limit cannot be negative.', 422);
      const document_type = body.document_type as 'requisition';
      return emit(ApprovalLimitSet, { subject_type: body.subject_type, subject: body.subject, document_type, department: body.department ?? null, amount }, 'approval_limit', `${body.subject_type}:${body.subject}:${body.document_type}`);
    },
  }),
  defineAction({
    action: 'leave.schedule', method: 'POST', path: '/leaves', tag: 'org', status: 201,
    summary: 'Schedule a leave, naming the delegate who approves in the meantime',
    body: Body({ user: UserId, start_date: DateInput, end_date: DateInput, delegate: Opt(UserId) }),
    permission: ADMIN, objectType: 'leave', emits: [LeaveScheduled],
    decide: ({ body }, ctx) => {
      if (!ctx.read.org.user(body.user)) return refuse('not_found', `No user ${body.user}.`);
      if (body.delegate && !ctx.read.org.user(body.delegate)) return refuse('not_found', `No user ${body.delegate} to be the delegate.`);
      if (body.delegate === body.user) return refuse('invalid_request', 'A user cannot be their own delegate.', 422);
      if (body.end_date < body.start_date) return refuse('invalid_request', 'A leave cannot end before it starts.', 422);
      const id = ctx.nextId('LV');
      return emit(LeaveScheduled, { id, user: body.user, start_date: body.start_date, end_date: body.end_date, delegate: body.delegate ?? null }, 'leave', id);
    },
  }),
  defineAction({
    action: 'leave.cancel', method: 'POST', path: '/leaves/{id}/cancel', tag: 'org',
    summary: 'Cancel a scheduled leave',
    body: Body({}),
    permission: ADMIN, objectType: 'leave', emits: [LeaveCancelled],
    decide: ({ params }, ctx) => {
      const leave = ctx.read.org.leave(params.id!);
      if (!leave) return refuse('not_found', `No leave ${params.id}.`);
      if (leave.status === 'cancelled') return refuse('invalid_state', `Leave ${params.id} is already cancelled.`);
      return emit(LeaveCancelled, { id: params.id! }, 'leave', params.id!);
    },
  }),
  defineAction({
    action: 'api_token.issue', method: 'POST', path: '/api-tokens', tag: 'org', status: 201,
    summary: 'Register an API token for a user; only its SHA-256 is stored',
    body: Body({ user: UserId, token_sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }), label: Opt(Type.String({ maxLength: 200 })) }),
    permission: ADMIN, objectType: 'api_token', emits: [ApiTokenIssued],
    decide: ({ body }, ctx) => {
      if (!ctx.read.org.user(body.user)) return refuse('not_found', `No user ${body.user}.`);
      if (ctx.read.org.tokenBySha(body.token_sha256)) return refuse('already_exists', 'That token is already registered.');
      const id = ctx.nextId('TOK');
      return emit(ApiTokenIssued, { id, user: body.user, token_sha256: body.token_sha256, label: body.label ?? '' }, 'api_token', id);
    },
    view: (_read, id) => ({ id }),
  }),
  defineQuery({
    path: '/users', tag: 'org', summary: 'List users', permission: null,
    query: ListQuery({ department: Opt(IdInput), kind: Opt(Type.String()) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'users', { department: query.department, kind: query.kind }, query),
  }),
  defineQuery({
    path: '/users/{id}', tag: 'org', summary: 'A user with roles, manager and scheduled leave', permission: null, objectType: 'user',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => {
      const user = ctx.read.org.user(params.id!);
      if (!user) return undefined;
      return { ...user, roles: ctx.read.org.roles(user.id), leaves: ctx.read.org.leaves(user.id).filter((l) => l.status === 'scheduled') };
    },
  }),
  defineQuery({
    path: '/departments', tag: 'org', summary: 'List departments and their managers', permission: null,
    query: ListQuery({}),
    run: ({ query }, ctx) => listPage(ctx.tables, 'departments', {}, query),
  }),
];
