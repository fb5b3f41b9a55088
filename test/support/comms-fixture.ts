import type { Api } from '../../src/api/pipeline';
import { call, issueToken, systemCall } from './erp';
import { seedSmallOrg } from '../../src/sim/small-company';

function ok(res: { status: number; body: any }, what: string) {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * The small fixture company plus mail: an AP clerk (Hannah Brooks) who works the ap box,
 * the purchasing manager (Maya Chen) who works the purchasing box, and a counterparty user that
 * delivers vendor mail and plants call scripts. Grace Lin (controller) answers escalations.
 */
export function seedMailOrg(api: Api) {
  const tokens = seedSmallOrg(api);
  ok(systemCall(api, 'POST', '/roles', { id: 'ap_clerk', name: 'AP clerk', permissions: ['messages.read_ap', 'messages.send', 'escalation.raise', 'call.place'] }), 'role');
  ok(systemCall(api, 'POST', '/roles', { id: 'purchasing_mail', name: 'Purchasing mail', permissions: ['messages.read_purchasing', 'messages.send', 'escalation.raise'] }), 'role');
  ok(systemCall(api, 'POST', '/roles', { id: 'counterparty', name: 'Counterparty simulator', permissions: ['messages.deliver', 'sim.script'] }), 'role');
  ok(systemCall(api, 'POST', '/users/maya.chen/roles', { roles: ['purchasing_manager', 'purchasing_mail'] }), 'roles');
  ok(systemCall(api, 'POST', '/users', { id: 'hannah.brooks', name: 'Hannah Brooks', email: 'hannah.brooks@northgate.example', phone: '(312) 555-0101', department: 'ACC', manager: 'grace.lin', roles: ['ap_clerk'] }), 'user');
  ok(systemCall(api, 'POST', '/users', { id: 'sim.vendors', name: 'Vendor desk', email: 'vendors@sim.example', kind: 'counterparty', roles: ['counterparty'] }), 'user');
  ok(systemCall(api, 'POST', '/message-boxes', { box: 'ap', address: 'ap@northgate.example', name: 'Accounts Payable' }), 'box');
  ok(systemCall(api, 'POST', '/message-boxes', { box: 'purchasing', address: 'purchasing@northgate.example', name: 'Purchasing' }), 'box');
  return { ...tokens, hannah: issueToken(api, 'hannah.brooks'), sim: issueToken(api, 'sim.vendors') };
}

export const INVOICE_MAIL = {
  box: 'ap',
  from: 'ar@keystone-supply.example',
  from_name: 'Keystone Supply AR',
  to: ['ap@northgate.example'],
  subject: 'Invoice KS-10422',
  body: 'Please find our invoice attached.',
  related: [{ type: 'vendor', id: 'V-0142' }],
  attachments: [{ filename: 'invoice-KS-10422.txt', content_type: 'text/plain', content: 'INVOICE No. KS-10422\nTOTAL DUE: $1,108.80\n' }],
};

/** Delivers a vendor email into a box as the counterparty user; returns the new message id. */
export function deliver(api: Api, simToken: string, overrides: Record<string, unknown> = {}): string {
  return ok(call(api, simToken, 'POST', '/messages/inbound', { ...INVOICE_MAIL, ...overrides }), 'deliver').id;
}
