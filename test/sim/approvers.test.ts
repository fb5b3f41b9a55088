import { ok } from '../support/books-fixture';
import { call } from '../support/erp';
import { DIRECT_PO, purchaseOrder, SEALS, submittedRequisition } from '../support/purchasing-fixture';
import { currentRequest, simulatedCompany } from '../support/sim-fixture';

const BIG = { ...SEALS, lines: [{ item: 'SEAL-1', qty: 1200, unit_price: '12.50' }] };
const APPROVERS = {
  approvers: {
    'maya.chen': { over_limit: { action: 'route', to: 'grace.lin', reason: 'over_limit' }, own_request: { action: 'route', to: 'grace.lin', reason: 'own_request' } },
    'grace.lin': {},
    'dan.kim': {},
  },
};

describe('an approver with a profile', () => {
  it('approves a request within its limit on the next business day, not the day it arrives', () => {
    const { api, tokens, advance } = simulatedCompany({ approvers: APPROVERS });
    submittedRequisition(api, tokens.tom);
    advance('2026-10-06');
    expect(currentRequest(api, 'REQ-000001')).toMatchObject({ status: 'approved', decided_by: 'maya.chen', decided_date: '2026-10-06' });
    expect(api.erp.db.prepare(`SELECT actor, business_date, token_id FROM events WHERE type = 'RequisitionApproved'`).get())
      .toEqual({ actor: 'maya.chen', business_date: '2026-10-06', token_id: 'TOK-000002' });
  });

  it('waits over the weekend: a request submitted on Friday is decided on Monday', () => {
    const { api, tokens, advance } = simulatedCompany({ approvers: APPROVERS });
    advance('2026-10-09');
    submittedRequisition(api, tokens.tom);
    advance('2026-10-11');
    expect(currentRequest(api, 'REQ-000001').status).toBe('pending');
    advance('2026-10-12');
    expect(currentRequest(api, 'REQ-000001')).toMatchObject({ status: 'approved', decided_date: '2026-10-12' });
  });

  it('routes a request above its limit as its profile says, and the next approver decides it a business day later', () => {
    const { api, tokens, advance } = simulatedCompany({ approvers: APPROVERS });
    submittedRequisition(api, tokens.tom, BIG);
    advance('2026-10-06');
    expect(currentRequest(api, 'REQ-000001')).toMatchObject({ id: 'APR-000002', assigned_to: 'grace.lin', assigned_reason: 'over_limit', status: 'pending', created_date: '2026-10-06' });
    advance('2026-10-07');
    expect(currentRequest(api, 'REQ-000001')).toMatchObject({ status: 'approved', decided_by: 'grace.lin', decided_date: '2026-10-07' });
  });

  it('rejects above its limit with over_limit when its profile says nothing else', () => {
    const { api, tokens, advance } = simulatedCompany({ approvers: { approvers: { 'maya.chen': {} } } });
    submittedRequisition(api, tokens.tom, BIG);
    advance('2026-10-06');
    expect(api.read.requisitions.requisition('REQ-000001')).toMatchObject({ status: 'rejected' });
    expect(currentRequest(api, 'REQ-000001').reason).toBe('over_limit');
  });

  it('routes its own request on rather than approving it', () => {
    const { api, tokens, advance } = simulatedCompany({ approvers: APPROVERS });
    submittedRequisition(api, tokens.maya, { ...SEALS, department: 'PUR' });
    advance('2026-10-06');
    expect(currentRequest(api, 'REQ-000001')).toMatchObject({ assigned_to: 'grace.lin', assigned_reason: 'own_request' });
  });

  it('rejects a request the department\'s budget cannot cover once open purchase orders are counted', () => {
    const { api, tokens, advance } = simulatedCompany({ approvers: APPROVERS });
    ok(call(api, tokens.grace, 'POST', '/budgets', { department: 'OPS', lines: [{ account: '5000', month: '2026-10', amount: 3000 }] }), 'budget');
    submittedRequisition(api, tokens.tom);
    advance('2026-10-06');
    expect(api.read.requisitions.requisition('REQ-000001')!.status).toBe('approved');
    purchaseOrder(api, tokens, { ...DIRECT_PO, department: 'OPS', lines: [{ requisition_lines: [{ requisition: 'REQ-000001', line: 1 }] }] });
    submittedRequisition(api, tokens.tom, { ...SEALS, lines: [{ item: 'SEAL-1', qty: 100, unit_price: 12.5, account: '5000' }] });
    submittedRequisition(api, tokens.tom, { ...SEALS, lines: [{ item: 'SEAL-1', qty: 200, unit_price: 12.5, account: '5000' }] });
    advance('2026-10-07');
    // 3,000 budgeted less 1,250 committed on PO-000001: 1,250 fits, 2,500 does not.
    expect(['REQ-000002', 'REQ-000003'].map((id) => [api.read.requisitions.requisition(id)!.status, currentRequest(api, id).reason])).toEqual([
      ['approved', null], ['rejected', 'over_budget'],
    ]);
  });
});

describe('an approver on leave', () => {
  it('leaves requests routed to them waiting, while those routed to the delegate are decided the next business day', () => {
    const { api, tokens, advance } = simulatedCompany({ approvers: APPROVERS });
    ok(call(api, tokens.grace, 'POST', '/leaves', { user: 'grace.lin', start_date: '2026-10-06', end_date: '2026-10-09', delegate: 'dan.kim' }), 'leave');
    submittedRequisition(api, tokens.tom, BIG);
    submittedRequisition(api, tokens.tom, BIG);
    ok(call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/route', { to: 'grace.lin', reason: 'over_limit' }), 'route');
    ok(call(api, tokens.maya, 'POST', '/requisitions/REQ-000002/route', { to: 'dan.kim', reason: 'delegate' }), 'route');
    advance('2026-10-09');
    expect(currentRequest(api, 'REQ-000001')).toMatchObject({ assigned_to: 'grace.lin', status: 'pending' });
    expect(currentRequest(api, 'REQ-000002')).toMatchObject({ assigned_to: 'dan.kim', status: 'approved', decided_date: '2026-10-06' });
    advance('2026-10-12');
    expect(currentRequest(api, 'REQ-000001')).toMatchObject({ status: 'approved', decided_by: 'grace.lin', decided_date: '2026-10-12' });
  });
});

describe('approvers without a profile', () => {
  it('do nothing', () => {
    const { api, tokens, advance } = simulatedCompany();
    submittedRequisition(api, tokens.tom);
    advance('2026-10-09');
    expect(currentRequest(api, 'REQ-000001').status).toBe('pending');
  });
});
