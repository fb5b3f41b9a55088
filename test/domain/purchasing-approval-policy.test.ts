import { call, systemCall } from '../support/erp';
import { purchasingCompany, SEALS, submittedRequisition } from '../support/purchasing-fixture';

describe('a company whose requisitions go first to each department manager (the default)', () => {
  it('assigns a submitted requisition to the requester\'s department manager', () => {
    const { api, tokens } = purchasingCompany();
    systemCall(api, 'POST', '/departments/OPS/manager', { manager: 'grace.lin' });
    const id = submittedRequisition(api, tokens.tom, SEALS);
    expect(api.read.requisitions.requisition(id)).toMatchObject({ status: 'submitted', assigned_to: 'grace.lin' });
  });
});

describe('a company whose purchasing manager approves every requisition first', () => {
  it('assigns every submitted requisition to her, whatever the department', () => {
    const { api, tokens } = purchasingCompany();
    systemCall(api, 'POST', '/departments/OPS/manager', { manager: 'grace.lin' });
    expect(systemCall(api, 'POST', '/purchasing/approval-policy', { rule: 'named_user', user: 'maya.chen' }).body).toMatchObject({ first_approver_rule: 'named_user', first_approver: 'maya.chen' });
    const id = submittedRequisition(api, tokens.tom, SEALS);
    expect(api.read.requisitions.requisition(id)).toMatchObject({ assigned_to: 'maya.chen' });
  });

  it.each([
    ['a named rule without a user', { rule: 'named_user' }, 'invalid_request'],
    ['a department rule with a user', { rule: 'department_manager', user: 'maya.chen' }, 'invalid_request'],
    ['an unknown user', { rule: 'named_user', user: 'nobody.here' }, 'not_found'],
  ])('refuses %s', (_name, body, code) => {
    const { api } = purchasingCompany();
    expect(systemCall(api, 'POST', '/purchasing/approval-policy', body).body.code).toBe(code);
  });

  it('is set only by an administrator', () => {
    const { api, tokens } = purchasingCompany();
    expect(call(api, tokens.maya, 'POST', '/purchasing/approval-policy', { rule: 'named_user', user: 'maya.chen' }).body.code).toBe('forbidden');
  });
});
