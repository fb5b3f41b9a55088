import fc from 'fast-check';
import { allRoutes } from '../../src/api/routes';
import { pathParams } from '../../src/api/router';
import type { ActionDef, RouteDef } from '../../src/domain/action';
import { canonicalHash } from '../../src/events/canonical-hash';
import { openTestErp } from '../support/erp';
import { seedSmallOrg } from '../../src/sim/small-company';
import { liveServer } from '../support/http';

/**
 * Malformed input for every registered route: whatever the generated body, the answer is a 4xx
 * problem, never a 5xx, and nothing changes but the refused request's own row.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const { erp, api } = openTestErp();
const tokens = seedSmallOrg(api);
const readModels = () => canonicalHash(erp.db, { tables: erp.registry.tableNames() });
const rows = () => erp.store.lastSeq();

const wrongValue = fc.oneof(
  fc.integer(), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 40 }),
  fc.constant('x'.repeat(5000)), fc.constant(-1), fc.constant(10.005), fc.constant('12.345'), fc.constant('2026-02-30'), fc.constant('not-a-date'),
  fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

function fieldsOf(route: RouteDef): string[] {
  const schema = (route.kind === 'action' ? (route as ActionDef).body : route.query) as { properties?: Record<string, unknown> };
  return Object.keys(schema.properties ?? {});
}

/** A body with an unknown field (always invalid) and any values in the known ones. */
const invalidBody = (route: RouteDef) =>
  fc.record({
    known: fc.dictionary(fc.constantFrom(...(fieldsOf(route).length ? fieldsOf(route) : ['x'])), wrongValue, { maxKeys: 4 }),
    unknownField: fc.stringMatching(/^zz_[a-z]{1,8}$/),
    unknownValue: wrongValue,
  }).map(({ known, unknownField, unknownValue }) => ({ ...known, [unknownField]: unknownValue }));

const notAnObject = fc.oneof(fc.array(wrongValue, { maxLength: 3 }), fc.integer(), fc.string(), fc.boolean());

const pathFor = (route: RouteDef, ids: string[]) => {
  let i = 0;
  return route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(ids[i++] ?? 'NOPE-1'));
};
const unknownIds = (route: RouteDef) => fc.array(fc.oneof(fc.stringMatching(/^[A-Z]{2,5}-9\d{5}$/), fc.string({ minLength: 1, maxLength: 30 })), { minLength: pathParams(route.path).length, maxLength: pathParams(route.path).length });

const writes = allRoutes().filter((r) => r.kind === 'action');
const reads = allRoutes().filter((r) => r.kind === 'query');

describe.each(writes.map((r) => [`${r.method} ${r.path}`, r] as const))('the write %s', (_name, route) => {
  it('answers malformed bodies with a recorded 4xx problem and changes nothing else', () => {
    fc.assert(
      fc.property(fc.oneof(invalidBody(route), notAnObject), unknownIds(route), (body, ids) => {
        const before = readModels();
        const seq = rows();
        const res = api.handle({ method: route.method, path: pathFor(route, ids), body, token: tokens.grace });
        const problem = JSON.parse(res.body);
        return res.status >= 400 && res.status < 500 && typeof problem.code === 'string' && rows() === seq + 1 && readModels() === before;
      }),
      { numRuns: RUNS },
    );
  });
});

describe.each(reads.map((r) => [`GET ${r.path}`, r] as const))('the read %s', (_name, route) => {
  it('answers unknown query parameters and unknown ids with a 4xx, never a 5xx', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^zz_[a-z]{1,6}$/), fc.string({ maxLength: 20 }), { minKeys: 1, maxKeys: 3 }), unknownIds(route), (query, ids) => {
        const before = readModels();
        const res = api.handle({ method: 'GET', path: pathFor(route, ids), query, token: tokens.grace });
        return res.status >= 400 && res.status < 500 && readModels() === before;
      }),
      { numRuns: Math.max(5, Math.floor(RUNS / 2)) },
    );
  });
});

describe('the HTTP layer', () => {
  let live: Awaited<ReturnType<typeof liveServer>>;
  beforeAll(async () => { live = await liveServer(); });
  afterAll(async () => { await live.server.close(); });

  it('answers broken JSON, wrong content types and oversized bodies with a 4xx and no effect', async () => {
    const hash = () => canonicalHash(live.server.erp.db, { tables: live.server.erp.registry.tableNames() });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        fc.oneof(
          fc.record({ raw: fc.string({ minLength: 1, maxLength: 50 }).map((s) => `{${s}`), type: fc.constant('application/json') }),
          fc.record({ raw: fc.json(), type: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml') }),
          fc.record({ raw: fc.constant(`{"note":"${'y'.repeat(1_100_000)}"}`), type: fc.constant('application/json') }),
        ),
        async (route, { raw, type }) => {
          const before = hash();
          const res = await live.client(live.tokens.grace).request(route.method, pathFor(route, pathParams(route.path).map(() => 'NOPE-1')), { rawBody: raw, contentType: type });
          return res.status >= 400 && res.status < 500 && typeof (res.body as { code?: string }).code === 'string' && hash() === before;
        },
      ),
      { numRuns: RUNS },
    );
  });
});
