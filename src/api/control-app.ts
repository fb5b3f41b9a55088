import { timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { advanceClock } from '../domain/clock/actions';
import { addDays } from '../domain/calendar';
import type { Api } from './pipeline';
import { send } from './http-app';
import { problem, PROBLEM_CONTENT_TYPE } from './problem';

/** Called once per business day the clock moves to, after the clock event: the simulator's entry. */
export type DayHook = (date: string, api: Api) => void;

export interface ControlOptions {
  token: string;
  onDay?: DayHook;
  onShutdown: () => void;
  /** Swaps in a fresh copy of the file the server was started to reset from; undefined when there is none. */
  onReset?: () => Promise<void>;
}

function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Advances the business date one calendar day at a time up to `to`, emitting the clock event and
 * running the day hook for each day, each day one batch (Api.batch): a day that fails is not
 * half-written. Returns the dates moved through.
 */
export function advanceTo(api: Api, to: string, onDay?: DayHook): string[] {
  const days: string[] = [];
  const current = api.read.clock.company()?.business_date ?? null;
  if (current !== null && to < current) throw new RangeError(`The clock cannot go back: it is ${current}, not before ${to}.`);
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

/** The runner's control API, on its own loopback port and token. A user token is refused here. */
export function createControlApp(api: Api, options: ControlOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: 64 * 1024 }));

  const refuse = (req: Request, res: Response, status: number, code: string, detail: string) => {
    send(res, api.recordProbe({ method: req.method, path: req.path, action: 'control', code, status, detail }));
  };

  app.use((req, res, next) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!tokenMatches(options.token, m?.[1])) return refuse(req, res, 401, 'unauthorized', 'The control API needs the control token.');
    next();
  });
  app.get('/control/health', (_req, res) => {
    res.json({ ok: true, business_date: api.today(), events: api.erp.store.lastSeq() });
  });
  app.post('/control/advance', (req, res) => {
    const to = (req.body as { to?: unknown } | undefined)?.to;
    if (typeof to !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return refuse(req, res, 400, 'invalid_request', 'Give the date to advance to as {"to": "YYYY-MM-DD"}.');
    try {
      const days = advanceTo(api, to, options.onDay);
      res.json({ business_date: api.today(), days });
    } catch (err) {
      const status = err instanceof RangeError ? 422 : 500;
      res.status(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem(status, status === 422 ? 'invalid_request' : 'internal_error', (err as Error).message, api.today())));
    }
  });
  app.post('/control/flush', (_req, res) => {
    api.erp.db.pragma('wal_checkpoint(TRUNCATE)');
    res.json({ ok: true, events: api.erp.store.lastSeq(), business_date: api.today() });
  });
  app.post('/control/reset', async (req, res) => {
    if (!options.onReset) return refuse(req, res, 409, 'no_reset_source', 'This server was not started with a file to reset from (erp server start --reset-from FILE).');
    await options.onReset();
    res.json({ ok: true, events: api.erp.store.lastSeq(), business_date: api.today() });
  });
  app.post('/control/shutdown', (_req, res) => {
    res.json({ ok: true, business_date: api.today() });
    res.on('finish', () => setImmediate(options.onShutdown));
  });
  app.use((req, res) => refuse(req, res, 404, 'not_found', `No control endpoint ${req.method} ${req.path}.`));
  return app;
}
