import { liveServer } from '../support/http';

/** RFC 9457 `instance`, the Idempotency-Key draft's `Idempotent-Replayed`, RFC 8288 `Link`. */
let live: Awaited<ReturnType<typeof liveServer>>;
beforeAll(async () => { live = await liveServer(); });
afterAll(async () => { await live.server.close(); });

describe('a refusal', () => {
  it('names the audit row that recorded it as its instance, and that row is there', async () => {
    const res = await live.client(live.tokens.maya).post('/departments', { id: 'X', name: 'X' });
    const seq = live.server.erp.store.lastSeq();
    expect(res.body).toMatchObject({ code: 'forbidden', event_id: seq, instance: `/audit?from_seq=${seq}&limit=1` });
    const row = await live.client(live.tokens.maya).get(res.body.instance);
    expect(row.body.items).toEqual([expect.objectContaining({ event_id: seq, outcome: 'refused', error_code: 'forbidden', action: 'department.create' })]);
  });

  it('before any route (no token) has an instance too', async () => {
    const res = await live.client(null).get('/whoami');
    expect(res.body.event_id).toBe(live.server.erp.store.lastSeq());
  });
});

describe('a retry with the same Idempotency-Key', () => {
  it('is the first response, byte for byte, marked Idempotent-Replayed', async () => {
    const body = { user: 'sam.ortiz', start_date: '2026-11-02', end_date: '2026-11-03', delegate: 'maya.chen' };
    const first = await live.client(live.tokens.grace).post('/leaves', body, 'conv-1');
    const again = await live.client(live.tokens.grace).post('/leaves', body, 'conv-1');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('of a refused request replays the refusal, with its first instance', async () => {
    const first = await live.client(live.tokens.grace).post('/leaves/LV-999999/cancel', {}, 'conv-2');
    const again = await live.client(live.tokens.grace).post('/leaves/LV-999999/cancel', {}, 'conv-2');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.instance).toBe(first.body.instance);
  });
});

describe('a list', () => {
  it('links the next and previous pages, keeping its filters', async () => {
    const first = await live.client(live.tokens.grace).get('/users', { department: 'PUR', limit: '1' });
    expect(first.body).toMatchObject({ total: 2, offset: 0, limit: 1 });
    expect(first.headers.link).toBe('</users?department=PUR&offset=1&limit=1>; rel="next"');
    const second = await live.client(live.tokens.grace).get('/users', { department: 'PUR', limit: '1', offset: '1' });
    expect(second.headers.link).toBe('</users?department=PUR&offset=0&limit=1>; rel="prev"');
  });

  it('on one page has no Link', async () => {
    expect((await live.client(live.tokens.grace).get('/users')).headers.link).toBeUndefined();
  });

  it('in the middle links both ways', async () => {
    const res = await live.client(live.tokens.grace).get('/users', { limit: '1', offset: '1' });
    expect(res.headers.link).toBe('</users?offset=2&limit=1>; rel="next", </users?offset=0&limit=1>; rel="prev"');
  });
});
