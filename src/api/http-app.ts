import express, { type Request, type Response } from 'express';
import type { Api, ApiRequest, ApiResponse } from './pipeline';
import { problem, PROBLEM_CONTENT_TYPE } from './problem';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Wraps the handling of one request. The transport-fault layer is one; without it the plain
 * handler runs, at no per-request cost.
 */
export type RequestInterceptor = (req: ApiRequest, handle: (req: ApiRequest) => ApiResponse) => ApiResponse | Promise<ApiResponse>;

/** Reads the JSON body of a request; a wrong content type or broken JSON becomes a bodyError. */
function readBody(req: Request): Pick<ApiRequest, 'body' | 'bodyError'> {
  const raw = req.body as Buffer | undefined;
  if (!raw || !Buffer.isBuffer(raw) || raw.length === 0) return {};
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([a-z.+-]*\+)?json\b/.test(type)) {
    return { bodyError: { status: 415, code: 'unsupported_media_type', detail: `Send the body as application/json, not ${type || 'no content type'}.` } };
  }
  try {
    return { body: JSON.parse(raw.toString('utf8')) };
  } catch (err) {
    return { bodyError: { status: 400, code: 'malformed_json', detail: `The body is not valid JSON: ${(err as Error).message}.` } };
  }
}

function bearer(req: Request): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : h;
}

export function toApiRequest(req: Request): ApiRequest {
  const key = req.headers['idempotency-key'];
  return {
    method: req.method,
    path: req.path,
    query: req.query as Record<string, unknown>,
    ...readBody(req),
    token: bearer(req),
    idempotencyKey: typeof key === 'string' ? key : null,
  };
}

export function send(res: Response, out: ApiResponse): void {
  res.status(out.status);
  for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
  res.end(out.body);
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
  app.use(express.raw({ type: () => true, limit: MAX_BODY_BYTES }));
  app.use(async (req, res, next) => {
    try {
      const apiReq = toApiRequest(req);
      send(res, intercept ? await intercept(apiReq, (r) => api.handle(r)) : api.handle(apiReq));
    } catch (err) {
      next(err);
    }
  });
  // Errors raised before the pipeline (a body over the size limit, a stream that broke) are
  // still answered as problems and recorded.
  app.use((err: { status?: number; type?: string; message?: string }, req: Request, res: Response, _next: express.NextFunction) => {
    const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 500;
    const code = err.type === 'entity.too.large' ? 'payload_too_large' : status === 500 ? 'internal_error' : 'invalid_request';
    const detail = err.type === 'entity.too.large' ? `The body is larger than ${MAX_BODY_BYTES} bytes.` : (err.message ?? 'The request could not be read.');
    try {
      send(res, api.handle({ method: req.method, path: req.path, query: {}, token: bearer(req), bodyError: { status, code, detail } }));
    } catch {
      res.status(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem(status, code, detail, api.today())));
    }
  });
  return app;
}
