import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApi } from '../../src/api/openapi';
import { Api } from '../../src/api/pipeline';
import { responseSchemas, routeKey } from '../../src/api/response-schemas';
import { allRoutes } from '../../src/api/routes';
import type { RouteDef } from '../../src/domain/action';
import { createAppRegistry } from '../../src/projections';
import { ErpDb } from '../../src/projections/erp-db';
import { buildCompany } from '../../src/runner/company';
import { testWallClock } from '../support/erp';

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>; components: { schemas: Record<string, Schema> } };

const routes = allRoutes();
const doc = buildOpenApi(routes, '0.0.0-test') as unknown as Doc;
/** The schema of a route's success body; undefined for a route that only ever answers with a problem. */
const successOf = (route: RouteDef): Schema | undefined => {
  const responses = doc.paths[route.path]![route.method.toLowerCase()]!.responses;
  const status = Object.keys(responses).find((s) => s.startsWith('2'));
  return status ? responses[status]!.content!['application/json']!.schema : undefined;
};

/** The fields a schema promises whatever form the body takes, following references, allOf and anyOf. */
function fieldsOf(schema: Schema, seen: ReadonlySet<string> = new Set()): string[] {
  if (schema.$ref) {
    const name = String(schema.$ref).replace('#/components/schemas/', '');
    if (seen.has(name)) return [];
    return fieldsOf(doc.components.schemas[name] ?? {}, new Set([...seen, name]));
  }
  const own = [...Object.keys(schema.properties ?? {}), ...((schema.allOf ?? []) as Schema[]).flatMap((s) => fieldsOf(s, seen))];
  const forms = ((schema.anyOf ?? []) as Schema[]).map((s) => fieldsOf(s, seen));
  // Fields every form of a union has; a form with none leaves the union untyped.
  const common = forms.length ? forms.reduce((a, b) => a.filter((f) => b.includes(f))) : [];
  return forms.some((f) => f.length === 0) ? own : [...own, ...common];
}

describe('the success responses of the OpenAPI document', () => {
  it('has a schema generated from the code for every registered route (npm run build writes them)', () => {
    const generated = responseSchemas().routes;
    const missing = routes.map(routeKey).filter((key) => !generated[key]);
    expect({ routes_without_a_generated_response_schema: missing }).toEqual({ routes_without_a_generated_response_schema: [] });
  });

  it('types every success body: each names the fields of the document, list or report it returns', () => {
    // Every body carries business_date; a schema promising nothing more does not type the body.
    const untyped = routes.filter((r) => {
      const success = successOf(r);
      return success !== undefined && fieldsOf(success).filter((f) => f !== 'business_date' && f !== 'event_id').length === 0;
    }).map(routeKey);
    expect({ untyped_success_responses: untyped }).toEqual({ untyped_success_responses: [] });
  });

  it('shares the schema of a view among the routes that answer with it, written once', () => {
    const refs = routes.map((r) => JSON.stringify(successOf(r) ?? {})).filter((s) => s.includes('"$ref":"#/components/schemas/PoView"'));
    expect(refs.length).toBeGreaterThan(3);
    expect(doc.components.schemas.PoView).toBeDefined();
  });

  describe('given a company built through the API and every list and document read back', () => {
    const seen = new Map<string, { route: RouteDef; bodies: unknown[] }>();
    beforeAll(() => {
      const erp = ErpDb.open(':memory:', createAppRegistry(), { wallClock: testWallClock });
      const api = new Api(erp, routes, { inProcess: 'per-request' });
      const handle = api.handle.bind(api);
      api.handle = (req) => {
        const res = handle(req);
        const match = api.router.match(req.method.toUpperCase(), req.path);
        if (res.status < 300 && match && 'route' in match) {
          const entry = seen.get(routeKey(match.route)) ?? { route: match.route, bodies: [] };
          entry.bodies.push(JSON.parse(res.body));
          seen.set(routeKey(match.route), entry);
        }
        return res;
      };
      buildCompany('northgate', 7, api);
      const get = (path: string) => api.handle({ method: 'GET', path, asSystem: true });
      const lists = new Map<string, string[]>();
      for (const r of routes.filter((r) => r.method === 'GET' && !r.path.includes('{'))) {
        const res = get(r.path);
        if (res.status !== 200) continue;
        const items = (JSON.parse(res.body) as { items?: { id?: unknown }[] }).items ?? [];
        lists.set(r.path, items.map((i) => i.id).filter((id): id is string => typeof id === 'string').slice(0, 3));
      }
      for (const r of routes.filter((r) => r.method === 'GET' && /^\/[^{}]+\/\{[a-z_]+\}(\/[^{}]+)?$/.test(r.path))) {
        const [list] = r.path.split('/{');
        for (const id of lists.get(list!) ?? []) get(r.path.replace(/\{[a-z_]+\}/, encodeURIComponent(id)));
      }
    }, 300_000);

    it('reads back a broad set of routes, writes and reads', () => {
      const kinds = [...seen.values()].map((e) => e.route.kind);
      expect(kinds.filter((k) => k === 'action').length).toBeGreaterThan(40);
      expect(kinds.filter((k) => k === 'query').length).toBeGreaterThan(80);
    });

    it('finds every body the routes answered valid against the schema the document declares for it', () => {
      const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
      addFormats(ajv);
      const failures: string[] = [];
      for (const [key, { route, bodies }] of [...seen.entries()].sort()) {
        const success = successOf(route);
        if (!success) {
          failures.push(`${key}: answered ${bodies.length} success bodies but declares none`);
          continue;
        }
        const validate = ajv.compile({ ...success, components: doc.components });
        for (const body of bodies) {
          if (validate(body)) continue;
          failures.push(`${key}: ${ajv.errorsText(validate.errors?.slice(0, 3), { dataVar: 'body' })}`);
          break;
        }
      }
      expect(failures).toEqual([]);
    });
  });
});
