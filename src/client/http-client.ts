import type http from 'node:http';
import type { Tool } from '../api/tools';
import { oneShotRequest } from './one-shot-request';
import { bindCall, type BoundRequest } from './tool-call';

export interface ClientOptions {
  baseUrl: string;
  token?: string | null;
  /** Default 120 s, the agent CLI's timeout. */
  timeoutMs?: number;
  /** true: reuse connections; false: a new connection per request; unset: Node's default agent. */
  keepAlive?: boolean;
  /**
   * Each request on its own connection over a bare socket, without loading node:http: for a
   * process that sends one request and exits (the agent CLI). Ignores keepAlive.
   */
  oneShot?: boolean;
}

export interface ClientResponse<T = any> {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: T;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  idempotencyKey?: string;
  /** Raw body text (for tests of malformed input); wins over `body`. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export class RequestTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No response within ${timeoutMs / 1000} s.`);
    this.name = 'RequestTimeout';
  }
}

/** A path that would take the request (and its token) to another server than the one configured. */
export class ForeignUrlError extends Error {}

/** node:http, loaded on the first request that needs it (a one-shot client never does). */
const nodeHttp = (): typeof http => require('node:http') as typeof http;

/** A thin JSON client of the bb-erp HTTP API, on node:http or a bare socket, so that the CLI starts fast. */
export class ErpClient {
  private readonly agent?: http.Agent;

  constructor(private readonly options: ClientOptions) {
    if (options.keepAlive && !options.oneShot) this.agent = new (nodeHttp().Agent)({ keepAlive: true, maxSockets: 16 });
  }

  get<T = any>(path: string, query?: RequestOptions['query']): Promise<ClientResponse<T>> {
    return this.request<T>('GET', path, { query });
  }

  post<T = any>(path: string, body: unknown = {}, idempotencyKey?: string): Promise<ClientResponse<T>> {
    return this.request<T>('POST', path, { body, idempotencyKey });
  }

  /** A tool of /tools.json called with its arguments, placed in its route by the tool's binding. */
  async callTool<T = any>(tool: Pick<Tool, 'name' | 'binding'>, args: Record<string, unknown>, idempotencyKey?: string): Promise<{ request: BoundRequest; response: ClientResponse<T> }> {
    const request = bindCall(tool, args);
    const response = await this.request<T>(request.method, request.path, { query: request.query, body: request.body, idempotencyKey: idempotencyKey ?? request.idempotencyKey });
    return { request, response };
  }

  request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ClientResponse<T>> {
    let url: URL;
    try {
      url = this.resolve(path);
    } catch (err) {
      return Promise.reject(err);
    }
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.append(k, String(v));
    const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const headers: Record<string, string> = { accept: 'application/json', ...(options.headers ?? {}) };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (payload !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const timeoutMs = this.options.timeoutMs ?? 120_000;
    if (this.options.oneShot) {
      return oneShotRequest(url, method, headers, payload, timeoutMs, () => new RequestTimeout(timeoutMs)).then((res) => {
        const text = res.body.toString('utf8');
        return { status: res.status, headers: res.headers, text, body: parseBody(text) as T };
      });
    }
    return new Promise((resolve, reject) => {
      const agent = this.agent ?? (this.options.keepAlive === false ? false : undefined);
      const req = nodeHttp().request(url, { method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parseBody(text) as T });
        });
        res.on('error', reject);
      });
      const timer = setTimeout(() => {
        req.destroy(new RequestTimeout(timeoutMs));
      }, timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /**
   * The URL of an API path on the configured server. `//other-host/x` or `http://other-host/x`
   * would resolve to another host, which would then be sent the bearer token: refused.
   */
  resolve(path: string): URL {
    const base = new URL(this.options.baseUrl);
    const url = new URL(path, base);
    if (url.origin !== base.origin || path.startsWith('//') || path.startsWith('\\')) {
      throw new ForeignUrlError(`${path} is not a path on ${base.origin}; give an API path such as /purchase-orders.`);
    }
    return url;
  }

  close(): void {
    this.agent?.destroy();
  }
}

/** The body as JSON, or its text when it is not JSON (null when empty). */
function parseBody(text: string): unknown {
  try {
    return text.length ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}
