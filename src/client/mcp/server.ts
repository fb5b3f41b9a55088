import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema,
  type CallToolResult, type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolManifest } from '../../api/tools';
import type { ErpClient } from '../http-client';
import { bindCall, ToolCallError } from '../tool-call';
import { ERP_GET, ERP_POST, genericCall, genericMcpTools, GENERIC_TOOL_NAMES } from './generic-tools';
import { DEFAULT_TOOL_BUDGET, selectionName, selectTools, type ToolBudget, type ToolSelection } from './tool-budget';

export interface McpServerOptions {
  /** The agent's client: its ERP_URL and its own token. */
  client: ErpClient;
  /** Where the handbook is (handbook/ of the workspace): its files are the server's resources. */
  handbookDir: string;
  version: string;
  /** At most this many tools are listed (DEFAULT_TOOL_BUDGET when not given); `all`: every route a tool. */
  toolBudget?: ToolBudget;
}

/** The handbook's files as resources: `erp://handbook/<file>`. */
export const HANDBOOK_URI = 'erp://handbook/';

const INSTRUCTIONS = [
  'The tools are the ERP endpoints your roles let you call, signed in as you: get_whoami shows your user, roles, limits and the business date.',
  'Reads (get_…) change nothing; every other tool is a named action that posts a document, recorded in the audit trail.',
  `When there are more endpoints than tools, ${ERP_GET} reads any path you may read, ${ERP_POST} calls any action you may call, and erp_find_tools and erp_describe_tool list them with their arguments.`,
  'Give a write an idempotency_key of your own: a retry with the same key returns the first result and acts only once.',
  'A refused call is a tool error carrying the problem: its machine code (forbidden, over_limit, invalid_request, …) and one sentence.',
  'The company handbook is in the resources (erp://handbook/…): follow it.',
].join(' ');

function handbookFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
}

function title(text: string, fallback: string): string {
  return /^#+\s*(.+)$/m.exec(text)?.[1]?.trim() ?? fallback;
}

/** A tool of /tools.json as MCP lists it: the same name, description and argument schema, with hints from its method. */
export function mcpTool(tool: Tool): McpTool {
  const read = tool.binding.method === 'GET';
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as McpTool['inputSchema'],
    ...(tool.output_schema ? { outputSchema: tool.output_schema as McpTool['outputSchema'] } : {}),
    annotations: { title: `${tool.binding.method} ${tool.binding.path}`, readOnlyHint: read, destructiveHint: false, idempotentHint: read, openWorldHint: false },
  };
}

const text = (value: unknown): CallToolResult['content'] => [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }];
const usage = (err: ToolCallError): CallToolResult => ({ content: text({ code: 'usage', detail: err.message }), isError: true });

/** The caller's tools (GET /tools.json), what the budget offers of them, and the names offered as tools of their own. */
interface Offer {
  all: Tool[];
  selection: ToolSelection;
  offered: ReadonlySet<string>;
}

function offerOf(manifest: ToolManifest, budget: ToolBudget): Offer {
  const clash = manifest.tools.find((t) => GENERIC_TOOL_NAMES.includes(t.name));
  if (clash) throw new McpError(ErrorCode.InternalError, `GET /tools.json has a tool named ${clash.name}, the name of a generic tool.`);
  const selection = selectTools(manifest.tools, budget);
  return { all: manifest.tools, selection, offered: new Set(selection.named.map((t) => t.name)) };
}

/**
 * `erp mcp`: an MCP server over the agent's own token. Its tools are those of GET /tools.json (the
 * routes the caller's role may call, or the company's own toolset), each call placed in its route
 * by the tool's binding and sent as the same HTTP request `erp call` would send, so the events are
 * those of the same calls over HTTP. When they are more than the tool budget, it lists the
 * generic tools and the first of them by rankTools instead (tool-budget.ts). A refused call is a
 * tool error holding the problem; the handbook's files are resources. Holds no server code: the
 * tool list comes from the server.
 */
export function createMcpServer(o: McpServerOptions): Server {
  const server = new Server({ name: 'bb-erp', version: o.version }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
  const budget = o.toolBudget ?? DEFAULT_TOOL_BUDGET;
  let offer: Promise<Offer> | undefined;
  const tools = (): Promise<Offer> => {
    offer ??= o.client.get<ToolManifest>('/tools.json').then((res) => {
      if (res.status !== 200) {
        offer = undefined;
        const problem = res.body as { code?: string; detail?: string };
        throw new McpError(ErrorCode.InternalError, `GET /tools.json: ${res.status} ${problem?.code ?? ''} ${problem?.detail ?? res.text}`.trim());
      }
      return offerOf(res.body, budget);
    }, (err: Error) => {
      offer = undefined;
      throw new McpError(ErrorCode.InternalError, `The ERP did not answer GET /tools.json: ${err.message}`);
    });
    return offer;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { all, selection } = await tools();
    return { tools: [...selection.named.map(mcpTool), ...(selection.generic ? genericMcpTools(all) : [])] };
  });

  /** The request a named tool's call makes, answered as that tool answers. */
  const callRoute = async (tool: Tool, args: Record<string, unknown>, declaresOutput: boolean): Promise<CallToolResult> => {
    let bound;
    try {
      bound = bindCall(tool, args);
    } catch (err) {
      if (err instanceof ToolCallError) return usage(err);
      throw err;
    }
    try {
      const res = await o.client.request(bound.method, bound.path, { query: bound.query, body: bound.body, idempotencyKey: bound.idempotencyKey });
      const ok = res.status < 400;
      // A tool that declares its output answers a success with it as structured content too, as MCP requires.
      const structured = ok && declaresOutput && res.body && typeof res.body === 'object' && !Array.isArray(res.body) ? { structuredContent: res.body as Record<string, unknown> } : {};
      return { content: text(res.body ?? res.text), ...structured, isError: !ok };
    } catch (err) {
      return { content: text({ code: 'connection_failed', detail: `The request did not complete: ${(err as Error).message}` }), isError: true };
    }
  };

  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const { all, selection, offered } = await tools();
    const name = req.params.name;
    const args = req.params.arguments ?? {};
    if (selection.generic && GENERIC_TOOL_NAMES.includes(name)) {
      let call;
      try {
        call = genericCall(name, args, all, offered);
      } catch (err) {
        if (err instanceof ToolCallError) return usage(err);
        throw err;
      }
      if ('answer' in call) return { content: text(call.answer), structuredContent: call.answer };
      return callRoute(call.tool, call.args, true);
    }
    const tool = offered.has(name) ? all.find((t) => t.name === name) : undefined;
    if (!tool) {
      const hidden = all.find((t) => t.name === name);
      if (hidden) throw new McpError(ErrorCode.InvalidParams, `${name} is not among the tools offered (${selectionName(budget)}): call it through ${hidden.binding.method === 'GET' ? `${ERP_GET} with path ${hidden.binding.path}` : `${ERP_POST} with action ${name}`}.`);
      throw new McpError(ErrorCode.InvalidParams, `No tool ${name}.`);
    }
    return callRoute(tool, args, tool.output_schema !== undefined);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: handbookFiles(o.handbookDir).map((name) => ({
      uri: HANDBOOK_URI + name,
      name,
      title: title(readFileSync(join(o.handbookDir, name), 'utf8'), name),
      description: 'A section of the company handbook',
      mimeType: 'text/markdown',
    })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const name = req.params.uri.startsWith(HANDBOOK_URI) ? req.params.uri.slice(HANDBOOK_URI.length) : '';
    if (!handbookFiles(o.handbookDir).includes(name)) throw new McpError(ErrorCode.InvalidParams, `No resource ${req.params.uri}; the handbook's are ${HANDBOOK_URI}<file>.`);
    return { contents: [{ uri: req.params.uri, mimeType: 'text/markdown', text: readFileSync(join(o.handbookDir, name), 'utf8') }] };
  });
  return server;
}

/** Serves until the transport closes (the client hangs up, stdin ends). */
export async function serveMcp(o: McpServerOptions, transport: Transport): Promise<void> {
  const server = createMcpServer(o);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(transport);
  await closed;
}
