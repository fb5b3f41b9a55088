import fc from 'fast-check';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiRequest } from '../../src/api/pipeline';
import { pathParams } from '../../src/api/router';
import { allRoutes, knownPermissions } from '../../src/api/routes';
import type { RouteDef } from '../../src/domain/action';
import { checkReplay } from '../../src/projections/replay';
import { payloadAjv, queryAjv } from '../../src/events/json-schema';
import { addDays } from '../../src/domain/calendar';
import { call, issueToken, openTestErp, systemCall } from '../support/erp';
import { ok } from '../support/books-fixture';
import { purchaseOrder, seedPurchasing, submittedRequisition } from '../support/purchasing-fixture';
import { arbitraryFor, matching, type Pools, type Schema } from '../support/schema-arbitrary';

/**
 * Schema-valid requests to every route, drawn from each route's own JSON Schema (seed 000 §6: bad
 * input is a 4xx, never a 5xx, and never a partial write). Whatever the body or query, the answer
 * is below 500, every request leaves exactly one row, and a refused one changes no read-model row
 * (temporary triggers see every committed change); after all of them, replaying the events gives
 * the live canonical hash. SCHEMA_FUZZ_RUNS raises the runs per route and seed (`npm run fuzz`).
 */
const RUNS = Number(process.env.SCHEMA_FUZZ_RUNS ?? 10);
const SEEDS = process.env.FUZZ_SEEDS ? process.env.FUZZ_SEEDS.split(",").map(Number) : [1, 2, 3, 4];
const routes = allRoutes();

/** The purchasing company with mail, a sent PO, a requisition in a queue, and a user who holds every permission. */
function buildTemplate(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-fuzz-')), 'template.db');
  const { erp, api } = openTestErp(file);
  const tokens = seedPurchasing(api);
  for (const [box, name] of [['ap', 'Accounts payable'], ['purchasing', 'Purchasing']]) ok(systemCall(api, 'POST', '/message-boxes', { box, address: `${box}@northgate.example`, name }), box);
  ok(systemCall(api, 'POST', '/roles', { id: 'everything', name: 'Every permission', permissions: knownPermissions(['ap', 'purchasing']) }), 'role');
  ok(systemCall(api, 'POST', '/users', { id: 'fuzz.user', name: 'Fuzz User', email: 'fuzz.user@northgate.example', department: 'ACC', roles: ['everything'] }), 'user');
  const fuzz = issueToken(api, 'fuzz.user');
  purchaseOrder(api, tokens);
  submittedRequisition(api, tokens.tom);
  ok(call(api, fuzz, 'POST', '/messages', { to: ['ap@northgate.example'], subject: 'Hello', body: 'Routing 041000124.' }), 'message');
  erp.db.pragma('wal_checkpoint(TRUNCATE)');
  erp.close();
  return file;
}

const TOKENS = ['tok-fuzz.user', 'tok-fuzz.user', 'tok-fuzz.user', 'tok-fuzz.user', 'tok-fuzz.user', 'tok-sam.ortiz', 'tok-sim.vendors'];

/**
 * A fresh copy of the template for each route, so that what one route's requests did (a PO
 * cancelled, a period closed) does not decide what the next route can reach.
 */
function fuzzWorld(template: string) {
  const file = template.replace(/template\.db$/, `world-${worldCount++}.db`);
  copyFileSync(template, file);
  const { erp, api } = openTestErp(file);
  // Every committed change to a read-model row, by table: a refusal must leave this empty.
  erp.db.exec('CREATE TEMP TABLE fuzz_changes (tbl TEXT NOT NULL)');
  for (const table of erp.registry.tableNames()) {
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
      erp.db.exec(`CREATE TEMP TRIGGER "fuzz_${op}_${table}" AFTER ${op} ON main."${table}" BEGIN INSERT INTO fuzz_changes VALUES ('${table}'); END`);
    }
  }
  return { file, erp, api };
}
let worldCount = 0;

type World = ReturnType<typeof fuzzWorld>;

/** Short values the world holds (ids, codes, addresses, line numbers as text), for requests to name. */
function poolsOf(world: World): Pools {
  const strings = new Set<string>();
  for (const table of world.erp.registry.tableNames()) {
    for (const row of world.erp.db.prepare(`SELECT * FROM "${table}" LIMIT 50`).all() as Record<string, unknown>[]) {
      for (const v of Object.values(row)) if (typeof v === 'string' && v.length > 0 && v.length <= 60 && !/\s/.test(v) && !v.startsWith('{') && !v.startsWith('[')) strings.add(v);
    }
  }
  const today = world.api.today();
  return { strings: [...strings].sort(), dates: [-40, -5, -1, 0, 1, 2, 3, 7, 30, 90].map((d) => addDays(today, d)) };
}

/**
 * The ids a path parameter names most often: those its document's own GET answers (the ids of
 * /purchase-orders/{id} for /purchase-orders/{id}/acknowledgements), so that requests reach deciders.
 */
function pathIds(world: World, pools: Pools): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of routes) {
    if (r.kind !== 'query' || !/^\/[a-z-]+\/\{id\}$/.test(r.path)) continue;
    const ids = pools.strings.filter((id) => world.api.handle({ method: 'GET', path: r.path.replace('{id}', encodeURIComponent(id)), asSystem: true }).status === 200);
    if (ids.length) out.set(r.path, ids);
  }
  return out;
}

function requestArbitrary(route: RouteDef, pools: Pools, known: Map<string, string[]>, tokens: readonly string[]): fc.Arbitrary<ApiRequest> {
  const params = pathParams(route.path);
  const paramSchema = (name: string): Schema => ((route.params as Schema | undefined)?.properties?.[name] ?? { type: 'string', minLength: 1, maxLength: 80 });
  const documentIds = known.get(/^\/[a-z-]+\/\{id\}/.exec(route.path)?.[0] ?? '');
  const param = (p: string) => {
    const any = arbitraryFor(paramSchema(p), pools).map(String);
    return p === 'id' && documentIds ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...documentIds) }, { weight: 1, arbitrary: any }) : any;
  };
  const ids = fc.tuple(...params.map(param));
  const token = fc.constantFrom(...tokens);
  if (route.kind === 'query') {
    // Query strings arrive as text: numbers and booleans as they would be written in a URL.
    const query = arbitraryFor(route.query as Schema, pools).map((q) => Object.fromEntries(Object.entries(q as object).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])));
    return fc.record({ ids, query, token }).map(({ ids: values, query: q, token: t }) => ({ method: 'GET', path: fill(route.path, values), query: q, token: t }));
  }
  const key = fc.option(matching('^[a-z0-9-]{1,12}$'), { nil: null });
  return fc.record({ ids, body: arbitraryFor(route.body as Schema, pools), token, key })
    .map(({ ids: values, body, token: t, key: k }) => ({ method: route.method, path: fill(route.path, values), body, token: t, idempotencyKey: k }));
}

function fill(path: string, values: string[]): string {
  let i = 0;
  return path.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++]!));
}

/** The request passes the route's own validators: the fuzz is of what lies past validation. */
function schemaValid(route: RouteDef, req: ApiRequest): boolean {
  if (route.kind === 'query') return queryAjv().validate(route.query, { ...(req.query ?? {}) }) as boolean;
  return payloadAjv().validate(route.body, req.body) as boolean;
}

describe('schema-valid requests to every route', () => {
  const template = buildTemplate();
  const probe = fuzzWorld(template);
  const pools = poolsOf(probe);
  const known = pathIds(probe, pools);
  probe.erp.close();

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: no 5xx, one row each, and a refusal changes nothing', (_name, route) => {
    const world = fuzzWorld(template);
    const changes = world.erp.db.prepare('SELECT DISTINCT tbl FROM fuzz_changes ORDER BY tbl');
    const clear = world.erp.db.prepare('DELETE FROM fuzz_changes');
    let accepted = 0;
    try {
      for (const seed of SEEDS) {
        fc.assert(
          fc.property(requestArbitrary(route, pools, known, TOKENS), (req) => {
            if (!schemaValid(route, req)) throw new Error(`the generator drew an invalid request: ${JSON.stringify(req)}`);
            const rows = world.erp.store.lastSeq();
            clear.run();
            const res = world.api.handle(req);
            if (res.status >= 500) throw new Error(`${res.status} for ${JSON.stringify(req)}: ${res.body}`);
            if (world.erp.store.lastSeq() !== rows + 1) throw new Error(`${world.erp.store.lastSeq() - rows} rows for one request`);
            const changed = (changes.all() as { tbl: string }[]).map((c) => c.tbl);
            if (res.status >= 400 && changed.length > 0) throw new Error(`a refused request (${res.status} ${res.body}) changed ${changed.join(', ')}`);
            if (res.status < 400 && route.kind === 'action') accepted++;
          }),
          { numRuns: RUNS, seed },
        );
      }
      // Whatever was accepted is a fold of the events: the replay's canonical hash is the live one.
      if (accepted > 0) expect(checkReplay(world.file, world.erp.db, world.erp.registry).differingTables).toEqual([]);
    } finally {
      world.erp.close();
      rmSync(world.file, { force: true });
      rmSync(`${world.file}-wal`, { force: true });
      rmSync(`${world.file}-shm`, { force: true });
    }
  });
});
