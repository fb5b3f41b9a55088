import type { ActionDef, QueryDef, RouteDef } from '../domain/action';
import { describeField } from './field-descriptions';
import { operationId, referencedComponents } from './openapi';
import { answersSuccess, responseSchema } from './response-schemas';
import { pathParams } from './router';

type JsonSchema = Record<string, unknown>;

/** One function-calling tool, declared over exactly one registered route. */
export interface ToolDeclaration {
  name: string;
  description: string;
  /** `METHOD /path/{param}` exactly as the route is registered. */
  route: string;
  /** Route field → tool argument, where the tool names a field otherwise (seed 004: `id` → `invoice_id`). */
  rename?: Record<string, string>;
  /** Route fields the tool fills in itself; they are not arguments. */
  fixed?: Record<string, string | number>;
  /** Descriptions of arguments, added to the route's own schema. */
  describe?: Record<string, string>;
}

/** Where an argument goes: the path, the query, the JSON body, or the Idempotency-Key header of a write. */
export type ArgumentLocation = 'path' | 'query' | 'body' | 'header';

/** How a tool call becomes a request: every argument's place and name in the route. */
export interface ToolBinding {
  method: string;
  path: string;
  operation_id: string;
  permission: string | null;
  /** The route's tag in the registry (payables, ledger, session, …): the area of the ERP it belongs to. */
  tag: string;
  arguments: Record<string, { in: ArgumentLocation; name: string }>;
  fixed: { in: ArgumentLocation; name: string; value: string | number }[];
}

export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object: the route's own schemas, renamed. */
  parameters: { type: 'object'; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  /** JSON Schema of the object a successful call answers with, self-contained; absent when it answers with none. */
  output_schema?: JsonSchema;
  binding: ToolBinding;
}

export interface ToolManifest {
  toolset: string;
  description: string;
  tools: Tool[];
}

export class ToolDeclarationError extends Error {}

/** JSON Schema as plain JSON: TypeBox's symbol keys dropped. */
const plain = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema ?? { type: 'object' })) as JsonSchema;

/**
 * A schema with every choice among constants written as `enum` (TypeBox writes a union of
 * literals as `anyOf` of `const`), as function-calling clients expect; otherwise unchanged.
 */
export function enumsAsEnum(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(enumsAsEnum);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema as JsonSchema)) out[k] = enumsAsEnum(v);
  const choices = out.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0 && choices.every((c) => c && typeof c === 'object' && 'const' in c && Object.keys(c).every((key) => key === 'const' || key === 'type'))) {
    const { anyOf: _choices, ...rest } = out;
    const types = [...new Set(choices.map((c) => c.type).filter((t) => t !== undefined))];
    return { ...(types.length === 1 ? { type: types[0] } : {}), enum: choices.map((c) => c.const), ...rest };
  }
  return out;
}

/** Component references as a self-contained schema holds them. */
const toDefs = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\//g, '"#/$defs/')) as JsonSchema;

/**
 * The success body of a route as one self-contained object schema (the components it references
 * under $defs), as MCP's outputSchema wants it; undefined for a route that answers with no body or
 * with something other than an object.
 */
export function outputSchema(route: RouteDef): JsonSchema | undefined {
  const schema = responseSchema(route);
  if (!schema || !answersSuccess(schema)) return undefined;
  if (schema.type !== undefined && schema.type !== 'object') return undefined;
  const defs = [...referencedComponents([schema])].map(([name, component]) => [name, toDefs(component)] as const);
  return { ...toDefs(schema), type: 'object', ...(defs.length ? { $defs: Object.fromEntries(defs) } : {}) };
}

/** The optional argument of every write tool that becomes its Idempotency-Key header. */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';
const IDEMPOTENCY_SCHEMA: JsonSchema = { type: 'string', minLength: 1, maxLength: 200, description: 'Idempotency-Key of the request: a retry with the same key returns the first response and has no second effect.' };

function routeFields(route: RouteDef): { in: ArgumentLocation; name: string; schema: JsonSchema; required: boolean }[] {
  const declared = (route.params ? plain(route.params).properties : {}) as Record<string, JsonSchema>;
  const fields: { in: ArgumentLocation; name: string; schema: JsonSchema; required: boolean }[] = pathParams(route.path).map((name) => ({ in: 'path' as const, name, schema: declared[name] ?? { type: 'string', minLength: 1, maxLength: 120 }, required: true }));
  const rest = plain(route.kind === 'action' ? (route as ActionDef).body : (route as QueryDef).query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const where: ArgumentLocation = route.kind === 'action' ? 'body' : 'query';
  for (const [name, schema] of Object.entries(rest.properties ?? {})) fields.push({ in: where, name, schema, required: (rest.required ?? []).includes(name) });
  return fields;
}

/**
 * A tool from its declaration and its route: the argument schema is the route's path parameters
 * and body (or query) schemas, renamed, so the tool cannot drift from the route it calls.
 */
export function buildTool(decl: ToolDeclaration, routes: readonly RouteDef[]): Tool {
  const [method, path] = decl.route.split(' ') as [string, string];
  const route = routes.find((r) => r.method === method && r.path === path);
  if (!route) throw new ToolDeclarationError(`Tool ${decl.name}: no registered route ${decl.route}.`);
  const fields = routeFields(route);
  for (const name of [...Object.keys(decl.rename ?? {}), ...Object.keys(decl.fixed ?? {})]) {
    if (!fields.some((f) => f.name === name)) throw new ToolDeclarationError(`Tool ${decl.name}: ${decl.route} has no field ${name}.`);
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const args: ToolBinding['arguments'] = {};
  const fixed: ToolBinding['fixed'] = [];
  for (const f of fields) {
    const value = decl.fixed?.[f.name];
    if (value !== undefined) {
      fixed.push({ in: f.in, name: f.name, value });
      continue;
    }
    const arg = decl.rename?.[f.name] ?? f.name;
    if (args[arg]) throw new ToolDeclarationError(`Tool ${decl.name}: two fields are both named ${arg}.`);
    const schema = enumsAsEnum(f.schema) as JsonSchema;
    // A schema's own description may be only a format (YYYY-MM): the field's meaning goes before it.
    const format = typeof schema.description === 'string' && schema.description.startsWith('YYYY') ? schema.description : undefined;
    const meaning = schema.description && !format ? undefined : describeField(f.name, f.in, path, schema);
    const description = decl.describe?.[arg] ?? (meaning && format ? `${meaning} ${format}.` : meaning);
    properties[arg] = description ? { ...schema, description } : schema;
    args[arg] = { in: f.in, name: f.name };
    if (f.required) required.push(arg);
  }
  if (method !== 'GET' && !args[IDEMPOTENCY_ARGUMENT]) {
    properties[IDEMPOTENCY_ARGUMENT] = IDEMPOTENCY_SCHEMA;
    args[IDEMPOTENCY_ARGUMENT] = { in: 'header', name: 'Idempotency-Key' };
  }
  const output = outputSchema(route);
  const unknown = Object.keys(decl.describe ?? {}).filter((a) => !args[a]);
  if (unknown.length) throw new ToolDeclarationError(`Tool ${decl.name}: describes ${unknown.join(', ')}, which it does not take.`);
  return {
    name: decl.name,
    description: decl.description,
    parameters: { type: 'object', properties, required, additionalProperties: false },
    ...(output ? { output_schema: output } : {}),
    binding: { method, path, operation_id: operationId(route), permission: route.permission, tag: route.tag, arguments: args, fixed },
  };
}

/** A declared toolset: a name, what it is for, and its tools. */
export interface Toolset {
  name: string;
  description: string;
  tools: readonly ToolDeclaration[];
}

export function buildManifest(toolset: Toolset, routes: readonly RouteDef[]): ToolManifest {
  const names = new Set<string>();
  for (const t of toolset.tools) {
    if (names.has(t.name)) throw new ToolDeclarationError(`Tool ${t.name} is declared twice.`);
    names.add(t.name);
  }
  return { toolset: toolset.name, description: toolset.description, tools: toolset.tools.map((t) => buildTool(t, routes)) };
}

/** A route's tool name: its operation id in the characters every function-calling API accepts. */
export function routeToolName(route: RouteDef): string {
  const name = operationId(route).replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length > 64) throw new ToolDeclarationError(`Route ${route.method} ${route.path}: its tool name ${name} is longer than 64 characters.`);
  return name;
}

function routeDescription(route: RouteDef): string {
  const text = route.description ? `${route.summary}. ${route.description}` : route.summary;
  return `${route.method} ${route.path}: ${text}`;
}

/** Routes outside any agent's tool list: the tool list itself. */
const NOT_TOOLS = new Set(['GET /tools.json']);

/**
 * The toolset of a role: one tool per route its permissions let it call (routes open to every
 * signed-in user included), named by operation id, described by the route, its arguments the
 * route's own schemas. What an MCP server or a function-calling harness offers an agent.
 */
export function roleToolset(routes: readonly RouteDef[], permissions: ReadonlySet<string>): Toolset {
  const callable = routes.filter((r) => !NOT_TOOLS.has(`${r.method} ${r.path}`) && (r.permission === null || permissions.has(r.permission)));
  return {
    name: 'erp-api',
    description: 'Every endpoint of the ERP your roles let you call, one tool each: reads list and fetch documents, writes are the named actions.',
    tools: [...callable].sort((a, b) => routeToolName(a).localeCompare(routeToolName(b))).map((r) => ({ name: routeToolName(r), description: routeDescription(r), route: `${r.method} ${r.path}` })),
  };
}
