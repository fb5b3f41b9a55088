import { request } from 'node:http';
import { MAX_REFUSED_PAYLOAD } from '../../src/api/log-growth';
import { call } from '../support/erp';
import { liveServer } from '../support/http';
import { purchaseOrder, purchasingCompany } from '../support/purchasing-fixture';

function rawPost(url: string, token: string, bytes: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': bytes.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

const lastRow = (db: { prepare(sql: string): { get(): unknown } }) =>
  db.prepare('SELECT kind, action, outcome, error_code, idempotency_key, data FROM events ORDER BY seq DESC LIMIT 1').get() as Record<string, string>;

describe('a body no schema would accept, sent over HTTP', () => {
  let live: Awaited<ReturnType<typeof liveServer>>;
  beforeAll(async () => { live = await liveServer(); });
  afterAll(async () => { await live.server.close(); });

  it('nested thousands deep is a 400 before anything recurses on it, recorded with its Idempotency-Key', async () => {
    const deep = `{"id":"X","name":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await live.client(live.tokens.grace).request('POST', '/departments', { rawBody: deep, idempotencyKey: 'deep-1' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'nesting_too_deep', detail: 'The body nests arrays and objects 5001 deep; at most 32 levels are accepted.' });
    expect(lastRow(live.server.erp.db)).toMatchObject({ action: 'department.create', outcome: 'refused', error_code: 'nesting_too_deep', idempotency_key: 'deep-1' });
  });

  it('that is not UTF-8 is a 400 saying so', async () => {
    const bytes = Buffer.concat([Buffer.from('{"id":"X","name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await rawPost(`${live.server.url}/departments`, live.tokens.grace, bytes);
    expect([res.status, JSON.parse(res.text)]).toEqual([400, expect.objectContaining({ code: 'malformed_json', detail: 'The body is not valid UTF-8.' })]);
  });

  it('over the size limit is a 413 recorded with its key and the route it was for', async () => {
    const res = await live.client(live.tokens.grace).request('POST', '/departments', { rawBody: `{"id":"X","name":"${'n'.repeat(1_100_000)}"}`, idempotencyKey: 'big-1' });
    expect([res.status, res.body.code]).toEqual([413, 'payload_too_large']);
    expect(lastRow(live.server.erp.db)).toMatchObject({ action: 'department.create', error_code: 'payload_too_large', idempotency_key: 'big-1' });
  });

  it('refused under the size limit keeps only its head, its size and its hash in the log', async () => {
    const name = 'n'.repeat(900_000);
    const res = await live.client(live.tokens.grace).post('/departments', { id: 'X', name, colour: 'red' });
    expect(res.status).toBe(400);
    const row = lastRow(live.server.erp.db);
    expect(row.data.length).toBeLessThan(MAX_REFUSED_PAYLOAD);
    expect(JSON.parse(row.data)).toEqual({ truncated: true, bytes: JSON.stringify({ id: 'X', name, colour: 'red' }).length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), head: expect.stringMatching(/^\{"id":"X","name":"n+$/) });
  });

  it('refused and small is kept whole', async () => {
    await live.client(live.tokens.grace).post('/departments', { id: 'X', name: 'X', colour: 'red' });
    expect(JSON.parse(lastRow(live.server.erp.db).data)).toEqual({ id: 'X', name: 'X', colour: 'red' });
  });
});

describe('a purchase-order acknowledgement naming one line twice', () => {
  it('is a 422 naming the rule, and the PO is left as it was', () => {
    const { erp, api, tokens } = purchasingCompany();
    const po = purchaseOrder(api, tokens);
    const before = erp.store.lastSeq();
    const res = call(api, tokens.vendor, 'POST', `/purchase-orders/${po}/acknowledgements`, { lines: [{ line: 1, confirmed_date: '2026-10-10' }, { line: 1, confirmed_date: '2026-10-11' }] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'duplicate_entry', detail: 'The request names the same id and line of po_acknowledgements twice, or one that already exists.' });
    expect(erp.store.lastSeq()).toBe(before + 1);
    expect(lastRow(erp.db)).toMatchObject({ outcome: 'refused', error_code: 'duplicate_entry' });
    expect(api.read.purchasing.acknowledgements(po)).toEqual([]);
  });
});
