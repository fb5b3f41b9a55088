import { execFile } from 'node:child_process';
import type { Tool, ToolManifest } from '../api/tools';
import type { ClientResponse } from '../client/http-client';
import { ERP_GET, ERP_POST } from '../client/mcp/generic-tools';
import { pathValues } from '../client/tool-call';
import type { AgentPolicy, PolicyContext, TaskCode } from '../task-pack/code';
import type { AgentInterface } from './agent-identity';
import { clientBundlePath } from './client-bundle';
import { isWrite, sendThrough, wrappedPolicy, type ApiRequest, type Send } from './request-wrap';

/**
 * What a generic positive control could not do its own way: requests sent over plain HTTP
 * instead, each with the reason. Kept per attempt by the policy; validation reports it.
 */
export interface Fallbacks {
  requests: number;
  reasons: Map<string, number>;
}

export interface GenericPositive {
  policy: AgentPolicy;
  fallbacks: Fallbacks;
  interface: AgentInterface;
  description: string;
}

const noteFallback = (f: Fallbacks, reason: string) => {
  f.requests++;
  f.reasons.set(reason, (f.reasons.get(reason) ?? 0) + 1);
};

/** A problem body's status, or 400 when the body says none. */
function failedStatus(body: unknown): number {
  const status = (body as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 ? status : 400;
}

function parsed(text: string): unknown {
  try {
    return text.trim().length ? JSON.parse(text) : null;
  } catch {
    return text.replace(/\n$/, '');
  }
}

const response = (status: number, body: unknown): ClientResponse => ({ status, headers: {}, text: typeof body === 'string' ? body : JSON.stringify(body), body });

/** A request the agent's interfaces cannot express: custom headers or a raw body. */
function rawShape(req: ApiRequest): string | null {
  if (req.options.rawBody !== undefined || req.options.contentType !== undefined) return 'a raw body';
  if (req.options.headers && Object.keys(req.options.headers).length) return 'custom headers';
  return null;
}

/**
 * `pos:oracle~cli`: each request of the oracle made by the `erp` agent command (dist/erp-client.cjs
 * with ERP_URL and ERP_TOKEN), as a command agent makes it: `erp get PATH k=v…` or
 * `erp post PATH --data JSON [--key K]`. The command prints the body and exits non-zero on a
 * refusal, so a success reads as 200 and a refusal as the status its problem names.
 */
export function cliSend(ctx: PolicyContext, fallbacks: Fallbacks, bundle = clientBundlePath()): Send {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ERP_URL: ctx.erpUrl, ERP_TOKEN: ctx.erpToken };
  const http = sendThrough(ctx.client);
  return (req) => {
    const raw = rawShape(req);
    if (raw) {
      noteFallback(fallbacks, `${raw} (the erp command sends JSON bodies only)`);
      return http(req);
    }
    if (isWrite(req) && Object.values(req.options.query ?? {}).some((v) => v !== undefined)) {
      noteFallback(fallbacks, 'a query string on a write (erp post takes body fields only)');
      return http(req);
    }
    const args = isWrite(req)
      ? [req.method.toLowerCase(), req.path, '--data', JSON.stringify(req.options.body ?? {}), ...(req.options.idempotencyKey ? ['--key', req.options.idempotencyKey] : [])]
      : [req.method.toLowerCase(), req.path, ...Object.entries(req.options.query ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${String(v)}`)];
    return new Promise((resolve, reject) => {
      execFile(process.execPath, [bundle, ...args], { env, cwd: ctx.workspace, maxBuffer: 256 * 1024 * 1024 }, (err, stdout) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
        const body = parsed(stdout);
        if (code === 0) return resolve(response(200, body));
        if (code === 1) return resolve(response(failedStatus(body), body));
        reject(new Error(`erp ${args[0]} ${req.path} exited ${code}: ${stdout.trim() || (err as Error).message}`));
      });
    });
  };
}

/** The arguments of the tool call that makes exactly this request, or null when the tool cannot. */
export function toolArgumentsFor(tool: Pick<Tool, 'binding'>, req: ApiRequest): Record<string, unknown> | null {
  const b = tool.binding;
  if (b.method !== req.method) return null;
  const values = pathValues(b, req.path);
  if (!values) return null;
  const query = Object.fromEntries(Object.entries(req.options.query ?? {}).filter(([, v]) => v !== undefined)) as Record<string, unknown>;
  const body = { ...((req.options.body ?? {}) as Record<string, unknown>) };
  const fields: Record<'query' | 'body', Record<string, unknown>> = { query, body };
  for (const f of b.fixed) {
    if (f.in === 'path') continue;
    const have = f.in === 'header' ? req.options.idempotencyKey : fields[f.in][f.name];
    if (have === undefined || String(have) !== String(f.value)) return null;
    if (f.in !== 'header') delete fields[f.in][f.name];
  }
  const args: Record<string, unknown> = {};
  for (const [arg, place] of Object.entries(b.arguments)) {
    if (place.in === 'path') args[arg] = values.get(place.name);
    else if (place.in === 'header') {
      if (req.options.idempotencyKey !== undefined) args[arg] = req.options.idempotencyKey;
    } else if (place.name in fields[place.in]) {
      args[arg] = fields[place.in][place.name];
      delete fields[place.in][place.name];
    }
  }
  if (Object.keys(query).length || Object.keys(body).length) return null;
  if (req.options.idempotencyKey !== undefined && !Object.values(b.arguments).some((a) => a.in === 'header')) return null;
  return args;
}

/**
 * `pos:oracle~mcp`: each request of the oracle made as a tool call of `erp mcp` (the MCP server
 * the agent command starts), through the MCP SDK's client over stdio. The tool is the one whose
 * binding makes exactly the request (read from GET /tools.json, as the server reads it), called
 * by name when erp mcp offers it under its default budget, through erp_get or erp_post otherwise.
 */
async function mcpTurn(ctx: PolicyContext, fallbacks: Fallbacks): Promise<{ send: Send; end(): Promise<void> }> {
  const http = sendThrough(ctx.client);
  const manifest = await ctx.client.get<ToolManifest>('/tools.json');
  if (manifest.status !== 200) throw new Error(`GET /tools.json: ${manifest.status} ${manifest.text}`);
  // Loaded here, not at the top: every attempt loads this module, few play through MCP.
  const { Client } = require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'bb-erp-positive-control', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath, args: [clientBundlePath(), 'mcp'], cwd: ctx.workspace, stderr: 'ignore',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ERP_URL: ctx.erpUrl, ERP_TOKEN: ctx.erpToken },
  }));
  // A tool the budget left out is called through the generic tools, as an agent would.
  const offered = new Set((await client.listTools()).tools.map((t) => t.name));
  const send: Send = async (req) => {
    const raw = rawShape(req);
    const tool = raw ? undefined : manifest.body.tools.map((t) => ({ t, args: toolArgumentsFor(t, req) })).find((x) => x.args !== null);
    if (!tool) {
      noteFallback(fallbacks, raw ? `${raw} (a tool call sends JSON arguments only)` : `no tool makes ${req.method} ${req.path.replace(/\/[A-Z]+-[0-9A-Za-z-]+/g, '/{id}')} with ${[...Object.keys(req.options.query ?? {}), ...Object.keys((req.options.body ?? {}) as object)].join(', ') || 'no fields'}`);
      return http(req);
    }
    const query = Object.fromEntries(Object.entries(req.options.query ?? {}).filter(([, v]) => v !== undefined));
    const call = offered.has(tool.t.name) ? { name: tool.t.name, arguments: tool.args! }
      : tool.t.binding.method === 'GET' ? { name: ERP_GET, arguments: { path: req.path, ...(Object.keys(query).length ? { query } : {}) } }
        : { name: ERP_POST, arguments: { action: tool.t.name, arguments: tool.args! } };
    const result = await client.callTool(call);
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
    const body = parsed(text);
    return response(result.isError ? failedStatus(body) : 200, body);
  };
  return { send, end: () => client.close() };
}

/** `pos:oracle~keys`: every write without an Idempotency-Key gets one of its own (deterministic: turn and order). */
function keysSend(ctx: PolicyContext): Send {
  const http = sendThrough(ctx.client);
  let n = 0;
  return (req) => {
    if (!isWrite(req) || req.options.idempotencyKey) return http(req);
    n++;
    return http({ ...req, options: { ...req.options, idempotencyKey: `pos-keys-${ctx.turn.index}-${n}` } });
  };
}

/**
 * `pos:oracle~reads`: before and after each write, the last read the oracle made is made again
 * (a list or a document it had looked at): an agent that checks its work reads more than it must.
 * It reads only what the oracle read, so it cannot widen what the agent has seen.
 */
function readsSend(ctx: PolicyContext): Send {
  const http = sendThrough(ctx.client);
  let last: ApiRequest | null = null;
  return async (req) => {
    if (!isWrite(req)) {
      last = req;
      return http(req);
    }
    if (last) await http(last);
    const res = await http(req);
    if (last) await http(last);
    return res;
  };
}

const fresh = (): Fallbacks => ({ requests: 0, reasons: new Map() });

/** The generic positive controls of a pack, built from its oracle; each call makes new ones (their fallbacks are per attempt). */
export function genericPositives(code: Pick<TaskCode, 'oracle'>): Record<string, GenericPositive> {
  const cli = fresh();
  const mcp = fresh();
  return {
    'oracle~cli': { policy: wrappedPolicy(code.oracle, async (ctx) => ({ send: cliSend(ctx, cli) })), fallbacks: cli, interface: 'cli', description: 'the oracle\'s requests, each made by the erp command' },
    'oracle~mcp': { policy: wrappedPolicy(code.oracle, (ctx) => mcpTurn(ctx, mcp)), fallbacks: mcp, interface: 'mcp', description: 'the oracle\'s requests, each a tool call of erp mcp' },
    'oracle~keys': { policy: wrappedPolicy(code.oracle, async (ctx) => ({ send: keysSend(ctx) })), fallbacks: fresh(), interface: 'http', description: 'the oracle with an idempotency key on every write' },
    'oracle~reads': { policy: wrappedPolicy(code.oracle, async (ctx) => ({ send: readsSend(ctx) })), fallbacks: fresh(), interface: 'http', description: 'the oracle reading its last list or document again around each write' },
  };
}

export const GENERIC_POSITIVES = ['oracle~cli', 'oracle~mcp', 'oracle~keys', 'oracle~reads'] as const;
