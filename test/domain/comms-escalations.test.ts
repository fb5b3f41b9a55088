import { call, openTestErp, systemCall } from '../support/erp';
import { seedMailOrg } from '../support/comms-fixture';

function company() {
  const { erp, api } = openTestErp();
  const tokens = seedMailOrg(api);
  return { erp, api, tokens };
}

const PRICE_VARIANCE = { record_type: 'ap_invoice', record_id: 'APINV-5519', to: 'grace.lin', reason: 'price_variance', note: 'Billed 4.1% over the PO price.' };

function escalated() {
  const c = company();
  const res = call(c.api, c.tokens.hannah, 'POST', '/escalations', PRICE_VARIANCE);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return c;
}

describe('an AP clerk escalating an invoice', () => {
  it('opens ESC-000001 assigned to the named staff user, with the record linked', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.hannah, 'POST', '/escalations', PRICE_VARIANCE);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'ESC-000001', record_type: 'ap_invoice', record_id: 'APINV-5519', raised_by: 'hannah.brooks', assignee: 'grace.lin',
      reason: 'price_variance', status: 'open', decision: null, links: [{ rel: 'record', type: 'ap_invoice', id: 'APINV-5519' }],
    });
    expect(res.body.created_wall).toBeUndefined();
  });

  it('resolves the recipient by email too', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.hannah, 'POST', '/escalations', { ...PRICE_VARIANCE, to: 'Grace.Lin@northgate.example' });
    expect(res.body.assignee).toBe('grace.lin');
  });

  it.each([
    ['an unknown user', { to: 'nobody' }, 404, 'not_found'],
    ['an unknown email', { to: 'cfo@elsewhere.example' }, 404, 'not_found'],
    ['a counterparty user', { to: 'sim.vendors' }, 404, 'not_found'],
    ['herself', { to: 'hannah.brooks' }, 422, 'invalid_request'],
    ['a reason that is not a code', { reason: 'Price is wrong!' }, 400, 'invalid_request'],
  ])('refuses an escalation naming %s', (_what, overrides, status, code) => {
    const { api, tokens } = company();
    const res = call(api, tokens.hannah, 'POST', '/escalations', { ...PRICE_VARIANCE, ...overrides });
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(api.read.escalations.escalation('ESC-000001')).toBeUndefined();
  });

  it('refuses a user whose roles lack escalation.raise', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.ava, 'POST', '/escalations', PRICE_VARIANCE);
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
  });
});

describe('an open escalation', () => {
  it('is answered by its assignee with a decision code', () => {
    const { api, tokens } = escalated();
    const res = call(api, tokens.grace, 'POST', '/escalations/ESC-000001/respond', { decision: 'accept_variance', note: 'Approved by phone with the buyer.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'answered', decision: 'accept_variance', response_note: 'Approved by phone with the buyer.', answered_by: 'grace.lin', answered_date: '2026-10-05' });
    expect(res.body.status_history.map((h: any) => [h.status, h.reason])).toEqual([['open', 'price_variance'], ['answered', 'accept_variance']]);
  });

  it('cannot be answered by the person who raised it, and the probe is recorded', () => {
    const { erp, api, tokens } = escalated();
    const res = call(api, tokens.hannah, 'POST', '/escalations/ESC-000001/respond', { decision: 'accept_variance' });
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    expect(erp.db.prepare('SELECT actor, outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get()).toEqual({ actor: 'hannah.brooks', outcome: 'refused', error_code: 'forbidden' });
    expect(api.read.escalations.escalation('ESC-000001')!.status).toBe('open');
  });

  it('is invisible to anyone else: 404 to read or answer it', () => {
    const { api, tokens } = escalated();
    expect(call(api, tokens.maya, 'GET', '/escalations/ESC-000001').status).toBe(404);
    expect(call(api, tokens.maya, 'POST', '/escalations/ESC-000001/respond', { decision: 'accept_variance' }).status).toBe(404);
    expect(call(api, tokens.maya, 'GET', '/escalations').body.total).toBe(0);
  });

  it('is listed for the raiser and the assignee, filtered by role and status', () => {
    const { api, tokens } = escalated();
    call(api, tokens.maya, 'POST', '/escalations', { record_type: 'requisition', record_id: 'REQ-000004', to: 'grace.lin', reason: 'over_budget' });
    const ids = (token: string, query: Record<string, string> = {}) => call(api, token, 'GET', '/escalations', undefined, { query }).body.items.map((e: any) => e.id);
    expect(ids(tokens.hannah)).toEqual(['ESC-000001']);
    expect(ids(tokens.grace)).toEqual(['ESC-000001', 'ESC-000002']);
    expect(ids(tokens.grace, { role: 'raised' })).toEqual([]);
    expect(ids(tokens.grace, { record_type: 'requisition' })).toEqual(['ESC-000002']);
    call(api, tokens.grace, 'POST', '/escalations/ESC-000002/respond', { decision: 'reject' });
    expect(ids(tokens.grace, { status: 'open' })).toEqual(['ESC-000001']);
  });

  it('can be withdrawn by its raiser, and not by the assignee', () => {
    const { api, tokens } = escalated();
    expect(call(api, tokens.grace, 'POST', '/escalations/ESC-000001/close', {}).status).toBe(403);
    const res = call(api, tokens.hannah, 'POST', '/escalations/ESC-000001/close', { note: 'Vendor sent a corrected invoice.' });
    expect(res.body.status).toBe('closed');
    expect(call(api, tokens.grace, 'POST', '/escalations/ESC-000001/respond', { decision: 'accept_variance' }).body.code).toBe('invalid_state');
  });
});

describe('an answered escalation', () => {
  it('cannot be answered twice, and is closed by its raiser once', () => {
    const { api, tokens } = escalated();
    call(api, tokens.grace, 'POST', '/escalations/ESC-000001/respond', { decision: 'keep_hold' });
    const again = call(api, tokens.grace, 'POST', '/escalations/ESC-000001/respond', { decision: 'accept_variance' });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
    expect(call(api, tokens.hannah, 'POST', '/escalations/ESC-000001/close', {}).body.status).toBe('closed');
    expect(call(api, tokens.hannah, 'POST', '/escalations/ESC-000001/close', {}).body.code).toBe('invalid_state');
  });

  it('shows the record\'s escalations to other areas through the about query', () => {
    const { api, tokens } = escalated();
    call(api, tokens.grace, 'POST', '/escalations/ESC-000001/respond', { decision: 'keep_hold' });
    systemCall(api, 'POST', '/escalations', { ...PRICE_VARIANCE, record_id: 'APINV-9999' });
    expect(api.read.escalations.about('ap_invoice', 'APINV-5519').map((e) => [e.id, e.decision])).toEqual([['ESC-000001', 'keep_hold']]);
  });
});
