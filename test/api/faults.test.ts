import { canonicalHash } from '../../src/events/canonical-hash';
import { createFaultInjector, parseFaultSpec, type FaultRecord } from '../../src/api/faults';
import type { ApiRequest, ApiResponse } from '../../src/api/pipeline';
import { liveServer } from '../support/http';

const leave = (start: string) => ({ user: 'sam.ortiz', start_date: start, end_date: start, delegate: 'maya.chen' });

async function episode(spec: string | undefined, script: (send: (body: object, key?: string) => Promise<{ status: number; text: string; headers: Record<string, unknown> }>) => Promise<void>) {
  const faults: FaultRecord[] = [];
  let today = () => '';
  const live = await liveServer(spec ? { intercept: (req, handle) => injector(req, handle) } : {});
  today = () => live.server.api.today();
  const injector = spec ? createFaultInjector(parseFaultSpec(spec), () => today(), { onFault: (f) => faults.push(f), slowMs: 50 }) : (r: ApiRequest, h: (r: ApiRequest) => ApiResponse) => h(r);
  const c = live.client(live.tokens.grace);
  const responses: { status: number; text: string; headers: Record<string, unknown> }[] = [];
  await script(async (body, key) => {
    const res = await c.request('POST', '/leaves', { body, idempotencyKey: key });
    responses.push(res);
    return res;
  });
  const hash = canonicalHash(live.server.erp.db);
  const rows = live.server.erp.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number };
  const dump = JSON.stringify(live.server.erp.db.prepare('SELECT * FROM events').all());
  await live.server.close();
  return { faults, responses, hash, rows: rows.n, dump };
}

describe('the fault spec', () => {
  it('parses rules with a one-segment wildcard and the n-th match', () => {
    expect(parseFaultSpec('lost_response:POST /payment-runs@1,fail_before:POST /payment-runs/*/submit@2')).toMatchObject({
      type: 'rules',
      rules: [{ kind: 'lost_response', method: 'POST', pattern: ['payment-runs'], nth: 1 }, { kind: 'fail_before', pattern: ['payment-runs', '*', 'submit'], nth: 2 }],
    });
  });

  it('parses the flaky-writes profile', () => {
    expect(parseFaultSpec('flaky-writes:seed=3,rate=0.1')).toMatchObject({ type: 'flaky-writes', seed: '3', rate: 0.1 });
  });

  it.each(['boom:POST /x@1', 'lost_response:POST /x', 'lost_response:POST /x@0', 'flaky-writes:rate=2', 'flaky-writes:speed=1'])('refuses %p with a clear error', (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(/fault|Fault/);
  });
});

describe('fail_before and lost_response', () => {
  it('answer with byte-identical 503 problems', async () => {
    const failed = await episode('fail_before:POST /leaves@1', async (send) => { await send(leave('2026-11-02')); });
    const lost = await episode('lost_response:POST /leaves@1', async (send) => { await send(leave('2026-11-02')); });
    expect(failed.responses[0]!.status).toBe(503);
    expect(lost.responses[0]!.text).toBe(failed.responses[0]!.text);
    expect(lost.responses[0]!.headers['content-type']).toBe(failed.responses[0]!.headers['content-type']);
    expect(JSON.parse(lost.responses[0]!.text)).toMatchObject({ code: 'service_unavailable', status: 503 });
  });

  it('leave no trace of the fault plan in the database: lost_response commits as without faults, fail_before as if never sent', async () => {
    const script = async (send: (b: object, k?: string) => Promise<unknown>) => {
      await send(leave('2026-11-02'), 'a');
      await send(leave('2026-11-03'), 'b');
    };
    const clean = await episode(undefined, script);
    const lost = await episode('lost_response:POST /leaves@2', script);
    expect(lost.hash).toBe(clean.hash);
    const failed = await episode('fail_before:POST /leaves@2', script);
    const onlyFirst = await episode(undefined, async (send) => { await send(leave('2026-11-02'), 'a'); });
    expect(failed.hash).toBe(onlyFirst.hash);
    expect(failed.dump).not.toMatch(/fault|service_unavailable/);
    expect(lost.faults).toEqual([expect.objectContaining({ kind: 'lost_response', committed: true, status_behind: 201, idempotency_key: 'b' })]);
    expect(failed.faults).toEqual([expect.objectContaining({ kind: 'fail_before', committed: false, status_behind: null })]);
  });

  it('let a retry with the same key recover the committed write without a second effect', async () => {
    const run = await episode('lost_response:POST /leaves@1', async (send) => {
      await send(leave('2026-11-02'), 'k');
      await send(leave('2026-11-02'), 'k');
    });
    expect(run.responses.map((r) => r.status)).toEqual([503, 201]);
    expect(JSON.parse(run.responses[1]!.text)).toMatchObject({ id: 'LV-000001' });
    expect(run.dump.match(/"LeaveScheduled"/g)).toHaveLength(1);
  });
});

describe('slow', () => {
  it('commits the write and answers only after the hold-back', async () => {
    const start = Date.now();
    const run = await episode('slow:POST /leaves@1', async (send) => { await send(leave('2026-11-02')); });
    expect(Date.now() - start).toBeGreaterThanOrEqual(50);
    expect(run.responses[0]!.status).toBe(201);
    expect(run.faults[0]).toMatchObject({ kind: 'slow', committed: true });
  });
});

describe('flaky-writes', () => {
  it('hits the same requests for the same seed and request sequence', async () => {
    const script = async (send: (b: object) => Promise<unknown>) => {
      for (let d = 2; d <= 9; d++) await send(leave(`2026-11-0${d}`));
    };
    const a = await episode('flaky-writes:seed=7,rate=0.5', script);
    const b = await episode('flaky-writes:seed=7,rate=0.5', script);
    expect(a.faults.length).toBeGreaterThan(0);
    expect(b.faults).toEqual(a.faults);
  });
});
