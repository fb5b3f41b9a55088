import { Type } from '@sinclair/typebox';
import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { defineAction } from '../../src/domain/action';
import { emit } from '../../src/domain/decision';
import { LeaveScheduled } from '../../src/events/contracts/org';
import { seedSmallOrg } from '../../src/sim/small-company';
import { eventCount, openTestErp } from '../support/erp';

const leave = { user: 'sam.ortiz', start_date: '2027-01-04', end_date: '2027-01-08', delegate: 'maya.chen' };

/** A decider that emits a payload its contract refuses: the store throws inside the request's savepoint. */
const broken = defineAction({
  action: 'test.broken', method: 'POST', path: '/test/broken', tag: 'test', summary: 'Emits an invalid event', body: Type.Object({}), permission: null,
  objectType: 'leave', emits: [LeaveScheduled], decide: () => emit(LeaveScheduled, { id: 'LV-X' } as never, 'leave', 'LV-X'),
});

function company(routes = allRoutes()) {
  const { erp } = openTestErp();
  const api = new Api(erp, routes);
  return { erp, api, tokens: seedSmallOrg(api) };
}

describe('an in-process write', () => {
  it('gets, on first read, the body an HTTP caller gets for the same request', () => {
    const a = company();
    const b = company();
    const inProcess = a.api.call({ method: 'POST', path: '/leaves', body: leave, token: a.tokens.grace });
    const http = b.api.handle({ method: 'POST', path: '/leaves', body: leave, token: b.tokens.grace });
    expect(inProcess.status).toBe(http.status);
    expect(JSON.stringify(inProcess.body)).toBe(http.body);
  });

  it('answers a body first read after a later request with its id, and refuses its other fields', () => {
    const { api, tokens } = company();
    const first = api.call({ method: 'POST', path: '/departments', body: { id: 'MNT', name: 'Maintenance' }, token: tokens.grace }).body;
    const second = api.call({ method: 'POST', path: '/departments', body: { id: 'QA', name: 'Quality' }, token: tokens.grace }).body;
    expect(second.name).toBe('Quality');
    expect(first.id).toBe('MNT');
    expect(first.event_id).toBeLessThan(second.event_id);
    expect(() => first.name).toThrow(/first read after a later request/);
  });

  it('is retried with its key without a second effect, the retry answered with what identifies the first', () => {
    const { erp, api, tokens } = company();
    const first = api.call({ method: 'POST', path: '/leaves', body: leave, token: tokens.grace, idempotencyKey: 'k1' });
    const id = first.body.id;
    const before = eventCount(erp);
    const retry = api.call({ method: 'POST', path: '/leaves', body: leave, token: tokens.grace, idempotencyKey: 'k1' });
    expect(retry).toEqual({ status: 201, body: { id, event_id: first.body.event_id, business_date: first.body.business_date } });
    expect(eventCount(erp)).toBe(before + 1);
    expect(erp.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE type = 'LeaveScheduled'`).get()).toEqual({ n: 1 });
  });

  it('sees a role change on the very next request of the same token', () => {
    const { api, tokens } = company();
    const create = { purpose: 'Gloves', need_by: '2026-10-20', lines: [{ description: 'Gloves', qty: 1, unit_price: '10.00', account: '6000' }] };
    expect(api.call({ method: 'GET', path: '/whoami', token: tokens.sam }).body.roles).toContain('buyer');
    api.call({ method: 'POST', path: '/users/sam.ortiz/roles', body: { roles: ['auditor'] }, asSystem: true });
    expect(api.call({ method: 'GET', path: '/whoami', token: tokens.sam }).body.roles).toEqual(['auditor']);
    expect(api.call({ method: 'POST', path: '/requisitions', body: create, token: tokens.sam }).status).toBe(403);
  });
});

describe('a batch of in-process requests', () => {
  it('keeps the requests around one that failed inside its savepoint, and records that one as refused', () => {
    const { erp, api, tokens } = company([...allRoutes(), broken]);
    const before = eventCount(erp);
    const statuses = api.batch(() => [
      api.call({ method: 'POST', path: '/leaves', body: leave, token: tokens.grace }).status,
      api.call({ method: 'POST', path: '/test/broken', body: {}, token: tokens.grace }).status,
      api.call({ method: 'POST', path: '/leaves', body: leave, token: tokens.grace }).status,
    ]);
    expect(statuses).toEqual([201, 422, 201]);
    expect(eventCount(erp)).toBe(before + 3);
    expect(erp.db.prepare(`SELECT outcome, error_code FROM events WHERE action = 'test.broken'`).all()).toEqual([{ outcome: 'refused', error_code: 'invalid_request' }]);
    expect(api.read.org.leaves('sam.ortiz')).toHaveLength(2);
  });

  it('writes nothing when the batch itself throws', () => {
    const { erp, api, tokens } = company();
    const before = eventCount(erp);
    expect(() => api.batch(() => {
      api.call({ method: 'POST', path: '/leaves', body: leave, token: tokens.grace });
      throw new Error('the day failed');
    })).toThrow('the day failed');
    expect(eventCount(erp)).toBe(before);
    expect(api.read.org.leaves('sam.ortiz')).toHaveLength(0);
  });

  it('commits each request by itself in per-request mode', () => {
    const { erp } = openTestErp();
    const api = new Api(erp, allRoutes(), { inProcess: 'per-request' });
    const tokens = seedSmallOrg(api);
    expect(() => api.batch(() => {
      api.call({ method: 'POST', path: '/leaves', body: leave, token: tokens.grace });
      throw new Error('the day failed');
    })).toThrow('the day failed');
    expect(api.read.org.leaves('sam.ortiz')).toHaveLength(1);
  });
});
