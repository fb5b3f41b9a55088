import { OpenApiBuilder, type OperationObject, type ParameterObject, type SchemaObject } from 'openapi3-ts/oas31';
import type { ActionDef, QueryDef, RouteDef } from '../domain/action';
import { answersSuccess, responseSchema, responseSchemas } from './response-schemas';
import { pathParams } from './router';
import { exampleOf } from './schema-example';
import { TAG_DESCRIPTIONS } from './tags';

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

/** Every response, success or problem, says the business date it was answered on. */
const DATED = { 'ERP-Business-Date': { $ref: '#/components/headers/ERP-Business-Date' } };

const problem = (description: string) => ({ description, headers: DATED, content: { 'application/problem+json': { schema: PROBLEM_REF } } });

/** JSON Schema without TypeBox's symbol keys, as plain JSON for the document. */
function plain(schema: unknown): SchemaObject {
  return JSON.parse(JSON.stringify(schema ?? { type: 'object' })) as SchemaObject;
}

function pathParameters(route: RouteDef): ParameterObject[] {
  const declared = (route.params ? plain(route.params).properties : undefined) as Record<string, SchemaObject> | undefined;
  return pathParams(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: declared?.[name] ?? { type: 'string', minLength: 1, maxLength: 120 },
  }));
}

function queryParameters(route: QueryDef): ParameterObject[] {
  const schema = plain(route.query) as { properties?: Record<string, SchemaObject>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: (schema.required ?? []).includes(name),
    schema: s,
    ...(s.description ? { description: s.description } : {}),
  }));
}

export function operationId(route: RouteDef): string {
  if (route.kind === 'action') return route.action;
  return 'get' + route.path.replace(/\{([^}]+)\}/g, 'by_$1').split(/[/-]/).filter(Boolean).map((s) => '_' + s).join('');
}

/**
 * The success body's schema: the one generated from the types of the code that builds it
 * (src/build/route-responses.ts), or a bare object for a route the build has not seen, which the
 * OpenAPI tests refuse by name.
 */
function successSchema(route: RouteDef): SchemaObject {
  return (responseSchema(route) ?? { type: 'object' }) as SchemaObject;
}

/** The routes of the same method whose literal paths the route's template also matches (/reports/{id} of /reports/ap-aging). */
function instancesOf(route: RouteDef, routes: readonly RouteDef[]): RouteDef[] {
  const template = route.path.split('/');
  return routes.filter((r) => r !== route && r.method === route.method && !r.path.includes('{') && r.path.split('/').length === template.length
    && r.path.split('/').every((seg, i) => template[i]!.startsWith('{') || template[i] === seg));
}

/**
 * A route that only ever answers with a problem (an id no report has) declares what its path
 * answers when a more specific route takes the request: any of theirs.
 */
function pathSuccessSchema(route: RouteDef, routes: readonly RouteDef[]): SchemaObject | undefined {
  const own = successSchema(route);
  if (answersSuccess(own)) return own;
  const instances = instancesOf(route, routes).filter((r) => answersSuccess(successSchema(r)));
  return instances.length ? { anyOf: instances.map(successSchema), description: `The body of ${instances.map((r) => r.path).join(', ')}` } : undefined;
}

/** The generated components the given schemas reference, directly or through one another. */
export function referencedComponents(schemas: readonly unknown[]): Map<string, SchemaObject> {
  const all = responseSchemas().components;
  const out = new Map<string, SchemaObject>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') {
        const name = x.replace('#/components/schemas/', '');
        if (!out.has(name) && all[name]) { out.set(name, all[name] as SchemaObject); walk(all[name]); }
      } else walk(x);
    }
  };
  walk(schemas);
  return out;
}

/** The route's own description, or what the registry says of it: who may call it, what it records. */
function describe(route: RouteDef): string {
  if (route.description) return route.description;
  const who = route.permission ? `Needs the \`${route.permission}\` permission.` : 'Open to any signed-in user.';
  if (route.kind === 'query') return `${route.summary}. ${who} A read: it records a probe row in the audit trail, nothing else.`;
  return `${route.summary}. ${who} Records ${route.emits.map((e) => `\`${e.type}\``).join(' or ')} on success.`;
}

/** A JSON content entry with an example built from its schema (none when one cannot be built). */
function json(schema: SchemaObject, components: Readonly<Record<string, SchemaObject>>) {
  const example = exampleOf(schema as Record<string, unknown>, components as Record<string, Record<string, unknown>>);
  return { 'application/json': { schema, ...(example !== undefined ? { example } : {}) } };
}

function operation(route: RouteDef, routes: readonly RouteDef[]): OperationObject {
  const components = responseSchemas().components as Record<string, SchemaObject>;
  const problems = {
    '400': problem('Invalid request'),
    '401': problem('Missing or invalid bearer token'),
    '403': problem('Refused: permission, limit or self-approval'),
    '404': problem('No such document'),
    '405': problem('The path exists, the method does not'),
    '429': problem('Refused: this user has added as much to the audit log as one user may in a turn (log_budget_exceeded)'),
  };
  const base: OperationObject = {
    operationId: operationId(route),
    summary: route.summary,
    description: describe(route),
    tags: [route.tag],
    security: [{ bearer: [] }],
    'x-permission': route.permission,
    responses: {},
  };
  if (route.kind === 'query') {
    const parameters = [...pathParameters(route), ...queryParameters(route)];
    const list = parameters.some((p) => p.name === 'offset');
    const success = pathSuccessSchema(route, routes);
    const headers = list ? { Link: { description: 'RFC 8288 links to the next and previous pages (rel="next", rel="prev"), the other query parameters kept', schema: { type: 'string' } } } : undefined;
    return {
      ...base,
      parameters,
      responses: {
        ...(success ? { '200': { description: 'OK', headers: { ...DATED, ...(headers ?? {}) }, content: json(success, components) } } : {}),
        ...problems,
      },
    };
  }
  const action = route as ActionDef;
  return {
    ...base,
    'x-action': action.action,
    'x-emits': action.emits.map((e) => e.type),
    parameters: [
      ...pathParameters(route),
      { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 200 }, description: 'A retry with the same key returns the first response and has no second effect.' },
    ],
    requestBody: { required: true, content: json(plain(action.body), components) },
    responses: {
      [String(action.status ?? 200)]: {
        description: 'Done: the document as it now stands',
        headers: { ...DATED, 'Idempotent-Replayed': { description: '"true" when this is the first response given again to a retry with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } } },
        content: json(successSchema(route), components),
      },
      ...problems,
      '409': problem('Refused: the document\'s state does not allow it'),
      '422': problem('Refused: the request cannot be processed (e.g. an Idempotency-Key reused for another request)'),
    },
  };
}

/** The OpenAPI 3.1 document, derived from the route registry. Paths and methods sorted. */
export function buildOpenApi(routes: readonly RouteDef[], version: string): Record<string, unknown> {
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addInfo({
      title: 'bb-erp',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description: 'A benchmark ERP. Every response carries the business date (header ERP-Business-Date and body field business_date). State changes are POSTs to named actions; errors are application/problem+json with a machine code.',
    })
    .addServer({ url: '/', description: 'The server that serves this document (an attempt\'s ERP_URL)' })
    .addSecurityScheme('bearer', { type: 'http', scheme: 'bearer' })
    .addHeader('ERP-Business-Date', { description: 'The business date the request was answered on (YYYY-MM-DD)', required: true, schema: { type: 'string', format: 'date' } })
    .addSchema('Problem', {
      type: 'object',
      required: ['type', 'title', 'status', 'code', 'detail', 'business_date'],
      properties: {
        type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' },
        code: { type: 'string', description: 'Machine code of the refusal, lower_snake_case (not_found, invalid_state, forbidden, …)' }, detail: { type: 'string' }, business_date: { type: 'string', format: 'date' },
        instance: { type: 'string', description: 'The audit row that recorded this refusal, as a URI reference: /audit?from_seq=N&limit=1' },
        event_id: { type: 'integer', description: 'The event id (seq) of that row' },
      },
    });
  const byPath = new Map<string, RouteDef[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  for (const path of [...byPath.keys()].sort()) {
    const item: Record<string, OperationObject> = {};
    for (const r of byPath.get(path)!.sort((a, b) => a.method.localeCompare(b.method))) item[r.method.toLowerCase()] = operation(r, routes);
    builder.addPath(path, item);
  }
  const components = referencedComponents(routes.map((r) => pathSuccessSchema(r, routes)));
  for (const name of [...components.keys()].sort()) builder.addSchema(name, components.get(name)!);
  const tags = [...new Set(routes.map((r) => r.tag))].sort();
  for (const name of tags) builder.addTag({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) });
  return builder.getSpec() as unknown as Record<string, unknown>;
}
