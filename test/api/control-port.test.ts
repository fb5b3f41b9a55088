import { connect } from 'node:net';
import { ErpClient } from '../../src/client/http-client';
import { CONTROL_TOKEN, liveServer } from '../support/http';

/**
 * Seed 000 environment §11: the control port. Every refusal there is a problem and a probe row,
 * the token is checked before the body is read, and the clock only moves to real dates.
 */
let live: Awaited<ReturnType<typeof liveServer>>;
beforeAll(async () => { live = await liveServer(); });
afterAll(async () => { await live.server.close(); });

const control = (token: string | null) => new ErpClient({ baseUrl: live.server.controlUrl, token, timeoutMs: 10_000 });
const lastRow = () => live.server.erp.db.prepare('SELECT actor, kind, path, action, outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get();
const rows = () => live.server.erp.store.lastSeq();

describe('a refused control request', () => {
  const big = `{"to":"${'9'.repeat(70 * 1024)}"}`;
  const cases: [string, () => Promise<{ status: number; headers: Record<string, unknown>; text: string; body: any }>, number, string][] = [
    ['no token', () => control(null).post('/control/advance', { to: '2026-10-06' }), 401, 'unauthorized'],
    ['a bad token', () => control('guess').post('/control/advance', { to: '2026-10-06' }), 401, 'unauthorized'],
    ['a bad token with broken JSON', () => control('guess').request('POST', '/control/advance', { rawBody: '{"to":' }), 401, 'unauthorized'],
    ['a bad token with a body over the limit', () => control('guess').request('POST', '/control/advance', { rawBody: big }), 401, 'unauthorized'],
    ['broken JSON', () => control(CONTROL_TOKEN).request('POST', '/control/advance', { rawBody: '{"to":' }), 400, 'malformed_json'],
    ['a body over the limit', () => control(CONTROL_TOKEN).request('POST', '/control/advance', { rawBody: big }), 413, 'payload_too_large'],
    ['a charset other than UTF-8', () => control(CONTROL_TOKEN).request('POST', '/control/advance', { rawBody: '{"to":"2026-10-06"}', contentType: 'application/json; charset=latin1' }), 415, 'unsupported_media_type'],
    ['an unknown content encoding', () => control(CONTROL_TOKEN).request('POST', '/control/advance', { rawBody: '{"to":"2026-10-06"}', headers: { 'content-encoding': 'zstd-x' } }), 415, 'unsupported_encoding'],
    ['a wrong method', () => control(CONTROL_TOKEN).request('GET', '/control/advance'), 405, 'method_not_allowed'],
    ['an unknown endpoint', () => control(CONTROL_TOKEN).get('/control/nothing'), 404, 'not_found'],
    ['an impossible date', () => control(CONTROL_TOKEN).post('/control/advance', { to: '2026-99-99' }), 422, 'invalid_request'],
    ['a date in the past', () => control(CONTROL_TOKEN).post('/control/advance', { to: '2026-10-01' }), 422, 'invalid_request'],
  ];
  it.each(cases)('for %s is a problem+json and one probe row, and the clock stays', async (_name, sendIt, status, code) => {
    const before = rows();
    const res = await sendIt();
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status, code, business_date: '2026-10-05' });
    expect(res.text).not.toMatch(/<html|<pre>|node_modules|at [A-Za-z.]+ \(/);
    expect(rows()).toBe(before + 1);
    expect(lastRow()).toMatchObject({ actor: 'anonymous', action: 'control', outcome: 'refused', error_code: code });
    expect(live.server.api.today()).toBe('2026-10-05');
  });

  it('asks for a bearer token, and names the methods a path allows', async () => {
    expect((await control(null).get('/control/health')).headers['www-authenticate']).toMatch(/^Bearer realm=/);
    expect((await control(CONTROL_TOKEN).request('GET', '/control/advance')).headers.allow).toBe('POST');
  });
});

/** The status of a GET sent byte for byte as given (latin-1), which no client library would send. */
function rawStatus(url: string, path: string, authorization: string): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\nConnection: close\r\n\r\n`, 'latin1')));
    let head = '';
    socket.on('data', (d) => { head += d.toString('latin1'); });
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1])));
    socket.on('error', reject);
  });
}

describe('a token with something added', () => {
  it('is another token: a no-break space or a second word after the control token or an agent\'s is refused', async () => {
    expect(await rawStatus(live.server.controlUrl, '/control/health', `Bearer ${CONTROL_TOKEN}`)).toBe(200);
    for (const added of ['\u00a0', ' x', '\u00a0\u00a0']) {
      expect(await rawStatus(live.server.controlUrl, '/control/health', `Bearer ${CONTROL_TOKEN}${added}`)).toBe(401);
      expect(await rawStatus(live.server.url, '/whoami', `Bearer ${live.tokens.maya}${added}`)).toBe(401);
    }
    expect(await rawStatus(live.server.url, '/whoami', `Bearer ${live.tokens.maya}`)).toBe(200);
  });
});

describe('an accepted control request', () => {
  it('advances the clock one day at a time to a real date', async () => {
    const res = await control(CONTROL_TOKEN).post('/control/advance', { to: '2026-10-07' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ business_date: '2026-10-07', days: ['2026-10-06', '2026-10-07'] });
  });

  it('answers HEAD where it answers GET', async () => {
    expect((await control(CONTROL_TOKEN).request('HEAD', '/control/health')).status).toBe(200);
  });
});
