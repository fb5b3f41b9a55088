import { ErpClient } from '../../src/client/http-client';
import { liveServer } from '../support/http';

const KEYS = Number(process.env.IDEMPOTENCY_KEYS ?? 10_000);
const IN_FLIGHT = 16;

describe(`${KEYS} writes, each sent twice with its key`, () => {
  let live: Awaited<ReturnType<typeof liveServer>>;
  beforeAll(async () => { live = await liveServer(); });
  afterAll(async () => { await live.server.close(); });

  const effects = () => (live.server.erp.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE type = 'LeaveScheduled'`).get() as { n: number }).n;
  const body = (i: number) => ({ user: 'sam.ortiz', start_date: '2027-01-04', end_date: i % 2 ? '2027-01-08' : '2027-01-07', delegate: 'maya.chen' });

  it('has exactly one effect per key: half retried in sequence, half sent by two clients at once', async () => {
    const a = new ErpClient({ baseUrl: live.server.url, token: live.tokens.grace, keepAlive: true });
    const b = new ErpClient({ baseUrl: live.server.url, token: live.tokens.grace, keepAlive: true });
    let next = 0;
    const mismatches: number[] = [];
    const worker = async () => {
      while (next < KEYS) {
        const i = next++;
        const key = `load-${i}`;
        const [first, second] = i % 2 === 0
          ? [await a.post('/leaves', body(i), key), await a.post('/leaves', body(i), key)]
          : await Promise.all([a.post('/leaves', body(i), key), b.post('/leaves', body(i), key)]);
        if (first.text !== second.text || first.status !== 201) mismatches.push(i);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    a.close();
    b.close();
    expect(mismatches).toEqual([]);
    expect(effects()).toBe(KEYS);
  }, 120_000);

  it('refuses a used key with a different body, without an effect', async () => {
    const before = effects();
    const res = await live.client(live.tokens.grace).post('/leaves', { ...body(0), end_date: '2027-02-01' }, 'load-0');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
    expect(effects()).toBe(before);
  });

  it('scopes keys to the user: the same key from another user is a new request', async () => {
    const before = effects();
    const mine = await live.client(live.tokens.grace).post('/departments', { id: 'K1', name: 'K1' }, 'scoped');
    const theirs = await live.client(live.tokens.maya).post('/departments', { id: 'K1', name: 'K1' }, 'scoped');
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(403);
    expect(effects()).toBe(before);
  });
});
