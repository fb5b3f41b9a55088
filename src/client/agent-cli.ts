import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErpClient, ForeignUrlError, RequestTimeout, type ClientResponse, type RequestOptions } from './http-client';
import { LocalError, UsageError } from './cli-errors';
import { docsData, renderDocs, type HandbookFile, type OpenApiDoc } from './docs';
import type { ToolManifest } from '../api/tools';
import { bindCall, findTool, ToolCallError, toolArguments } from './tool-call';

export { LocalError, UsageError } from './cli-errors';

/** What an agent command ends with: text for stdout and the process exit code. */
export interface CliOutcome {
  output: string;
  exitCode: number;
}

/** The client the environment describes: ERP_URL, ERP_TOKEN and ERP_TIMEOUT_SECONDS (default 120). */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): ErpClient {
  const baseUrl = env.ERP_URL;
  if (!baseUrl) throw new UsageError('ERP_URL is not set: it should hold the address of the bb-erp server, e.g. http://127.0.0.1:8080.');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`ERP_URL is not a URL: ${baseUrl}; it should look like http://127.0.0.1:8080.`);
  }
  if (url.protocol !== 'http:') throw new UsageError(`ERP_URL must be an http:// address, not ${url.protocol}//.`);
  const raw = env.ERP_TIMEOUT_SECONDS;
  const seconds = raw === undefined || raw === '' ? 120 : Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`ERP_TIMEOUT_SECONDS must be a positive number of seconds, not ${JSON.stringify(raw)}.`);
  return new ErpClient({ baseUrl, token: env.ERP_TOKEN ?? null, timeoutMs: seconds * 1000, oneShot: true });
}

const pretty = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

function outcome(res: ClientResponse): CliOutcome {
  const text = typeof res.body === 'string' ? res.body + '\n' : pretty(res.body);
  return { output: text, exitCode: res.status >= 400 ? 1 : 0 };
}

/** One request, printed as JSON; a refusal or failure exits non-zero with the problem. */
export async function requestOutcome(method: string, path: string, options: RequestOptions, client?: ErpClient): Promise<CliOutcome> {
  try {
    return outcome(await (client ?? clientFromEnv()).request(method, path, options));
  } catch (err) {
    return failure(err);
  }
}

export function failure(err: unknown): CliOutcome {
  if (err instanceof UsageError || err instanceof ToolCallError || err instanceof ForeignUrlError) return { output: pretty({ code: 'usage', detail: err.message }), exitCode: 2 };
  if (err instanceof LocalError) return { output: pretty({ code: 'local_error', detail: err.message }), exitCode: 2 };
  if (err instanceof RequestTimeout) return { output: pretty({ code: 'timeout', detail: err.message }), exitCode: 2 };
  const detail = err instanceof Error ? err.message : String(err);
  return { output: pretty({ code: 'connection_failed', detail: `The request did not complete: ${detail}` }), exitCode: 2 };
}

/** What a failed file operation means, in one sentence: "no such file", "permission denied". */
export function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = { ENOENT: 'no such file or folder', EACCES: 'permission denied', EISDIR: 'it is a folder', ENOTDIR: 'a part of the path is not a folder', EROFS: 'the file system is read-only', ENOSPC: 'the disk is full' };
  return (code && reasons[code]) ?? (err instanceof Error ? err.message : String(err));
}

export function readHandbook(dir = join(process.cwd(), 'handbook')): HandbookFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
}

/**
 * `erp docs`: the reference the server at ERP_URL answers with; where ERP_URL is not set and the
 * caller can build it (the operator's erp, not the agent's bundled client), the same reference
 * built from the route registry.
 */
export async function docsOutcome(word: string | undefined, json = false, offline?: () => object): Promise<CliOutcome> {
  try {
    let doc: OpenApiDoc;
    if (!process.env.ERP_URL && offline) doc = offline() as OpenApiDoc;
    else {
      const res = await clientFromEnv().get<OpenApiDoc>('/openapi.json');
      if (res.status >= 400) return outcome(res);
      doc = res.body;
    }
    if (json) return { output: pretty(docsData(doc, word, readHandbook())), exitCode: 0 };
    return { output: renderDocs(doc, word, readHandbook()), exitCode: 0 };
  } catch (err) {
    return failure(err);
  }
}

/** Reads a message and marks it read for the caller. */
export async function readMessageOutcome(id: string): Promise<CliOutcome> {
  try {
    const client = clientFromEnv();
    const res = await client.get(`/messages/${encodeURIComponent(id)}`);
    if (res.status >= 400) return outcome(res);
    await client.post(`/messages/${encodeURIComponent(id)}/read`, {});
    return outcome(res);
  } catch (err) {
    return failure(err);
  }
}

/** Downloads attachment n of a message: to a file with -o, else its text to stdout. */
export async function attachmentOutcome(id: string, n: number, outFile: string | undefined): Promise<CliOutcome> {
  try {
    const res = await clientFromEnv().get<{ filename: string; content_type: string; encoding: 'utf8' | 'base64'; content: string }>(`/messages/${encodeURIComponent(id)}/attachments/${n}`);
    if (res.status >= 400) return outcome(res);
    const bytes = Buffer.from(res.body.content, res.body.encoding === 'base64' ? 'base64' : 'utf8');
    if (outFile) {
      try {
        writeFileSync(outFile, bytes);
      } catch (err) {
        throw new LocalError(`Cannot write ${outFile}: ${fileProblem(err)}.`);
      }
      return { output: pretty({ saved: outFile, filename: res.body.filename, content_type: res.body.content_type, bytes: bytes.length }), exitCode: 0 };
    }
    return { output: res.body.encoding === 'base64' ? pretty(res.body) : bytes.toString('utf8'), exitCode: 0 };
  } catch (err) {
    return failure(err);
  }
}

/** The body of a write: `--data` (JSON text or @file) merged with k=v pairs, which win. */
export function writeBody(data: string | undefined, pairs: Record<string, unknown>): Record<string, unknown> {
  let base: unknown = {};
  if (data !== undefined) {
    const text = data.startsWith('@') ? readDataFile(data.slice(1)) : data;
    try {
      base = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`--data is not valid JSON: ${(err as Error).message}`);
    }
    if (typeof base !== 'object' || base === null || Array.isArray(base)) throw new UsageError('--data must hold a JSON object.');
  }
  return { ...(base as Record<string, unknown>), ...pairs };
}

function readDataFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new LocalError(`Cannot read --data @${file}: ${fileProblem(err)}.`);
  }
}

/**
 * `erp call TOOL name=value…`: one tool of /tools.json, its arguments typed by the tool's schema and
 * placed in the request by its binding; without a tool name, the list of tools.
 */
export async function toolCallOutcome(name: string | undefined, pairs: readonly string[], options: { data?: string; key?: string } = {}): Promise<CliOutcome> {
  try {
    const client = clientFromEnv();
    const res = await client.get<ToolManifest>('/tools.json');
    if (res.status >= 400) return outcome(res);
    if (name === undefined) return { output: pretty({ toolset: res.body.toolset, tools: res.body.tools.map((t) => ({ name: t.name, description: t.description, arguments: Object.keys(t.parameters.properties) })) }), exitCode: 0 };
    const tool = findTool(res.body.tools, name);
    const args = { ...writeBody(options.data, {}), ...toolArguments(tool, pairs) };
    const req = bindCall(tool, args);
    return outcome(await client.request(req.method, req.path, { query: req.query, body: req.body, idempotencyKey: options.key ?? req.idempotencyKey }));
  } catch (err) {
    return failure(err);
  }
}
