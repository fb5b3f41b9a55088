import { Type } from '@sinclair/typebox';
import { DataAccessGranted, DataAccessRevoked } from '../../events/contracts/infoflow';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit, refuse } from '../decision';
import { Body, DateInput, IdInput, ListQuery, NoteInput, Opt } from '../schemas';

export const DATA_ACCESS_GRANT = 'data_access.grant';
const ClassInput = Type.Union([Type.Literal('vendor_bank'), Type.Literal('payroll'), Type.Literal('employee')]);

export const infoflowRoutes: RouteDef[] = [
  defineAction({
    action: 'data_access.grant', method: 'POST', path: '/data-access', tag: 'infoflow', status: 201,
    summary: 'Grant visibility of a restricted class (vendor_bank, payroll, employee) to a role, to one user for a purpose and dates, or to owners',
    body: Body({
      class: ClassInput,
      grantee_type: Type.Union([Type.Literal('role'), Type.Literal('user'), Type.Literal('owner')]),
      grantee: Opt(IdInput),
      purpose: Type.String({ minLength: 1, maxLength: 400 }),
      valid_from: Opt(DateInput),
      valid_to: Opt(DateInput),
      owner_type: Opt(Type.Union([Type.Literal('vendor'), Type.Literal('employee')])),
      owner_id: Opt(IdInput),
    }),
    permission: DATA_ACCESS_GRANT, objectType: 'data_access', emits: [DataAccessGranted],
    decide: ({ body }, ctx) => {
      if (body.grantee_type === 'owner' && body.grantee) return refuse('invalid_request', 'An owner grant names no grantee: every record\'s owner may see it.', 422);
      if (body.grantee_type !== 'owner' && !body.grantee) return refuse('invalid_request', `A ${body.grantee_type} grant names its grantee.`, 422);
      if (body.grantee_type === 'user' && !ctx.read.org.user(body.grantee!)) return refuse('not_found', `No user ${body.grantee}.`);
      if (body.grantee_type === 'role' && !ctx.read.org.role(body.grantee!)) return refuse('not_found', `No role ${body.grantee}.`);
      if ((body.owner_type === undefined) !== (body.owner_id === undefined)) return refuse('invalid_request', 'Name both owner_type and owner_id, or neither.', 422);
      if (body.valid_from && body.valid_to && body.valid_to < body.valid_from) return refuse('invalid_request', 'A grant cannot end before it starts.', 422);
      const id = ctx.nextId('DAG');
      return emit(DataAccessGranted, {
        id, class: body.class as 'vendor_bank', grantee_type: body.grantee_type as 'role', grantee: body.grantee ?? null, purpose: body.purpose,
        valid_from: body.valid_from ?? null, valid_to: body.valid_to ?? null, owner_type: (body.owner_type as 'vendor' | undefined) ?? null, owner_id: body.owner_id ?? null,
        granted_by: ctx.actor.id,
      }, 'data_access', id);
    },
    view: (read, id) => read.infoflow.grant(id),
  }),
  defineAction({
    action: 'data_access.revoke', method: 'POST', path: '/data-access/{id}/revoke', tag: 'infoflow',
    summary: 'Revoke a grant of visibility, with a reason',
    body: Body({ reason: NoteInput }),
    permission: DATA_ACCESS_GRANT, objectType: 'data_access', emits: [DataAccessRevoked],
    decide: ({ params, body }, ctx) => {
      const grant = ctx.read.infoflow.grant(params.id!);
      if (!grant) return refuse('not_found', `No grant ${params.id}.`);
      if (grant.status === 'revoked') return refuse('invalid_state', `Grant ${grant.id} is already revoked.`);
      return emit(DataAccessRevoked, { id: grant.id, reason: body.reason, revoked_by: ctx.actor.id }, 'data_access', grant.id);
    },
    view: (read, id) => read.infoflow.grant(id),
  }),
  defineQuery({
    path: '/data-access', tag: 'infoflow', summary: 'Who may see restricted data: grants by class, grantee and status', permission: null,
    query: ListQuery({ class: Opt(ClassInput), grantee: Opt(IdInput), status: Opt(Type.Union([Type.Literal('active'), Type.Literal('revoked')])) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'data_access', { class: query.class, grantee: query.grantee, status: query.status }, query),
  }),
];
