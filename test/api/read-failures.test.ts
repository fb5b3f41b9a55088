import { Type } from '@sinclair/typebox';
import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { defineQuery } from '../../src/domain/action';
import { ListQuery } from '../../src/domain/schemas';
import { seedSmallOrg } from '../../src/sim/small-company';
import { call, openTestErp } from '../support/erp';
import { liveServer } from '../support/http';

const lastRow = (db: { prepare(sql: string): { get(): unknown } }) =>
  db.prepare('SELECT kind, outcome, error_code, data FROM events ORDER BY seq DESC LIMIT 1').get() as { kind: string; outcome: string; error_code: string; data: string };

describe('a list read with an offset or limit out of bounds', () => {
  let live: Awaited<ReturnType<typeof liveServer>>;
  beforeAll(async () => { live = await liveServer(); });
  afterAll(async () => { await live.server.close(); });

  const cases: [string, Record<string, string>][] = [
    ['an offset past any SQL integer', { offset: '9223372036854775808' }],
    ['an offset past the bound', { offset: '1000000001' }],
    ['an infinite limit', { limit: 'Infinity' }],
    ['an infinite offset', { offset: 'Infinity' }],
    ['a limit over 1,000', { limit: '1001' }],
    ['a negative offset', { offset: '-1' }],
  ];
  it.each(cases)('answers %s with a 400 and records the query as it was asked', async (_name, query) => {
    const res = await live.client(live.tokens.grace).get('/users', query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', detail: expect.stringMatching(/^query\.(offset|limit) /) });
    const row = lastRow(live.server.erp.db);
    expect(row).toMatchObject({ kind: 'read', outcome: 'refused', error_code: 'invalid_request' });
    expect(JSON.parse(row.data)).toEqual({ params: {}, query });
  });

  it('still answers offsets and limits inside the bounds', async () => {
    const res = await live.client(live.tokens.grace).get('/users', { offset: '1000000000', limit: '1000' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], offset: 1_000_000_000, limit: 1000 });
  });
});

describe('a read whose handler throws', () => {
  const broken = defineQuery({
    path: '/broken', tag: 'test', summary: 'A read that fails', permission: null,
    query: ListQuery({}),
    run: () => { throw new Error('disk I/O error'); },
  });

  it('is answered 500 naming nothing of the fault, never with a default page, and recorded as what was asked with the fault', () => {
    const { erp } = openTestErp();
    const api = new Api(erp, [...allRoutes(), broken]);
    const tokens = seedSmallOrg(api);
    const res = call(api, tokens.grace, 'GET', '/broken', undefined, { query: { offset: '5' } });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'internal_error', detail: 'The server failed to process the request; the fault is in the audit log.' });
    expect(JSON.stringify(res.body)).not.toContain('disk I/O');
    expect(res.body.items).toBeUndefined();
    const row = lastRow(erp.db);
    expect(row).toMatchObject({ kind: 'read', outcome: 'refused', error_code: 'internal_error' });
    expect(JSON.parse(row.data)).toEqual({ params: {}, query: { offset: '5' }, server_fault: 'disk I/O error' });
  });
});
