import { knownPermissions } from '../api/routes';
import { resolveGrants, type ScenarioBuilder } from './builder';

/** A named member of a company's staff. Ids are stable across seeds because tasks name their agent user. */
export interface StaffMember {
  id: string;
  name: string;
  title: string;
  department: string;
  manager: string | null;
  roles: string[];
  phone: string;
}

/** Staff of a company whose desk phones share an area code; every member is also an employee. */
export function staffOf(areaCode: string) {
  return (id: string, name: string, title: string, department: string, manager: string | null, roles: string[], ext: number): StaffMember =>
    ({ id, name, title, department, manager, roles: ['employee', ...roles], phone: `(${areaCode}) 555-${String(ext).padStart(4, '0')}` });
}

/** A user who is not staff: the bank, the vendors' desk, the scenario. */
export interface OtherUser {
  id: string;
  name: string;
  email: string;
  role: string;
  kind: 'counterparty' | 'system';
}

/** Who a company is and who works there: what every company generator sets up before its master data. */
export interface Organisation {
  company: { code: string; name: string; currency: string; domain: string };
  holidays: readonly (readonly [date: string, name: string])[];
  departments: readonly (readonly [id: string, name: string, manager: string])[];
  /** Role → its name and permission patterns (`ap_invoice.*`), resolved against the permissions that exist. */
  roles: Readonly<Record<string, { name: string; grants: readonly string[] }>>;
  staff: readonly StaffMember[];
  /** The delegation-of-authority table, in dollars. */
  approvalLimits: readonly (readonly [role: string, documentType: string, amount: number])[];
  /** Users who are not staff, in the order they are created. */
  others: readonly OtherUser[];
  sharedBoxes: readonly (readonly [box: string, name: string])[];
}

/** A role's permissions, and the patterns that match no permission that exists (a generator's test reports them). */
export function roleGrants(org: Organisation, role: string): { permissions: string[]; unmatched: string[] } {
  return resolveGrants(org.roles[role]!.grants, knownPermissions(org.sharedBoxes.map(([box]) => box)));
}

function depth(org: Organisation, user: string): number {
  let d = 0;
  for (let u = org.staff.find((s) => s.id === user); u?.manager; u = org.staff.find((s) => s.id === u!.manager)) d += 1;
  return d;
}

/**
 * The company, its calendar, departments, roles, staff (managers before their reports), the
 * departments' managers, the approval limits and the users who are not staff, through the API.
 */
export function setUpOrganisation(b: ScenarioBuilder, org: Organisation): void {
  const { company } = org;
  b.sys('POST', '/company', { code: company.code, name: company.name, currency: company.currency, fiscal_year_start: '2026-01-01', workdays: [1, 2, 3, 4, 5] });
  for (const [date, name] of org.holidays) b.sys('POST', '/calendar/holidays', { date, name });
  for (const [id, name] of org.departments) b.sys('POST', '/departments', { id, name });
  for (const [id, role] of Object.entries(org.roles)) b.sys('POST', '/roles', { id, name: role.name, permissions: roleGrants(org, id).permissions });
  for (const u of [...org.staff].sort((a, z) => depth(org, a.id) - depth(org, z.id) || (a.id < z.id ? -1 : 1))) {
    b.sys('POST', '/users', { id: u.id, name: u.name, title: u.title, email: `${u.id}@${company.domain}`, phone: u.phone, department: u.department, ...(u.manager ? { manager: u.manager } : {}), roles: u.roles, kind: 'staff' });
  }
  for (const [id, , manager] of org.departments) b.sys('POST', `/departments/${id}/manager`, { manager });
  for (const [role, documentType, amount] of org.approvalLimits) b.sys('POST', '/approval-limits', { subject_type: 'role', subject: role, document_type: documentType, amount });
  for (const u of org.others) b.sys('POST', '/users', { id: u.id, name: u.name, email: u.email, roles: [u.role], kind: u.kind });
}

/** The shared mailboxes (ap@, purchasing@, …) at the company's domain. */
export function shareBoxes(b: ScenarioBuilder, org: Organisation): void {
  for (const [box, name] of org.sharedBoxes) b.sys('POST', '/message-boxes', { box, address: `${box}@${org.company.domain}`, name: `${org.company.name} ${name}` });
}
