import { call, eventCount, openTestErp, systemCall } from '../support/erp';
import { seedSmallOrg } from '../../src/sim/small-company';

function company() {
  const { erp, api } = openTestErp();
  const tokens = seedSmallOrg(api);
  return { erp, api, tokens };
}

describe('a company with a purchasing manager and a controller', () => {
  it('resolves the manager\'s approval limit from her role', () => {
    const { api } = company();
    expect(api.read.org.approvalLimit('maya.chen', 'requisition', 'PUR')).toBe(1_000_000);
    expect(api.read.org.approvalLimit('sam.ortiz', 'requisition', 'PUR')).toBeNull();
  });

  it('lets a limit set for the user win over the role limit', () => {
    const { api } = company();
    systemCall(api, 'POST', '/approval-limits', { subject_type: 'user', subject: 'maya.chen', document_type: 'requisition', amount: '2500.00' });
    expect(api.read.org.approvalLimit('maya.chen', 'requisition', 'PUR')).toBe(250_000);
  });

  it('schedules a leave with a delegate and finds it by date', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.grace, 'POST', '/leaves', { user: 'maya.chen', start_date: '2026-10-06', end_date: '2026-10-09', delegate: 'grace.lin' });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe('LV-000001');
    expect(api.read.org.leaveOn('maya.chen', '2026-10-07')?.delegate_id).toBe('grace.lin');
    expect(api.read.org.leaveOn('maya.chen', '2026-10-10')).toBeUndefined();
  });

  it('refuses a leave that names the user as their own delegate', () => {
    const { api, tokens } = company();
    const res = call(api, tokens.grace, 'POST', '/leaves', { user: 'maya.chen', start_date: '2026-10-06', end_date: '2026-10-09', delegate: 'maya.chen' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_request');
  });

  it('refuses org administration to a user whose roles lack org.admin, and records the probe', () => {
    const { erp, api, tokens } = company();
    const before = eventCount(erp);
    const res = call(api, tokens.maya, 'POST', '/departments', { id: 'X', name: 'Shadow department' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(api.read.org.department('X')).toBeUndefined();
    const probe = erp.db.prepare('SELECT actor, outcome, error_code, action FROM events WHERE seq = ?').get(before + 1);
    expect(probe).toEqual({ actor: 'maya.chen', outcome: 'refused', error_code: 'forbidden', action: 'department.create' });
  });

  it('numbers documents from per-type counters, unaffected by refusals', () => {
    const { api, tokens } = company();
    call(api, tokens.grace, 'POST', '/leaves', { user: 'nobody', start_date: '2026-10-06', end_date: '2026-10-09' });
    const first = call(api, tokens.grace, 'POST', '/leaves', { user: 'sam.ortiz', start_date: '2026-10-06', end_date: '2026-10-09' });
    const second = call(api, tokens.grace, 'POST', '/leaves', { user: 'sam.ortiz', start_date: '2026-11-06', end_date: '2026-11-09' });
    expect([first.body.id, second.body.id]).toEqual(['LV-000001', 'LV-000002']);
  });
});

describe('the business clock', () => {
  it('is the date of the last ClockAdvanced event and moves one day at a time', () => {
    const { api } = company();
    expect(api.today()).toBe('2026-10-05');
  });
});
