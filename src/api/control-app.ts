import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { advanceClock } from '../domain/clock/actions';
import { addDays } from '../domain/calendar';
import { validatorFor } from '../events/validators';
import type { Api } from './pipeline';
import { bearerToken, send, sendUnrecorded } from './http-app';
import { parseJsonBody, streamBodyError, type BodyError } from './request-body';

/** Called once per business day the clock moves to, after the clock event: the simulator's entry. */
export type DayHook = (date: string, api: Api) => void;

export interface ControlOptions {
  token: string;
  onDay?: DayHook;
  onShutdown: () => void;
  /** Swaps in a fresh copy of the file the server was started to reset from; undefined when there is none. */
  onReset?: () => Promise<void>;
}

const CONTROL_BODY_BYTES = 64 * 1024;

/** The given token is the expected one, byte for byte; compared as digests, in time that says nothing of either. */
function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** A request the clock cannot follow: a date that does not exist, or one in the past. */
export class ClockRefusal extends RangeError {}

/**
 * Advances the business date one calendar day at a time up to `to`, emitting the clock event and
 * running the day hook for each day, each day one batch (Api.batch): a day that fails is not
 * half-written. Returns the dates moved through.
 */
export function advanceTo(api: Api, to: string, onDay?: DayHook): string[] {
  const validDate = validatorFor('payload', advanceClock.body);
  if (!validDate({ to })) throw new ClockRefusal(`${to} is not a calendar date (YYYY-MM-DD).`);
  const days: string[] = [];
  const current = api.read.clock.company()?.business_date ?? null;
  if (current !== null && to < current) throw new ClockRefusal(`The clock cannot go back: it is ${current}, not before ${to}.`);
  let next = current === null ? to : addDays(current, 1);
  while (next <= to) {
    const date = next;
    api.batch(() => {
      const out = api.runInternal(advanceClock, { to: date });
      if (out.status >= 300) throw new Error(`The clock refused to move to ${date}: ${JSON.stringify(out.body)}`);
      onDay?.(date, api);
    });
    days.push(date);
    next = addDays(date, 1);
  }
  return days;
}

type Handler = (req: Request, res: Response) => void;

/**
 * The runner's control API, on its own loopback port and token. A user token is refused here.
 * The token is checked before the body is read; every refusal is a problem and a probe row.
 */
export function createControlApp(api: Api, options: ControlOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const refuse = (req: Request, res: Response, status: number, code: string, detail: string, headers?: Record<string, string>) => {
    try {
      send(res, api.recordProbe({ method: req.method, path: req.path, action: 'control', code, status, detail, headers }));
    } catch (err) {
      sendUnrecorded(res, 500, 'internal_error', `The control request could not be recorded: ${(err as Error).message}`, '');
    }
  };
  const bodyOf = (req: Request): { to?: unknown } => (req.body ?? {}) as { to?: unknown };

  app.use((req, res, next) => {
    if (!tokenMatches(options.token, bearerToken(req.headers.authorization))) return refuse(req, res, 401, 'unauthorized', 'The control API needs the control token.', { 'WWW-Authenticate': 'Bearer realm="bb-erp-control"' });
    next();
  });
  app.use(express.raw({ type: () => true, limit: CONTROL_BODY_BYTES }));
  app.use((req, res, next) => {
    const parsed = parseJsonBody(req.body as Buffer | undefined, req.headers['content-type']);
    if (parsed.bodyError) return refuse(req, res, parsed.bodyError.status, parsed.bodyError.code, parsed.bodyError.detail);
    req.body = parsed.body;
    next();
  });

  const endpoints: Record<string, Record<string, Handler>> = {
    '/control/health': {
      GET: (_req, res) => void res.json({ ok: true, business_date: api.today(), events: api.erp.store.lastSeq() }),
    },
    '/control/advance': {
      POST: (req, res) => {
        const to = bodyOf(req).to;
        if (typeof to !== 'string') return refuse(req, res, 400, 'invalid_request', 'Give the date to advance to as {"to": "YYYY-MM-DD"}.');
        try {
          const days = advanceTo(api, to, options.onDay);
          res.json({ business_date: api.today(), days });
        } catch (err) {
          if (err instanceof ClockRefusal) return refuse(req, res, 422, 'invalid_request', err.message);
          refuse(req, res, 500, 'internal_error', `The clock could not be advanced to ${to}: ${(err as Error).message}`);
        }
      },
    },
    '/control/flush': {
      POST: (_req, res) => {
        api.erp.db.pragma('wal_checkpoint(TRUNCATE)');
        res.json({ ok: true, events: api.erp.store.lastSeq(), business_date: api.today() });
      },
    },
    '/control/reset': {
      POST: (req, res) => {
        const reset = options.onReset;
        if (!reset) return refuse(req, res, 409, 'no_reset_source', 'This server was not started with a file to reset from (erp server start --reset-from FILE).');
        reset().then(
          () => void res.json({ ok: true, events: api.erp.store.lastSeq(), business_date: api.today() }),
          (err: unknown) => refuse(req, res, 500, 'internal_error', `The server could not be reset: ${(err as Error).message}`),
        );
      },
    },
    '/control/shutdown': {
      POST: (_req, res) => {
        res.json({ ok: true, business_date: api.today() });
        res.on('finish', () => setImmediate(options.onShutdown));
      },
    },
  };
  app.use((req, res) => {
    const methods = endpoints[req.path];
    if (!methods) return refuse(req, res, 404, 'not_found', `No control endpoint ${req.method} ${req.path}.`);
    const handler = methods[req.method] ?? (req.method === 'HEAD' ? methods.GET : undefined);
    if (!handler) {
      const allowed = Object.keys(methods).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(', ');
      return refuse(req, res, 405, 'method_not_allowed', `${req.path} accepts ${allowed}, not ${req.method}.`, { Allow: allowed });
    }
    handler(req, res);
  });
  app.use((err: { status?: number; type?: string; message?: string }, req: Request, res: Response, _next: NextFunction) => {
    const e: BodyError = err.type ? streamBodyError(err) : { status: 500, code: 'internal_error', detail: `The control request failed: ${err.message ?? err}` };
    refuse(req, res, e.status, e.code, e.detail);
  });
  return app;
}
