import {
  ApiTokenIssued, ApiTokenRevoked, ApprovalLimitSet, DepartmentCreated, DepartmentManagerAssigned,
  LeaveCancelled, LeaveScheduled, RoleDefined, UserCreated, UserRolesChanged,
} from '../events/contracts/org';
import { defineReadModel, on } from './read-model';

export interface UserRow {
  id: string;
  name: string;
  title: string;
  email: string;
  phone: string;
  department: string | null;
  manager: string | null;
  kind: 'staff' | 'system' | 'counterparty';
  created_date: string;
}

export interface LeaveRow {
  id: string;
  user_id: string;
  start_date: string;
  end_date: string;
  delegate_id: string | null;
  status: 'scheduled' | 'cancelled';
}

export interface ApprovalLimitRow {
  subject_type: 'role' | 'user';
  subject: string;
  document_type: string;
  department: string;
  amount: number;
}

/** Any department: the key column cannot be NULL, so a company-wide limit uses this marker. */
export const ALL_DEPARTMENTS = '*';

export const org = defineReadModel({
  name: 'org',
  tables: [
    { name: 'departments', columns: { id: 'text', name: 'text', manager: 'text' }, key: ['id'] },
    { name: 'roles', columns: { id: 'text', name: 'text' }, key: ['id'] },
    { name: 'role_permissions', columns: { role: 'text', permission: 'text' }, key: ['role', 'permission'] },
    {
      name: 'users',
      columns: { id: 'text', name: 'text', title: 'text', email: 'text', phone: 'text', department: 'text', manager: 'text', kind: 'text', created_date: 'text' },
      key: ['id'],
      indexes: [['email']],
    },
    { name: 'user_roles', columns: { user_id: 'text', role: 'text' }, key: ['user_id', 'role'] },
    {
      name: 'approval_limits',
      columns: { subject_type: 'text', subject: 'text', document_type: 'text', department: 'text', amount: 'integer' },
      key: ['subject_type', 'subject', 'document_type', 'department'],
    },
    {
      name: 'delegations',
      columns: { id: 'text', user_id: 'text', start_date: 'text', end_date: 'text', delegate_id: 'text', status: 'text' },
      key: ['id'],
      indexes: [['user_id']],
    },
    { name: 'api_tokens', columns: { id: 'text', user_id: 'text', token_sha256: 'text', label: 'text', status: 'text', issued_date: 'text' }, key: ['id'], indexes: [['token_sha256']] },
  ],
  handlers: [
    on(DepartmentCreated, (tx, d) => tx.insert('departments', { id: d.id, name: d.name, manager: null })),
    on(DepartmentManagerAssigned, (tx, d) => void tx.update('departments', d.department, (r) => { r.manager = d.manager; })),
    on(RoleDefined, (tx, d) => {
      tx.upsert('roles', { id: d.id, name: d.name }, (r) => { r.name = d.name; });
      for (const old of tx.find<{ role: string; permission: string }>('role_permissions', { role: d.id })) tx.remove('role_permissions', old);
      for (const permission of d.permissions) tx.insert('role_permissions', { role: d.id, permission });
    }),
    on(UserCreated, (tx, d, e) => {
      tx.insert('users', { id: d.id, name: d.name, title: d.title, email: d.email, phone: d.phone, department: d.department, manager: d.manager, kind: d.kind, created_date: e.businessDate });
      for (const role of d.roles) tx.insert('user_roles', { user_id: d.id, role });
    }),
    on(UserRolesChanged, (tx, d) => {
      for (const old of tx.find<{ user_id: string; role: string }>('user_roles', { user_id: d.user })) tx.remove('user_roles', old);
      for (const role of d.roles) tx.insert('user_roles', { user_id: d.user, role });
    }),
    on(ApprovalLimitSet, (tx, d) => {
      const row = { subject_type: d.subject_type, subject: d.subject, document_type: d.document_type, department: d.department ?? ALL_DEPARTMENTS, amount: d.amount };
      tx.upsert('approval_limits', row, (r) => { r.amount = d.amount; });
    }),
    on(LeaveScheduled, (tx, d) => tx.insert('delegations', { id: d.id, user_id: d.user, start_date: d.start_date, end_date: d.end_date, delegate_id: d.delegate, status: 'scheduled' })),
    on(LeaveCancelled, (tx, d) => void tx.update('delegations', d.id, (r) => { r.status = 'cancelled'; })),
    on(ApiTokenIssued, (tx, d, e) => tx.insert('api_tokens', { id: d.id, user_id: d.user, token_sha256: d.token_sha256, label: d.label, status: 'active', issued_date: e.businessDate })),
    on(ApiTokenRevoked, (tx, d) => void tx.update('api_tokens', d.id, (r) => { r.status = 'revoked'; })),
  ],
  queries: (t) => {
    const rolesOf = (userId: string): string[] => t.find<{ role: string }>('user_roles', { user_id: userId }).map((r) => r.role);
    return {
      user: (id: string) => t.get<UserRow & Record<string, unknown>>('users', id),
      userByEmail: (email: string) => t.find<UserRow & Record<string, unknown>>('users', { email: email.toLowerCase() })[0],
      users: () => t.find<UserRow & Record<string, unknown>>('users'),
      role: (id: string) => t.get<{ id: string; name: string }>('roles', id),
      department: (id: string) => t.get<{ id: string; name: string; manager: string | null }>('departments', id),
      departments: () => t.find<{ id: string; name: string; manager: string | null }>('departments'),
      roles: rolesOf,
      permissions(userId: string): string[] {
        const roles = rolesOf(userId);
        if (roles.length === 0) return [];
        return [...new Set(t.find<{ permission: string }>('role_permissions', { role: roles }).map((r) => r.permission))].sort();
      },
      /**
       * The user's approval limit in cents for a document type and department: a limit set for the
       * user wins; otherwise the highest of their roles' limits for that department or company-wide.
       * Null when the user may not approve that document type at all.
       */
      approvalLimit(userId: string, documentType: string, department: string | null): number | null {
        const depts = department ? [department, ALL_DEPARTMENTS] : [ALL_DEPARTMENTS];
        const own = t.find<ApprovalLimitRow & Record<string, unknown>>('approval_limits', { subject_type: 'user', subject: userId, document_type: documentType, department: depts });
        if (own.length > 0) return Math.max(...own.map((r) => r.amount));
        const roles = rolesOf(userId);
        if (roles.length === 0) return null;
        const byRole = t.find<ApprovalLimitRow & Record<string, unknown>>('approval_limits', { subject_type: 'role', subject: roles, document_type: documentType, department: depts });
        return byRole.length > 0 ? Math.max(...byRole.map((r) => r.amount)) : null;
      },
      limitsOf(userId: string): ApprovalLimitRow[] {
        const roles = rolesOf(userId);
        return [
          ...t.find<ApprovalLimitRow & Record<string, unknown>>('approval_limits', { subject_type: 'user', subject: userId }),
          ...(roles.length ? t.find<ApprovalLimitRow & Record<string, unknown>>('approval_limits', { subject_type: 'role', subject: roles }) : []),
        ];
      },
      leave: (id: string) => t.get<LeaveRow & Record<string, unknown>>('delegations', id),
      leaves: (userId: string) => t.find<LeaveRow & Record<string, unknown>>('delegations', { user_id: userId }, { orderBy: ['start_date', 'id'] }),
      /** The leave covering `date`, if the user is away that day. */
      leaveOn(userId: string, date: string): LeaveRow | undefined {
        return t.find<LeaveRow & Record<string, unknown>>('delegations', { user_id: userId, status: 'scheduled' }, { orderBy: ['start_date', 'id'] })
          .find((l) => l.start_date <= date && date <= l.end_date);
      },
      tokenBySha(sha: string) {
        return t.find<{ id: string; user_id: string; status: string }>('api_tokens', { token_sha256: sha })[0];
      },
      tokensOf: (userId: string) => t.find<{ id: string; user_id: string; status: string; label: string }>('api_tokens', { user_id: userId }),
    };
  },
});
