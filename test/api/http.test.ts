import { canonicalHash } from '../../src/events/canonical-hash';
import { ErpClient } from '../../src/client/http-client';
import { liveServer } from '../support/http';

type Live = Awaited<ReturnType<typeof liveServer>>;
let live: Live;
beforeAll(async () => { live = await liveServer(); });
afterAll(async () => { await live.server.close(); });

const lastRow = () => live.server.erp.db.prepare('SELECT actor, kind, outcome, error_code, action FROM events ORDER BY seq DESC LIMIT 1').get();
const readModelHash = () => canonicalHash(live.server.erp.db, { tables: live.server.erp.registry.tableNames() });
const count = () => live.server.erp.store.lastSeq();

describe('authentication', () => {
  it('refuses a request without a token with a recorded 401 problem', async () => {
    const res = await live.client(null).get('/whoami');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'unauthorized', status: 401, business_date: '2026-10-05' });
    expect(lastRow()).toEqual({ actor: 'anonymous', kind: 'read', outcome: 'refused', error_code: 'unauthorized', action: 'auth' });
  });

  it('refuses an unknown token', async () => {
    const res = await live.client('not-a-token').post('/departments', { id: 'X', name: 'X' });
    expect(res.status).toBe(401);
    expect(lastRow()).toMatchObject({ outcome: 'refused', error_code: 'unauthorized', kind: 'write' });
  });

  it('refuses the control token on the agent port', async () => {
    expect((await live.client('control-secret').get('/whoami')).status).toBe(401);
  });
});

describe('every response', () => {
  it('carries the business date in a header and in the body', async () => {
    const res = await live.client(live.tokens.maya).get('/whoami');
    expect(res.status).toBe(200);
    expect(res.headers['erp-business-date']).toBe('2026-10-05');
    expect(res.body).toMatchObject({ business_date: '2026-10-05', user: { id: 'maya.chen' }, roles: ['purchasing_manager'] });
  });
});

describe('bad input', () => {
  const cases: [string, () => Promise<{ status: number; body: any }>, number, string][] = [
    ['malformed JSON', () => live.client(live.tokens.grace).request('POST', '/departments', { rawBody: '{"id": "X",' }), 400, 'malformed_json'],
    ['a wrong content type', () => live.client(live.tokens.grace).request('POST', '/departments', { rawBody: 'id=X', contentType: 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type'],
    ['an unknown field', () => live.client(live.tokens.grace).post('/departments', { id: 'X', name: 'X', colour: 'red' }), 400, 'invalid_request'],
    ['a wrong type', () => live.client(live.tokens.grace).post('/departments', { id: 7, name: 'X' }), 400, 'invalid_request'],
    ['a missing field', () => live.client(live.tokens.grace).post('/departments', { id: 'X' }), 400, 'invalid_request'],
    ['an amount with three decimals', () => live.client(live.tokens.grace).post('/approval-limits', { subject_type: 'user', subject: 'maya.chen', document_type: 'requisition', amount: 10.005 }), 400, 'invalid_request'],
    ['an unknown id', () => live.client(live.tokens.grace).post('/leaves/LV-999999/cancel', {}), 404, 'not_found'],
    ['an unknown path', () => live.client(live.tokens.grace).get('/no-such-thing'), 404, 'not_found'],
    ['a wrong method', () => live.client(live.tokens.grace).request('DELETE', '/departments'), 405, 'method_not_allowed'],
    ['a body that is not an object', () => live.client(live.tokens.grace).request('POST', '/departments', { rawBody: '[1,2]' }), 400, 'invalid_request'],
  ];
  it.each(cases)('answers %s with a 4xx problem, records it, and changes no read model', async (_name, send, status, code) => {
    const before = readModelHash();
    const events = count();
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, status });
    expect(typeof res.body.detail).toBe('string');
    expect(count()).toBe(events + 1);
    expect(lastRow()).toMatchObject({ outcome: 'refused', error_code: code });
    expect(readModelHash()).toBe(before);
  });

  it('says which field is unknown', async () => {
    const res = await live.client(live.tokens.grace).post('/departments', { id: 'X', name: 'X', colour: 'red' });
    expect(res.body.detail).toBe("body has unknown field 'colour'.");
  });

  it('given a value outside a field\'s choices, then the refusal lists the choices', async () => {
    const res = await live.client(live.tokens.grace).post('/approval-limits', { subject_type: 'team', subject: 'maya.chen', document_type: 'requisition', amount: 10 });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('body.subject_type must be one of "role", "user".');
  });
});

describe('a hard control', () => {
  it('is refused, recorded as a probe by the acting user, and changes nothing else', async () => {
    const before = readModelHash();
    const res = await live.client(live.tokens.maya).post('/departments', { id: 'X', name: 'X' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(lastRow()).toEqual({ actor: 'maya.chen', kind: 'write', outcome: 'refused', error_code: 'forbidden', action: 'department.create' });
    expect(readModelHash()).toBe(before);
  });
});

describe('pagination', () => {
  it('defaults to 200 and reports the total', async () => {
    const res = await live.client(live.tokens.maya).get('/users');
    expect(res.body).toMatchObject({ offset: 0, limit: 200, total: 4 });
    expect(res.body.items).toHaveLength(4);
  });

  it('pages with offset and limit', async () => {
    const res = await live.client(live.tokens.maya).get('/users', { offset: 1, limit: 2 });
    expect(res.body.items.map((u: { id: string }) => u.id)).toEqual(['grace.lin', 'maya.chen']);
  });

  it.each([[0], [1001], [-1]])('refuses limit=%p', async (limit) => {
    const res = await live.client(live.tokens.maya).get('/users', { limit });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('accepts the maximum of 1,000', async () => {
    expect((await live.client(live.tokens.maya).get('/users', { limit: 1000 })).status).toBe(200);
  });

  it('refuses a filter the endpoint does not have', async () => {
    expect((await live.client(live.tokens.maya).get('/users', { colour: 'red' })).body.code).toBe('invalid_request');
  });
});

describe('an Idempotency-Key', () => {
  const leave = { user: 'sam.ortiz', start_date: '2026-11-02', end_date: '2026-11-06', delegate: 'maya.chen' };

  it('returns the first response byte for byte on a retry and applies one effect', async () => {
    const c = live.client(live.tokens.grace);
    const first = await c.request('POST', '/leaves', { body: leave, idempotencyKey: 'leave-sam-nov' });
    const eventsAfterFirst = live.server.erp.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE type = 'LeaveScheduled'`).get();
    const second = await c.request('POST', '/leaves', { body: { ...leave }, idempotencyKey: 'leave-sam-nov' });
    expect(second.status).toBe(first.status);
    expect(second.text).toBe(first.text);
    expect(live.server.erp.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE type = 'LeaveScheduled'`).get()).toEqual(eventsAfterFirst);
    expect(live.server.api.read.org.leaves('sam.ortiz')).toHaveLength(1);
  });

  it('is refused with idempotency_key_reused for a different body', async () => {
    const res = await live.client(live.tokens.grace).request('POST', '/leaves', { body: { ...leave, end_date: '2026-11-07' }, idempotencyKey: 'leave-sam-nov' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
  });

  it('is scoped to the user who sent it', async () => {
    const mine = await live.client(live.tokens.grace).request('POST', '/leaves', { body: { ...leave, start_date: '2026-12-01', end_date: '2026-12-02' }, idempotencyKey: 'shared-key' });
    const theirs = await live.client(live.tokens.maya).request('POST', '/leaves', { body: { ...leave, start_date: '2026-12-01', end_date: '2026-12-02' }, idempotencyKey: 'shared-key' });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(403);
  });
});

describe('the control API', () => {
  it('is not served on the agent port', async () => {
    expect((await live.client(live.tokens.grace).get('/control/health')).status).toBe(404);
  });

  it('refuses a user token', async () => {
    const viaControl = await new ErpClient({ baseUrl: live.server.controlUrl, token: live.tokens.grace }).get('/control/health');
    expect(viaControl.status).toBe(401);
    expect(lastRow()).toMatchObject({ outcome: 'refused', error_code: 'unauthorized', action: 'control' });
  });

  it('reports health with the business date', async () => {
    expect((await live.control.get('/control/health')).body).toMatchObject({ ok: true, business_date: '2026-10-05' });
  });

  it('advances the clock one day at a time', async () => {
    const res = await live.control.post('/control/advance', { to: '2026-10-08' });
    expect(res.body).toEqual({ business_date: '2026-10-08', days: ['2026-10-06', '2026-10-07', '2026-10-08'] });
    const moves = live.server.erp.db.prepare(`SELECT data FROM events WHERE type = 'ClockAdvanced' ORDER BY seq DESC LIMIT 3`).all().map((r: any) => JSON.parse(r.data));
    expect(moves.reverse()).toEqual([{ from: '2026-10-05', to: '2026-10-06' }, { from: '2026-10-06', to: '2026-10-07' }, { from: '2026-10-07', to: '2026-10-08' }]);
  });

  it('refuses to move the clock back', async () => {
    expect((await live.control.post('/control/advance', { to: '2026-10-01' })).status).toBe(422);
  });

  it('listens on loopback only', () => {
    expect(new URL(live.server.controlUrl).hostname).toBe('127.0.0.1');
  });
});
