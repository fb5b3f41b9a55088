import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '../../api/tools';
import { pathValues, ToolCallError } from '../tool-call';

/**
 * The generic tools `erp mcp` offers when its budget leaves routes out (tool-budget.ts): a read of
 * any path the caller may read, a call of any action it may call, and a search and a description
 * of all its tools. A call through erp_get or erp_post becomes the named tool's own call (its
 * binding, its arguments), so it is checked, sent and refused exactly as the named tool would be.
 */
export const ERP_GET = 'erp_get';
export const ERP_POST = 'erp_post';
export const ERP_FIND_TOOLS = 'erp_find_tools';
export const ERP_DESCRIBE_TOOL = 'erp_describe_tool';
export const GENERIC_TOOL_NAMES: readonly string[] = [ERP_GET, ERP_POST, ERP_FIND_TOOLS, ERP_DESCRIBE_TOOL];

type JsonSchema = Record<string, unknown>;

const isRead = (t: Tool) => t.binding.method === 'GET';

const ROUTE_ANSWER: JsonSchema = { type: 'object', description: "The route's own answer: erp_describe_tool shows its schema.", additionalProperties: true };

const TOOL_SUMMARY: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'The tool name: the route\'s operation id.' },
    method: { type: 'string', enum: ['GET', 'POST'], description: 'GET reads (through erp_get), POST writes (through erp_post).' },
    path: { type: 'string', description: 'The route\'s path; {braces} are the ids to fill in.' },
    description: { type: 'string', description: 'What the route does.' },
    offered: { type: 'boolean', description: 'Whether it is also a tool of its own in this server\'s list.' },
    call_with: { type: 'string', description: 'How to call it: its own tool, or erp_get or erp_post with what.' },
  },
  required: ['name', 'method', 'path', 'description', 'offered', 'call_with'],
  additionalProperties: false,
};

/** The four generic tools as MCP lists them; erp_post's action is one of the caller's write tools. */
export function genericMcpTools(tools: readonly Tool[]): McpTool[] {
  const writes = tools.filter((t) => !isRead(t)).map((t) => t.name);
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  return [
    {
      name: ERP_GET,
      description: 'Read any path you may read (GET): a list with its filters, one record by its id, a report. erp_find_tools lists the paths; erp_describe_tool gives one\'s filters and answer.',
      inputSchema: {
        type: 'object',
        properties: {
          path: { type: 'string', minLength: 1, maxLength: 500, description: 'The API path with its ids filled in, e.g. /ap-invoices/APINV-000123 or /vendors.' },
          query: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, description: 'The list\'s or report\'s filters and paging by name, e.g. {"status": "approved", "limit": 20}: the arguments erp_describe_tool shows for the path, other than its ids.' },
        },
        required: ['path'],
        additionalProperties: false,
      },
      outputSchema: ROUTE_ANSWER as McpTool['outputSchema'],
      annotations: { title: 'GET any path you may read', ...readOnly },
    },
    {
      name: ERP_POST,
      description: 'Call any named action you may call (POST), recorded in the audit trail: the action by name, its arguments exactly as its own input schema gives them (erp_describe_tool). Give a write an idempotency_key of your own.',
      inputSchema: {
        type: 'object',
        properties: {
          action: { type: 'string', ...(writes.length ? { enum: writes } : {}), description: 'The action to call, by tool name, e.g. ap_invoice_hold.' },
          arguments: { type: 'object', description: 'The action\'s arguments by name: the ids of its path, its body fields and idempotency_key, as erp_describe_tool shows them.' },
        },
        required: ['action'],
        additionalProperties: false,
      },
      outputSchema: ROUTE_ANSWER as McpTool['outputSchema'],
      annotations: { title: 'POST any action you may call', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    {
      name: ERP_FIND_TOOLS,
      description: 'Search every endpoint you may call (also those that are not tools of their own here): name, method, path, what it does and how to call it.',
      inputSchema: {
        type: 'object',
        properties: {
          search: { type: 'string', maxLength: 200, description: 'Words that must all appear in the name, path or description, in any case, e.g. "hold invoice"; every endpoint when left out.' },
          kind: { type: 'string', enum: ['read', 'write'], description: 'Only reads (GET, through erp_get) or only writes (named actions, through erp_post).' },
        },
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { items: { type: 'array', items: TOOL_SUMMARY, description: 'The endpoints found, by name.' }, total: { type: 'integer', description: 'How many were found.' } }, required: ['items', 'total'], additionalProperties: false },
      annotations: { title: 'Find endpoints', ...readOnly },
    },
    {
      name: ERP_DESCRIBE_TOOL,
      description: 'One endpoint in full: what it does, the JSON Schema of its arguments and of its answer, and how to call it.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1, maxLength: 64, description: 'The tool name as erp_find_tools gives it, e.g. get_ap_invoices_by_id or ap_invoice_hold.' } },
        required: ['name'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          ...(TOOL_SUMMARY.properties as Record<string, JsonSchema>),
          input_schema: { type: 'object', description: 'The JSON Schema of its arguments.' },
          output_schema: { type: ['object', 'null'], description: 'The JSON Schema of its answer; null when it answers with none.' },
        },
        required: [...(TOOL_SUMMARY.required as string[]), 'input_schema', 'output_schema'],
        additionalProperties: false,
      },
      annotations: { title: 'Describe an endpoint', ...readOnly },
    },
  ];
}

/** A generic call: the named tool it stands for and that tool's arguments, or an answer of its own. */
export type GenericCall = { tool: Tool; args: Record<string, unknown> } | { answer: Record<string, unknown> };

function onlyArguments(name: string, args: Record<string, unknown>, takes: readonly string[]): void {
  const unknown = Object.keys(args).filter((a) => !takes.includes(a));
  if (unknown.length) throw new ToolCallError(`${name} takes no argument ${unknown.join(', ')} (it takes ${takes.join(', ')}).`);
}

function objectArgument(name: string, arg: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ToolCallError(`${name}: ${arg} must be an object of arguments by name.`);
  return value as Record<string, unknown>;
}

function howToCall(t: Tool, offered: ReadonlySet<string>): string {
  if (offered.has(t.name)) return `${t.name} (a tool of its own)`;
  return isRead(t) ? `${ERP_GET} with path ${t.binding.path} (ids filled in) and its other arguments in query` : `${ERP_POST} with action ${t.name} and its arguments`;
}

function summary(t: Tool, offered: ReadonlySet<string>) {
  return { name: t.name, method: t.binding.method, path: t.binding.path, description: t.description, offered: offered.has(t.name), call_with: howToCall(t, offered) };
}

/** The read tool whose path a concrete path is, preferring literal segments (`/reports/ap-aging` over `/reports/{id}`). */
function readOf(tools: readonly Tool[], path: string): { tool: Tool; values: Map<string, string> } | undefined {
  return tools
    .filter(isRead)
    .map((tool) => ({ tool, values: pathValues(tool.binding, path) }))
    .filter((m): m is { tool: Tool; values: Map<string, string> } => m.values !== null)
    .sort((a, b) => a.values.size - b.values.size)[0];
}

function getCall(tools: readonly Tool[], raw: Record<string, unknown>): GenericCall {
  onlyArguments(ERP_GET, raw, ['path', 'query']);
  if (typeof raw.path !== 'string' || !raw.path.startsWith('/')) throw new ToolCallError(`${ERP_GET} needs path: an API path starting with /, e.g. /vendors.`);
  const [path, search] = raw.path.split('?', 2) as [string, string | undefined];
  const query: Record<string, unknown> = Object.fromEntries(new URLSearchParams(search ?? ''));
  for (const [k, v] of Object.entries(objectArgument(ERP_GET, 'query', raw.query))) {
    if (k in query) throw new ToolCallError(`${ERP_GET}: ${k} is given both in the path's query string and in query.`);
    query[k] = v;
  }
  const match = readOf(tools, path);
  if (!match) throw new ToolCallError(`No path you may read matches ${path}; ${ERP_FIND_TOOLS} with kind read lists them.`);
  const b = match.tool.binding;
  const args: Record<string, unknown> = {};
  for (const [arg, place] of Object.entries(b.arguments)) if (place.in === 'path') args[arg] = match.values.get(place.name);
  for (const [field, value] of Object.entries(query)) {
    const arg = Object.entries(b.arguments).find(([, place]) => place.in === 'query' && place.name === field)?.[0];
    if (!arg && b.arguments[field]) throw new ToolCallError(`${ERP_GET}: ${field} is part of the path of ${b.path}, not a filter.`);
    // A field the route does not take goes under its own name: the named tool's check refuses it.
    args[arg ?? field] = value;
  }
  return { tool: match.tool, args };
}

function postCall(tools: readonly Tool[], raw: Record<string, unknown>): GenericCall {
  onlyArguments(ERP_POST, raw, ['action', 'arguments']);
  const tool = tools.find((t) => t.name === raw.action);
  if (!tool || isRead(tool)) {
    const hint = tool ? `${tool.name} is a read: call ${ERP_GET} with path ${tool.binding.path}` : `${ERP_FIND_TOOLS} with kind write lists the actions you may call`;
    throw new ToolCallError(`No action ${JSON.stringify(raw.action ?? null)} you may call; ${hint}.`);
  }
  return { tool, args: objectArgument(ERP_POST, 'arguments', raw.arguments) };
}

function findTools(tools: readonly Tool[], raw: Record<string, unknown>, offered: ReadonlySet<string>): GenericCall {
  onlyArguments(ERP_FIND_TOOLS, raw, ['search', 'kind']);
  if (raw.search !== undefined && typeof raw.search !== 'string') throw new ToolCallError(`${ERP_FIND_TOOLS}: search must be text.`);
  if (raw.kind !== undefined && raw.kind !== 'read' && raw.kind !== 'write') throw new ToolCallError(`${ERP_FIND_TOOLS}: kind must be one of "read", "write".`);
  const words = ((raw.search as string | undefined) ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const items = tools
    .filter((t) => raw.kind === undefined || (raw.kind === 'read') === isRead(t))
    .filter((t) => words.every((w) => `${t.name} ${t.binding.path} ${t.description}`.toLowerCase().includes(w)))
    .map((t) => summary(t, offered));
  return { answer: { items, total: items.length } };
}

function describeTool(tools: readonly Tool[], raw: Record<string, unknown>, offered: ReadonlySet<string>): GenericCall {
  onlyArguments(ERP_DESCRIBE_TOOL, raw, ['name']);
  const tool = tools.find((t) => t.name === raw.name);
  if (!tool) throw new ToolCallError(`No tool ${JSON.stringify(raw.name ?? null)} you may call; ${ERP_FIND_TOOLS} searches them by name, path and description.`);
  return { answer: { ...summary(tool, offered), input_schema: tool.parameters, output_schema: tool.output_schema ?? null } };
}

/**
 * A call of a generic tool over the caller's tools (`offered`: the names listed as tools of their
 * own): the named tool and arguments it stands for, or the search's or description's answer.
 * Throws ToolCallError for a call it cannot make, as bindCall does for a named tool.
 */
export function genericCall(name: string, args: Record<string, unknown>, tools: readonly Tool[], offered: ReadonlySet<string>): GenericCall {
  switch (name) {
    case ERP_GET: return getCall(tools, args);
    case ERP_POST: return postCall(tools, args);
    case ERP_FIND_TOOLS: return findTools(tools, args, offered);
    case ERP_DESCRIBE_TOOL: return describeTool(tools, args, offered);
    default: throw new ToolCallError(`No generic tool ${name}.`);
  }
}
