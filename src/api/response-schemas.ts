import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteDef } from '../domain/action';

type JsonSchema = Record<string, unknown>;

/**
 * The success-response schemas of the routes, generated from the types of the code that builds
 * each body (src/build/route-responses.ts, run by `npm run build`): per `METHOD /path`, the schema
 * and the declaration it was read from; the shared components they reference; declarations whose
 * method or path is not a constant and so could not be matched to a route.
 */
export interface ResponseSchemas {
  routes: Record<string, { at: string; schema: JsonSchema }>;
  components: Record<string, JsonSchema>;
  unresolved: string[];
}

/** The schema of a route that never answers with success (all it answers is a problem). */
export const NO_BODY: JsonSchema = Object.freeze({ not: {} });
export const answersSuccess = (schema: object) => JSON.stringify(schema) !== JSON.stringify(NO_BODY);

const FILE = 'response-schemas.json';
/** Written beside dist/src; the source tree (under test) reads the build's copy. */
export const RESPONSE_SCHEMAS_FILE = join(__dirname, '..', '..', 'precompiled', FILE);
const BUILT_FILE = join(__dirname, '..', '..', 'dist', 'precompiled', FILE);

let loaded: ResponseSchemas | undefined;

/** The generated schemas; none (every route missing) when the build has not written them. */
export function responseSchemas(): ResponseSchemas {
  if (loaded) return loaded;
  const file = [RESPONSE_SCHEMAS_FILE, BUILT_FILE].find((f) => existsSync(f));
  loaded = file ? (JSON.parse(readFileSync(file, 'utf8')) as ResponseSchemas) : { routes: {}, components: {}, unresolved: [] };
  return loaded;
}

export const routeKey = (route: Pick<RouteDef, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** The success-body schema of a route, or undefined when none was generated for it. */
export function responseSchema(route: Pick<RouteDef, 'method' | 'path'>): JsonSchema | undefined {
  return responseSchemas().routes[routeKey(route)]?.schema;
}
