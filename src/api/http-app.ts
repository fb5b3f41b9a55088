import express, { type Request, type Response } from 'express';
import type { Api, ApiRequest, ApiResponse } from './pipeline';
import { problem, PROBLEM_CONTENT_TYPE } from './problem';
import { MAX_BODY_BYTES, parseJsonBody, streamBodyError, type BodyError } from './request-body';

export { MAX_BODY_BYTES } from './request-body';

/**
 * Wraps the handling of one request. The transport-fault layer is one; without it the plain
 * handler runs, at no per-request cost.
 */
export type RequestInterceptor = (req: ApiRequest, handle: (req: ApiRequest) => ApiResponse) => ApiResponse | Promise<ApiResponse>;

/**
 * The token of an `Authorization: Bearer <token>` header, exactly as sent after the scheme and its
 * spaces: nothing trimmed or cut at a space, so a token with anything added (a no-break space, a
 * second word) is another token. (HTTP itself drops spaces and tabs around a header's value.)
 */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /^Bearer +(.+)$/i.exec(header)?.[1];
}

/** The bearer token of a request; any other scheme is named, so the refusal can say what was wrong. */
export function credentials(req: Request): Pick<ApiRequest, 'token' | 'authScheme'> {
  const h = req.headers.authorization;
  if (!h) return { token: null };
  const token = bearerToken(h);
  if (token !== undefined) return { token };
  // The scheme is named back to the client, never a word that could be the credential itself.
  const scheme = /^\s*([A-Za-z][A-Za-z0-9-]{0,19})\s+\S/.exec(h)?.[1];
  return { token: null, authScheme: scheme ?? 'no' };
}

/** The request as the pipeline sees it; `bodyError` when the body stream itself failed. */
export function toApiRequest(req: Request, bodyError?: BodyError): ApiRequest {
  const key = req.headers['idempotency-key'];
  const body = bodyError ? { bodyError } : parseJsonBody(req.body as Buffer | undefined, req.headers['content-type']);
  return {
    method: req.method,
    path: req.path,
    query: (req.query ?? {}) as Record<string, unknown>,
    ...body,
    ...credentials(req),
    idempotencyKey: typeof key === 'string' ? key : null,
    remote: true,
  };
}

export function send(res: Response, out: ApiResponse): void {
  res.status(out.status);
  for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
  res.end(out.body);
}

/** The last answer when even recording failed (the disk is full): a problem, never express's HTML page. */
export function sendUnrecorded(res: Response, status: number, code: string, detail: string, today: string): void {
  if (res.headersSent) return void res.end();
  res.status(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem(status, code, detail, today)));
}

function safeToday(api: Api): string {
  try {
    return api.today();
  } catch {
    return '';
  }
}

/** Documents derived from the route registry, served as they are, to anyone: the API contract. */
export interface StaticDocuments {
  '/openapi.json': () => object;
}

/** The agent-facing HTTP app: every request goes to the pipeline but /openapi.json, which is static. */
export function createAgentApp(api: Api, documents: StaticDocuments, intercept?: RequestInterceptor): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  for (const [path, build] of Object.entries(documents) as [string, (() => object) | undefined][]) {
    if (!build) continue;
    let text: string | undefined;
    app.get(path, (_req, res) => {
      text ??= JSON.stringify(build());
      res.type('application/json').send(text);
    });
  }
  const handle = async (apiReq: ApiRequest, res: Response) => {
    try {
      send(res, intercept ? await intercept(apiReq, (r) => api.handle(r)) : api.handle(apiReq));
    } catch (err) {
      process.stderr.write(`bb-erp: a request failed in the server: ${(err as Error)?.stack ?? err}\n`);
      sendUnrecorded(res, 500, 'internal_error', 'The server failed to process the request.', safeToday(api));
    }
  };
  app.use(express.raw({ type: () => true, limit: MAX_BODY_BYTES }));
  app.use((req, res) => void handle(toApiRequest(req), res));
  // A body stream that failed (over the size limit, an unknown encoding, a client that hung up) is
  // refused by the pipeline like any bad body: a problem, and a row carrying the request's key and query.
  app.use((err: { status?: number; type?: string; message?: string }, req: Request, res: Response, _next: express.NextFunction) => {
    void handle(toApiRequest(req, streamBodyError(err)), res);
  });
  return app;
}
