import type { Api } from '../api/pipeline';
import { sha256Hex } from '../api/actors';
import { advanceClock } from '../domain/clock/actions';

function systemCall(api: Api, method: string, path: string, body?: unknown): { status: number; body: any } {
  return api.call({ method, path, body, asSystem: true });
}

/** Registers a token for a user and returns its secret (deterministic: derived from the user id). */
export function issueToken(api: Api, user: string, secret = `tok-${user}`): string {
  const res = systemCall(api, 'POST', '/api-tokens', { user, token_sha256: sha256Hex(secret), label: 'small-company' });
  if (res.status !== 201) throw new Error(`token for ${user}: ${JSON.stringify(res.body)}`);
  return secret;
}

function ok(res: { status: number; body: any }, what: string) {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * A tiny fixture company for tests and benchmarks (the scenario generators build the real ones): purchasing (manager with a $10,000 limit, a buyer), accounting (controller),
 * a read-only auditor. Returns each user's token (by default `tok-<user>`; the scenario generator passes random ones).
 */
export function seedSmallOrg(api: Api, start = '2026-10-05', secretFor: (user: string) => string = (user) => `tok-${user}`) {
  ok(api.runInternal(advanceClock, { to: start }), 'clock');
  ok(systemCall(api, 'POST', '/company', { code: 'NVC', name: 'Northgate Valve Co.', currency: 'USD', fiscal_year_start: '2026-01-01', workdays: [1, 2, 3, 4, 5] }), 'company');
  for (const [id, name] of [['PUR', 'Purchasing'], ['ACC', 'Accounting'], ['OPS', 'Operations']]) ok(systemCall(api, 'POST', '/departments', { id, name }), id!);
  ok(systemCall(api, 'POST', '/roles', { id: 'purchasing_manager', name: 'Purchasing manager', permissions: ['requisition.approve', 'requisition.read'] }), 'role');
  ok(systemCall(api, 'POST', '/roles', { id: 'buyer', name: 'Buyer', permissions: ['requisition.read', 'requisition.create'] }), 'role');
  ok(systemCall(api, 'POST', '/roles', { id: 'controller', name: 'Controller', permissions: ['requisition.approve', 'audit.read', 'org.admin'] }), 'role');
  ok(systemCall(api, 'POST', '/roles', { id: 'auditor', name: 'Auditor (read-only)', permissions: ['audit.read'] }), 'role');
  ok(systemCall(api, 'POST', '/users', { id: 'grace.lin', name: 'Grace Lin', email: 'grace.lin@northgate.example', department: 'ACC', roles: ['controller'] }), 'user');
  ok(systemCall(api, 'POST', '/users', { id: 'maya.chen', name: 'Maya Chen', email: 'maya.chen@northgate.example', department: 'PUR', manager: 'grace.lin', roles: ['purchasing_manager'] }), 'user');
  ok(systemCall(api, 'POST', '/users', { id: 'sam.ortiz', name: 'Sam Ortiz', email: 'sam.ortiz@northgate.example', department: 'PUR', manager: 'maya.chen', roles: ['buyer'] }), 'user');
  ok(systemCall(api, 'POST', '/users', { id: 'ava.reed', name: 'Ava Reed', email: 'ava.reed@northgate.example', department: 'ACC', roles: ['auditor'] }), 'user');
  ok(systemCall(api, 'POST', '/approval-limits', { subject_type: 'role', subject: 'purchasing_manager', document_type: 'requisition', amount: 10000 }), 'limit');
  ok(systemCall(api, 'POST', '/approval-limits', { subject_type: 'role', subject: 'controller', document_type: 'requisition', amount: 100000 }), 'limit');
  return {
    grace: issueToken(api, 'grace.lin', secretFor('grace.lin')),
    maya: issueToken(api, 'maya.chen', secretFor('maya.chen')),
    sam: issueToken(api, 'sam.ortiz', secretFor('sam.ortiz')),
    ava: issueToken(api, 'ava.reed', secretFor('ava.reed')),
  };
}
