import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { ErpClient } from '../../src/client/http-client';
import { CONTROL_TOKEN, liveServer } from '../support/http';

let live: Awaited<ReturnType<typeof liveServer>>;
beforeAll(async () => { live = await liveServer(); });
afterAll(async () => { await live.server.close(); });

const lastRow = () => live.server.erp.db.prepare('SELECT actor, outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get();
const agent = (token: string | null) => new ErpClient({ baseUrl: live.server.url, token });
const control = (token: string | null) => new ErpClient({ baseUrl: live.server.controlUrl, token });

describe('each boundary', () => {
  const cases: [string, () => Promise<{ status: number; body: any }>, number, { actor: string; error_code: string }][] = [
    ['no token on the agent port', () => agent(null).get('/whoami'), 401, { actor: 'anonymous', error_code: 'unauthorized' }],
    ['a bad token on the agent port', () => agent('forged').post('/departments', { id: 'X', name: 'X' }), 401, { actor: 'anonymous', error_code: 'unauthorized' }],
    ['the control token on the agent port', () => agent(CONTROL_TOKEN).get('/users'), 401, { actor: 'anonymous', error_code: 'unauthorized' }],
    ['a user token on the control port', () => control(live.tokens.grace).post('/control/advance', { to: '2026-12-31' }), 401, { actor: 'anonymous', error_code: 'unauthorized' }],
    ['no token on the control port', () => control(null).get('/control/health'), 401, { actor: 'anonymous', error_code: 'unauthorized' }],
    ['a read-only role writing', () => agent(live.tokens.ava).post('/leaves', { user: 'ava.reed', start_date: '2026-12-01', end_date: '2026-12-02' }), 403, { actor: 'ava.reed', error_code: 'forbidden' }],
  ];
  it.each(cases)('refuses %s and records the refusal', async (_name, send, status, row) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(lastRow()).toEqual({ ...row, outcome: 'refused' });
  });

  it('does not move the clock for a refused control request', () => {
    expect(live.server.api.today()).toBe('2026-10-05');
  });
});

describe('a user reading the audit trail', () => {
  it('sees only their own requests without audit.read', async () => {
    await agent(live.tokens.maya).get('/whoami');
    const res = await agent(live.tokens.maya).get('/audit', { actor: 'grace.lin' });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(new Set(res.body.items.map((e: { actor: string }) => e.actor))).toEqual(new Set(['maya.chen']));
  });

  it('sees another user\'s requests with audit.read', async () => {
    const res = await agent(live.tokens.ava).get('/audit', { actor: 'maya.chen' });
    expect(new Set(res.body.items.map((e: { actor: string }) => e.actor))).toEqual(new Set(['maya.chen']));
  });
});

describe('the control port', () => {
  it('is bound to loopback only', () => {
    expect(live.server.boundAddresses.control).toBe('127.0.0.1');
  });

  const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  (external ? it : it.skip)(`refuses connections on a non-loopback interface (${external ?? 'none here'})`, async () => {
    const port = Number(new URL(live.server.controlUrl).port);
    const outcome = await new Promise<string>((resolve) => {
      const s = connect({ host: external!, port });
      s.once('connect', () => { s.destroy(); resolve('connected'); });
      s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(outcome).toBe('ECONNREFUSED');
  });
});
