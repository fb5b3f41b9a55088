import { call, openTestErp, systemCall } from '../support/erp';
import { seedSmallOrg } from '../../src/sim/small-company';

function company() {
  const { erp, api } = openTestErp();
  const tokens = seedSmallOrg(api);
  systemCall(api, 'POST', '/roles', { id: 'controller', name: 'Controller', permissions: ['requisition.approve', 'audit.read', 'org.admin', 'data_access.grant'] });
  return { erp, api, tokens };
}

describe('grants of visibility over restricted data', () => {
  it('grant a class to a role, and to one user for a purpose, dates and one owner', () => {
    const { api, tokens } = company();
    const role = call(api, tokens.grace, 'POST', '/data-access', { class: 'vendor_bank', grantee_type: 'role', grantee: 'controller', purpose: 'Standing: treasury' });
    expect(role.status).toBe(201);
    const duty = call(api, tokens.grace, 'POST', '/data-access', {
      class: 'vendor_bank', grantee_type: 'user', grantee: 'sam.ortiz', purpose: 'Vendor onboarding review', valid_from: '2026-10-05', valid_to: '2026-10-09', owner_type: 'vendor', owner_id: 'V-0142',
    });
    expect(duty.body).toMatchObject({ id: 'DAG-000002', grantee: 'sam.ortiz', owner_id: 'V-0142', valid_to: '2026-10-09', status: 'active', granted_by: 'grace.lin' });
    expect(call(api, tokens.maya, 'GET', '/data-access', { class: 'vendor_bank' }).body.total).toBe(2);
  });

  it('are revoked with a reason, once', () => {
    const { api, tokens } = company();
    call(api, tokens.grace, 'POST', '/data-access', { class: 'payroll', grantee_type: 'owner', purpose: 'Employees see their own pay' });
    expect(call(api, tokens.grace, 'POST', '/data-access/DAG-000001/revoke', { reason: 'policy change' }).body.status).toBe('revoked');
    expect(call(api, tokens.grace, 'POST', '/data-access/DAG-000001/revoke', { reason: 'again' }).body.code).toBe('invalid_state');
  });

  it.each([
    ['an owner grant that names a grantee', { class: 'vendor_bank', grantee_type: 'owner', grantee: 'sam.ortiz', purpose: 'x' }, 'invalid_request'],
    ['a user grant without a grantee', { class: 'vendor_bank', grantee_type: 'user', purpose: 'x' }, 'invalid_request'],
    ['an unknown user', { class: 'vendor_bank', grantee_type: 'user', grantee: 'nobody', purpose: 'x' }, 'not_found'],
    ['an unknown role', { class: 'vendor_bank', grantee_type: 'role', grantee: 'nobody', purpose: 'x' }, 'not_found'],
    ['an owner type without an owner', { class: 'vendor_bank', grantee_type: 'user', grantee: 'sam.ortiz', purpose: 'x', owner_type: 'vendor' }, 'invalid_request'],
    ['dates that end before they start', { class: 'vendor_bank', grantee_type: 'user', grantee: 'sam.ortiz', purpose: 'x', valid_from: '2026-10-09', valid_to: '2026-10-05' }, 'invalid_request'],
  ])('refuse %s', (_name, body, code) => {
    const { api, tokens } = company();
    expect(call(api, tokens.grace, 'POST', '/data-access', body).body.code).toBe(code);
  });

  it('are granted only by a user whose roles allow it, and the refusal is a probe', () => {
    const { erp, api, tokens } = company();
    const res = call(api, tokens.maya, 'POST', '/data-access', { class: 'vendor_bank', grantee_type: 'user', grantee: 'maya.chen', purpose: 'curious' });
    expect(res.body.code).toBe('forbidden');
    expect(erp.db.prepare(`SELECT COUNT(*) AS n FROM data_access`).get()).toEqual({ n: 0 });
  });
});
