import { liveServer } from '../support/http';

/** The agent port as HTTP clients expect it (RFC 9110, RFC 6750): schemes, challenges, Allow, HEAD. */
let live: Awaited<ReturnType<typeof liveServer>>;
beforeAll(async () => { live = await liveServer(); });
afterAll(async () => { await live.server.close(); });

const lastRow = () => live.server.erp.db.prepare('SELECT actor, method, kind, outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get();

describe('credentials on the agent port', () => {
  it.each([
    ['a bare token', (t: string) => t],
    ['a Basic header', (t: string) => `Basic ${Buffer.from(`grace.lin:${t}`).toString('base64')}`],
    ['a Token header', (t: string) => `Token ${t}`],
  ])('refuses %s: only Authorization: Bearer is accepted', async (_name, header) => {
    const res = await live.client(null).request('GET', '/whoami', { headers: { authorization: header(live.tokens.grace) } });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/^The Authorization header (uses the (Basic|Token) scheme|names no scheme); send Authorization: Bearer <token>\.$/);
    expect(res.text).not.toContain(live.tokens.grace);
    expect(lastRow()).toMatchObject({ actor: 'anonymous', outcome: 'refused', error_code: 'unauthorized' });
  });

  it('names the scheme it was sent', async () => {
    const res = await live.client(null).request('GET', '/whoami', { headers: { authorization: `Token ${live.tokens.grace}` } });
    expect(res.body.detail).toBe('The Authorization header uses the Token scheme; send Authorization: Bearer <token>.');
  });

  it('challenges for a bearer token on every 401', async () => {
    expect((await live.client(null).get('/whoami')).headers['www-authenticate']).toBe('Bearer realm="bb-erp"');
    expect((await live.client('forged').get('/whoami')).headers['www-authenticate']).toBe('Bearer realm="bb-erp", error="invalid_token"');
  });
});

describe('a method a path does not accept', () => {
  it('is a 405 whose Allow header lists the methods it does, HEAD with GET', async () => {
    const res = await live.client(live.tokens.grace).request('DELETE', '/departments');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.body.detail).toBe('/departments accepts GET, HEAD, POST, not DELETE.');
  });
});

describe('HEAD', () => {
  it('answers where GET does, with GET\'s status and headers and no body, recorded as a HEAD read', async () => {
    const get = await live.client(live.tokens.grace).get('/users');
    const head = await live.client(live.tokens.grace).request('HEAD', '/users');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['erp-business-date']).toBe('2026-10-05');
    expect(lastRow()).toEqual({ actor: 'grace.lin', method: 'HEAD', kind: 'read', outcome: 'ok', error_code: null });
  });

  it('is a 404 where GET is', async () => {
    expect((await live.client(live.tokens.grace).request('HEAD', '/users/nobody')).status).toBe(404);
  });
});
