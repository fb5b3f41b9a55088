import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { DateString, Id, Nullable, Obj, PositiveCents } from './common';

export const DepartmentCreated = defineEvent('DepartmentCreated', Obj({ id: Id, name: Type.String({ minLength: 1, maxLength: 200 }) }));

export const DepartmentManagerAssigned = defineEvent('DepartmentManagerAssigned', Obj({ department: Id, manager: Id }));

export const RoleDefined = defineEvent(
  'RoleDefined',
  Obj({
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    permissions: Type.Array(Type.String({ pattern: '^[a-z_]+\\.[a-z_]+$' }), { uniqueItems: true }),
  }),
);

export const UserCreated = defineEvent(
  'UserCreated',
  Obj({
    id: Type.String({ pattern: '^[a-z][a-z0-9._-]{1,60}$' }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    title: Type.String({ maxLength: 200 }),
    email: Type.String({ format: 'email' }),
    phone: Type.String({ maxLength: 40 }),
    department: Nullable(Id),
    manager: Nullable(Id),
    roles: Type.Array(Id, { uniqueItems: true }),
    kind: Type.Union([Type.Literal('staff'), Type.Literal('system'), Type.Literal('counterparty')]),
  }),
);

export const UserRolesChanged = defineEvent('UserRolesChanged', Obj({ user: Id, roles: Type.Array(Id, { uniqueItems: true }) }));

export const DocumentType = Type.Union(
  ['requisition', 'purchase_order', 'ap_invoice', 'payment_run', 'journal_entry', 'non_po_invoice'].map((t) => Type.Literal(t)),
);

/** A limit of the delegation-of-authority table: for a role or a user, optionally one department. */
export const ApprovalLimitSet = defineEvent(
  'ApprovalLimitSet',
  Obj({
    subject_type: Type.Union([Type.Literal('role'), Type.Literal('user')]),
    subject: Id,
    document_type: DocumentType,
    department: Nullable(Id),
    amount: PositiveCents,
  }),
);

export const LeaveScheduled = defineEvent(
  'LeaveScheduled',
  Obj({ id: Id, user: Id, start_date: DateString, end_date: DateString, delegate: Nullable(Id) }),
);

export const LeaveCancelled = defineEvent('LeaveCancelled', Obj({ id: Id }));

/** A token is stored only as its SHA-256; the secret goes to whoever the token was issued for. */
export const ApiTokenIssued = defineEvent(
  'ApiTokenIssued',
  Obj({ id: Id, user: Id, token_sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }), label: Type.String({ maxLength: 200 }) }),
);

export const ApiTokenRevoked = defineEvent('ApiTokenRevoked', Obj({ id: Id }));
