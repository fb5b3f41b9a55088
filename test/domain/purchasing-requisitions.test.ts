import { call, eventCount, issueToken } from '../support/erp';
import { purchasingCompany, SEALS, submittedRequisition } from '../support/purchasing-fixture';

describe('a requester drafting a requisition', () => {
  it('drafts it with the item\'s description, unit and account, the total in cents and decimals shown', () => {
    const { api, tokens } = purchasingCompany();
    const res = call(api, tokens.tom, 'POST', '/requisitions', { ...SEALS, purpose: '  Seals — "urgent" ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'REQ-000001', requester: 'tom.reyes', department: 'OPS', status: 'draft', total: 1250, purpose: '  Seals — "urgent" ', need_by: '2026-10-30' });
    expect(res.body.lines).toEqual([{
      requisition: 'REQ-000001', line: 1, item: 'SEAL-1', description: 'Pump seal', qty: 100, unit: 'ea', unit_price: 12.5, amount: 1250,
      account: '5000', suggested_vendor: null, converted_po: null, converted_po_line: null,
    }]);
    expect(api.read.requisitions.requisition('REQ-000001')!.total).toBe(125000);
  });

  it('takes a free-text line with its description and account', () => {
    const { api, tokens } = purchasingCompany();
    const res = call(api, tokens.tom, 'POST', '/requisitions', { need_by: '2026-10-30', lines: [{ description: 'Forklift repair', qty: 1, unit_price: 900, account: '6500', suggested_vendor: 'V-0142' }] });
    expect(res.body.lines[0]).toMatchObject({ item: null, description: 'Forklift repair', unit: 'ea', account: '6500', suggested_vendor: 'V-0142' });
  });

  it('refuses an unknown item, vendor, account or department', () => {
    const { api, tokens } = purchasingCompany();
    const post = (body: object) => call(api, tokens.tom, 'POST', '/requisitions', { need_by: '2026-10-30', lines: [{ item: 'SEAL-1', qty: 1, unit_price: 1 }], ...body }).body.code;
    expect(post({ lines: [{ item: 'NOPE', qty: 1, unit_price: 1 }] })).toBe('not_found');
    expect(post({ lines: [{ item: 'SEAL-1', qty: 1, unit_price: 1, suggested_vendor: 'V-9999' }] })).toBe('not_found');
    expect(post({ lines: [{ item: 'SEAL-1', qty: 1, unit_price: 1, account: '6999' }] })).toBe('not_found');
    expect(post({ department: 'XX' })).toBe('not_found');
  });

  it('refuses a free-text line without a description or an account', () => {
    const { api, tokens } = purchasingCompany();
    const post = (line: object) => call(api, tokens.tom, 'POST', '/requisitions', { need_by: '2026-10-30', lines: [{ qty: 1, unit_price: 1, ...line }] });
    expect([post({ account: '6500' }).status, post({ account: '6500' }).body.code]).toEqual([422, 'invalid_request']);
    expect(post({ description: 'Thing' }).body.detail).toBe('Line 1 needs the expense account it is budgeted on.');
  });

  it('refuses to raise a requisition in someone else\'s name', () => {
    const { api, tokens } = purchasingCompany();
    expect(call(api, tokens.tom, 'POST', '/requisitions', { ...SEALS, requester: 'maya.chen' }).body.code).toBe('forbidden');
  });

  it('refuses a requester who belongs to no department and names none', () => {
    const { api, tokens } = purchasingCompany();
    call(api, tokens.grace, 'POST', '/users', { id: 'nora.fields', name: 'Nora Fields', email: 'nora@northgate.example', roles: ['requester'] });
    const res = call(api, issueToken(api, 'nora.fields'), 'POST', '/requisitions', SEALS);
    expect([res.status, res.body.code]).toEqual([422, 'invalid_request']);
  });

  it('revises the lines of a draft, and refuses to once it is submitted', () => {
    const { api, tokens } = purchasingCompany();
    call(api, tokens.tom, 'POST', '/requisitions', SEALS);
    const revised = call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/revise', { lines: [{ item: 'VALVE-2', qty: 3, unit_price: 40 }, { item: 'SEAL-1', qty: 2, unit_price: '12.50' }] });
    expect(revised.body).toMatchObject({ total: 145, purpose: SEALS.purpose, need_by: SEALS.need_by });
    expect(revised.body.lines.map((l: any) => [l.line, l.item])).toEqual([[1, 'VALVE-2'], [2, 'SEAL-1']]);
    call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/submit', {});
    expect(call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/revise', { lines: SEALS.lines }).body.code).toBe('invalid_state');
  });

  it('lets only the requester revise, submit or cancel it', () => {
    const { api, tokens } = purchasingCompany();
    call(api, tokens.tom, 'POST', '/requisitions', SEALS);
    expect(call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/revise', { lines: SEALS.lines }).body.code).toBe('forbidden');
    expect(call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/submit', {}).body.code).toBe('forbidden');
    expect(call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/cancel', { reason: 'not_needed' }).body.code).toBe('forbidden');
    expect(call(api, tokens.tom, 'POST', '/requisitions/REQ-000009/submit', {}).body.code).toBe('not_found');
  });

  it('refuses requisitions to a user without requisition.create', () => {
    const { api, tokens } = purchasingCompany();
    expect(call(api, tokens.ava, 'POST', '/requisitions', SEALS).body.code).toBe('forbidden');
  });
});

describe('a requisition submitted', () => {
  it('opens an approval request in the department manager\'s queue', () => {
    const { api, tokens } = purchasingCompany();
    const res = call(api, tokens.tom, 'POST', '/requisitions', SEALS);
    const submitted = call(api, tokens.tom, 'POST', `/requisitions/${res.body.id}/submit`, { note: 'For the shutdown.' });
    expect(submitted.body).toMatchObject({ status: 'submitted', approval_request: 'APR-000001', assigned_to: 'maya.chen', submitted_date: '2026-10-05' });
    const queue = call(api, tokens.maya, 'GET', '/approval-requests', undefined, { query: { assigned_to: 'maya.chen', status: 'pending' } }).body;
    expect(queue.items).toEqual([expect.objectContaining({
      id: 'APR-000001', document_type: 'requisition', document_id: 'REQ-000001', requester: 'tom.reyes', department: 'OPS', amount: 1250,
      assigned_to: 'maya.chen', assigned_by: 'tom.reyes', assigned_reason: 'submitted', assigned_note: 'For the shutdown.', status: 'pending', created_date: '2026-10-05',
    })]);
    expect(call(api, tokens.maya, 'GET', '/requisitions', undefined, { query: { assigned_to: 'maya.chen' } }).body.total).toBe(1);
  });

  it('is refused when the department has no manager to approve it', () => {
    const { api, tokens } = purchasingCompany();
    call(api, tokens.tom, 'POST', '/requisitions', { ...SEALS, department: 'ACC' });
    const res = call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/submit', {});
    expect([res.body.code, res.body.detail]).toEqual(['invalid_state', 'Department ACC has no manager to approve REQ-000001.']);
  });

  it('is approved by the manager within her limit, which closes the request', () => {
    const { api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom);
    const res = call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/approve', { note: 'ok' });
    expect(res.body).toMatchObject({ status: 'approved', approved_by: 'maya.chen', approved_date: '2026-10-05', approval_request: null, assigned_to: null });
    expect(res.body.approval_history).toEqual([expect.objectContaining({ id: 'APR-000001', status: 'approved', decided_by: 'maya.chen', note: 'ok' })]);
    expect(res.body.status_history.map((s: any) => s.status)).toEqual(['draft', 'submitted', 'approved']);
  });

  it('refuses the manager\'s approval above her limit (over_limit), and she routes it to the controller who approves', () => {
    const { erp, api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom, { ...SEALS, lines: [{ item: 'SEAL-1', qty: 1000, unit_price: 12.5 }] });
    const before = eventCount(erp);
    const refused = call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/approve', {});
    expect([refused.status, refused.body.code]).toEqual([403, 'over_limit']);
    expect(erp.db.prepare('SELECT actor, outcome, error_code, action FROM events WHERE seq = ?').get(before + 1))
      .toEqual({ actor: 'maya.chen', outcome: 'refused', error_code: 'over_limit', action: 'requisition.approve' });
    const routed = call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/route', { to: 'grace.lin', reason: 'over_limit', note: 'Above $10,000.' });
    expect(routed.body).toMatchObject({ status: 'submitted', approval_request: 'APR-000002', assigned_to: 'grace.lin' });
    expect(call(api, tokens.grace, 'POST', '/requisitions/REQ-000001/approve', {}).body.status).toBe('approved');
    const history = api.read.requisitions.approvalHistory('requisition', 'REQ-000001');
    expect(history.map((a) => [a.id, a.assigned_to, a.assigned_reason, a.status, a.reason, a.routed_to])).toEqual([
      ['APR-000001', 'maya.chen', 'submitted', 'routed', 'over_limit', 'grace.lin'],
      ['APR-000002', 'grace.lin', 'over_limit', 'approved', null, null],
    ]);
  });

  it('refuses the requester\'s own approval when her own request lands in her queue, and she routes it on', () => {
    const { erp, api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.maya, { ...SEALS, department: 'PUR' });
    expect(api.read.requisitions.requisition('REQ-000001')!.assigned_to).toBe('maya.chen');
    const res = call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/approve', {});
    expect([res.status, res.body.code]).toEqual([403, 'requester_cannot_approve']);
    expect(erp.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE error_code = 'requester_cannot_approve'`).get()).toEqual({ n: 1 });
    expect(call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/route', { to: 'grace.lin', reason: 'own_request' }).body.assigned_to).toBe('grace.lin');
  });

  it('lets only the current assignee decide or route it', () => {
    const { api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom);
    for (const [action, body] of [['approve', {}], ['reject', { reason: 'no_budget' }], ['return', { reason: 'missing_quote' }], ['route', { to: 'maya.chen', reason: 'delegate' }]] as const) {
      expect([action, call(api, tokens.grace, 'POST', `/requisitions/REQ-000001/${action}`, body).body.code]).toEqual([action, 'forbidden']);
    }
    expect(call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/reject', { reason: 'x' }).body.code).toBe('forbidden');
  });

  it('is rejected with a reason code, which ends it', () => {
    const { api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom);
    const res = call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/reject', { reason: 'split_purchase', note: 'Combine with REQ-7.' });
    expect(res.body).toMatchObject({ status: 'rejected', approval_history: [expect.objectContaining({ status: 'rejected', reason: 'split_purchase', note: 'Combine with REQ-7.' })] });
    expect(res.body.status_history.at(-1)).toMatchObject({ status: 'rejected', reason: 'split_purchase', by: 'maya.chen' });
    expect(call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/approve', {}).body.code).toBe('invalid_state');
  });

  it('is returned to its requester, revised and submitted again as a new request', () => {
    const { api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom);
    expect(call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/return', { reason: 'missing_quote' }).body.status).toBe('returned');
    call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/revise', { lines: [{ item: 'SEAL-1', qty: 50, unit_price: 12.5 }] });
    const again = call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/submit', {});
    expect(again.body).toMatchObject({ status: 'submitted', approval_request: 'APR-000002', total: 625 });
    expect(api.read.requisitions.approvalRequest('APR-000002')!.amount).toBe(62500);
  });

  it('refuses routing to someone who is not staff, to nobody, or to the current assignee', () => {
    const { api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom);
    const route = (to: string) => call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/route', { to, reason: 'delegate' });
    expect([route('sim.vendors').status, route('first.bank').body.code]).toEqual([422, 'invalid_request']);
    expect(route('no.body').body.code).toBe('not_found');
    expect(route('maya.chen').body.code).toBe('invalid_request');
  });

  it('is cancelled by its requester with a reason, closing the open request', () => {
    const { api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom);
    const res = call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/cancel', { reason: 'not_needed' });
    expect(res.body).toMatchObject({ status: 'cancelled', approval_request: null, approval_history: [expect.objectContaining({ status: 'cancelled', reason: 'not_needed' })] });
    expect(call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/cancel', { reason: 'not_needed' }).body.code).toBe('invalid_state');
  });

  it('shows its lines, history and links, and answers 404 for one that does not exist', () => {
    const { api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom);
    const res = call(api, tokens.ava, 'GET', '/requisitions/REQ-000001');
    expect(res.body.links).toEqual([
      { rel: 'requester', type: 'user', id: 'tom.reyes' }, { rel: 'department', type: 'department', id: 'OPS' },
      { rel: 'approval_request', type: 'approval_request', id: 'APR-000001' },
    ]);
    expect(call(api, tokens.ava, 'GET', '/approval-requests/APR-000001').body.links).toEqual([{ rel: 'document', type: 'requisition', id: 'REQ-000001' }]);
    expect(call(api, tokens.ava, 'GET', '/requisitions/REQ-000404').status).toBe(404);
    expect(call(api, tokens.ava, 'GET', '/requisitions', undefined, { query: { status: 'submitted', requester: 'tom.reyes', department: 'OPS' } }).body.items.map((r: any) => r.total)).toEqual([1250]);
  });
});
