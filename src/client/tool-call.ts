import type { Tool } from '../api/tools';

/** A tool call that cannot be made as given: an unknown tool or argument, a missing one. */
export class ToolCallError extends Error {}

export interface BoundRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  /** The Idempotency-Key header, from the write tool's idempotency_key argument. */
  idempotencyKey?: string;
}

/** The request a tool call makes: arguments placed by the binding, fixed fields added. */
export function bindCall(tool: Pick<Tool, 'name' | 'binding'>, args: Record<string, unknown>): BoundRequest {
  const b = tool.binding;
  const unknown = Object.keys(args).filter((a) => !b.arguments[a]);
  if (unknown.length) throw new ToolCallError(`${tool.name} takes no argument ${unknown.join(', ')} (it takes ${Object.keys(b.arguments).join(', ') || 'none'}).`);
  const placed = [...b.fixed, ...Object.entries(args).filter(([, v]) => v !== undefined).map(([arg, value]) => ({ ...b.arguments[arg]!, value }))];
  let path = b.path;
  const query: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  let idempotencyKey: string | undefined;
  for (const p of placed) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.value)));
    else if (p.in === 'query') query[p.name] = String(p.value);
    else if (p.in === 'header') idempotencyKey = String(p.value);
    else body[p.name] = p.value;
  }
  const missing = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => Object.entries(b.arguments).find(([, a]) => a.name === m[1])?.[0] ?? m[1]);
  if (missing.length) throw new ToolCallError(`${tool.name} needs ${missing.join(', ')}.`);
  return { method: b.method, path, query, body: b.method === 'GET' ? undefined : body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) };
}

/** The path parameters a concrete path gives a binding's path pattern (`/ap-invoices/{id}`), or null when it does not match. */
export function pathValues(binding: Pick<Tool['binding'], 'path'>, path: string): Map<string, string> | null {
  const names: string[] = [];
  const pattern = new RegExp(`^${binding.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => (names.push(name), '([^/]+)'))}$`);
  const hit = pattern.exec(path.split('?')[0]!);
  if (!hit) return null;
  try {
    return new Map(names.map((n, i) => [n, decodeURIComponent(hit[i + 1]!)]));
  } catch {
    return null;
  }
}

type Schema = { type?: string | string[]; items?: Schema };

/**
 * A command-line value as the argument's schema types it: text stays text (a routing number keeps
 * its leading zero, an amount its exact decimals), numbers and booleans are parsed, a list is JSON
 * or comma-separated.
 */
export function coerceArgument(raw: string, schema: Schema | undefined): unknown {
  const types = schema?.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string')) return raw;
  if (types.includes('integer') || types.includes('number')) return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
  if (types.includes('boolean')) return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (types.includes('array')) {
    if (raw.trim().startsWith('[')) return parseJson(raw);
    return raw.split(',').map((s) => s.trim()).filter(Boolean).map((s) => coerceArgument(s, schema?.items));
  }
  return parseJson(raw);
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** `k=v` pairs as a tool's arguments, each typed by its schema. */
export function toolArguments(tool: Tool, pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ToolCallError(`Expected name=value, got '${pair}'.`);
    const name = pair.slice(0, eq);
    const schema = tool.parameters.properties[name] as Schema | undefined;
    if (!schema) throw new ToolCallError(`${tool.name} takes no argument ${name} (it takes ${Object.keys(tool.parameters.properties).join(', ') || 'none'}).`);
    out[name] = coerceArgument(pair.slice(eq + 1), schema);
  }
  return out;
}

export function findTool(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new ToolCallError(`No tool ${name}; the tools are ${tools.map((t) => t.name).join(', ')}.`);
  return tool;
}
