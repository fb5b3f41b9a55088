import type { ValidateFunction } from 'ajv';
import type { Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { ActionDef, QueryDef, RouteDef } from '../domain/action';
import { isRefusal, type Actor, type DecideContext, type Decision } from '../domain/decision';
import { maskBankNumbers } from '../domain/master/bank-masking';
import { EventRejected } from '../events/event-types';
import type { EventRow, NewEvent } from '../events/event-row';
import { describeErrors } from '../events/json-schema';
import { validatorFor } from '../events/validators';
import { buildQueries, type Queries } from '../projections';
import type { ErpDb } from '../projections/erp-db';
import { ActorCache, SYSTEM_ACTOR } from './actors';
import { InProcessViews, type InProcessResponse } from './in-process';
import { problem, PROBLEM_CONTENT_TYPE } from './problem';
import { Router } from './router';

export interface ApiRequest {
  method: string;
  /** The path without its query string. */
  path: string;
  query?: Record<string, unknown>;
  /** The parsed JSON body; undefined when there was none. */
  body?: unknown;
  /** Set by the HTTP layer when the body could not be read as JSON. */
  bodyError?: { status: number; code: string; detail: string };
  token?: string | null;
  idempotencyKey?: string | null;
  /** In-process only (generators, the clock): act as the system actor. The HTTP layer never sets it. */
  asSystem?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * How in-process callers (generators, counterparties, the clock) go through the pipeline.
 * `batched`: the same validation, deciders and events, but no response text or idempotency
 * response nobody reads, and their work committed once per simulated day (`Api.batch`).
 * `per-request`: exactly the path of an HTTP request, one commit per request; the equivalence
 * test builds a company both ways and compares canonical hashes.
 */
export type InProcessMode = 'batched' | 'per-request';

export interface ApiOptions {
  /** Default `batched`; BB_ERP_IN_PROCESS=per-request sets the other for a whole process. */
  inProcess?: InProcessMode;
}

/** What the pipeline decided for one request, before it is rendered for HTTP or an in-process caller. */
interface Reply {
  status: number;
  contentType: string;
  today: string;
  /** The body as an object, for in-process callers and for rendering. */
  body?: unknown;
  /** The body as text: a stored idempotent response, sent as it was. */
  text?: string;
  /** Built on first read by an in-process caller: the document after an accepted write. */
  view?: () => object;
  /** The event row an accepted write appended. */
  seq?: number;
}

export const BUSINESS_DATE_HEADER = 'ERP-Business-Date';
const MAX_KEY_LENGTH = 200;
/** The schema of a route's path parameters when it declares none. */
export const ANY_OBJECT = { type: 'object' } as const;

/** Compiled once per route for the whole process: compiling is far slower than validating. */
const validators = new WeakMap<RouteDef, CachedValidators>();

interface CachedValidators {
  body?: ValidateFunction;
  query?: ValidateFunction;
  params?: ValidateFunction;
}

/**
 * The one write path (DESIGN §3) and the read path, independent of HTTP: auth → route →
 * validation → idempotency → decide → one transaction (event row + read models) → response.
 * Express adapts requests to it; in-process callers (simulator, generators) call it directly.
 */
export class Api {
  readonly router: Router;
  readonly inProcess: InProcessMode;
  private db!: { erp: ErpDb; read: Queries; actors: ActorCache; findKey: Statement; saveKey: Statement };
  private readonly views = new InProcessViews();

  constructor(erp: ErpDb, readonly routes: readonly RouteDef[], options: ApiOptions = {}) {
    this.router = new Router(routes);
    this.inProcess = options.inProcess ?? (process.env.BB_ERP_IN_PROCESS === 'per-request' ? 'per-request' : 'batched');
    this.replaceDatabase(erp);
  }

  get erp(): ErpDb {
    return this.db.erp;
  }

  get read(): Queries {
    return this.db.read;
  }

  private get actors(): ActorCache {
    return this.db.actors;
  }

  private get findKey(): Statement {
    return this.db.findKey;
  }

  private get saveKey(): Statement {
    return this.db.saveKey;
  }

  /** Serves another database from the next request on (a reset to a fresh copy); the caller closes the old one. */
  replaceDatabase(erp: ErpDb): void {
    this.views.sealOutstanding();
    const read = buildQueries(erp.tables);
    this.db = {
      erp, read, actors: new ActorCache(read, erp.tables),
      findKey: erp.db.prepare('SELECT request_hash, status, response, seq FROM idempotency WHERE actor = ? AND key = ?'),
      saveKey: erp.db.prepare('INSERT INTO idempotency (actor, key, request_hash, seq, status, response) VALUES (?, ?, ?, ?, ?, ?)'),
    };
  }

  today(): string {
    return this.read.clock.today();
  }

  /** A request from the HTTP layer: the response as it goes on the wire. */
  handle(req: ApiRequest): ApiResponse {
    return render(this.dispatch(req, false));
  }

  /**
   * A request from an in-process caller: the status and the body as an object. In `batched` mode
   * an accepted write's body is built on first read (most callers never read it); read it before
   * the next request, since it shows the document as the write left it.
   */
  call(req: ApiRequest): InProcessResponse {
    if (this.inProcess === 'per-request') {
      const res = this.handle(req);
      return { status: res.status, body: JSON.parse(res.body) };
    }
    const reply = this.dispatch(req, true);
    if (reply.text !== undefined) return { status: reply.status, body: JSON.parse(reply.text) };
    if (reply.view) return { status: reply.status, body: this.lazyBody(`${req.method.toUpperCase()} ${req.path}`, reply) };
    // A query's result may hold rows the read models share: the caller gets its own copy.
    return { status: reply.status, body: JSON.parse(JSON.stringify(reply.body)) };
  }

  /**
   * Runs `fn` as one transaction of in-process work (a simulated day, a generator's set-up):
   * each request in it is still its own savepoint, so a request that fails rolls back alone.
   * In `per-request` mode each request commits by itself, as over HTTP.
   */
  batch<T>(fn: () => T): T {
    return this.inProcess === 'per-request' ? fn() : this.erp.transaction(fn);
  }

  private dispatch(req: ApiRequest, inProcess: boolean): Reply {
    this.views.sealOutstanding();
    const method = req.method.toUpperCase();
    const kind = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
    const base = { kind, method, path: req.path, idempotencyKey: req.idempotencyKey ?? null } as const;

    const actor = req.asSystem ? SYSTEM_ACTOR : this.actors.forToken(req.token);
    if (!actor) {
      return this.refuseAndRecord({ ...base, actor: 'anonymous', tokenId: null, action: 'auth' }, 401, 'unauthorized',
        req.token ? 'The bearer token is not valid.' : 'A bearer token is required (Authorization: Bearer <token>).', {});
    }
    const who = { actor: actor.id, tokenId: actor.tokenId };

    const match = this.router.match(method, req.path);
    if (!match) return this.refuseAndRecord({ ...base, ...who, action: 'route' }, 404, 'not_found', `No endpoint ${method} ${req.path}; see GET /openapi.json or \`erp docs\`.`, {});
    if ('methodNotAllowed' in match) {
      return this.refuseAndRecord({ ...base, ...who, action: 'route' }, 405, 'method_not_allowed', `${req.path} accepts ${match.methodNotAllowed.join(', ')}, not ${method}.`, {});
    }
    const { route, params } = match;
    return route.kind === 'query' ? this.query(route, params, req, actor) : this.action(route, params, req, actor, inProcess);
  }

  /**
   * Runs an action that has no public route (the clock) through the same write path, as the
   * system actor: validation, decider, one transaction, the event row.
   */
  runInternal(route: ActionDef, body: unknown, params: Record<string, string> = {}): InProcessResponse {
    const req: ApiRequest = { method: route.method, path: route.path, body, asSystem: true };
    if (this.inProcess === 'per-request') {
      const res = render(this.action(route, params, req, SYSTEM_ACTOR, false));
      return { status: res.status, body: JSON.parse(res.body) };
    }
    this.views.sealOutstanding();
    const reply = this.action(route, params, req, SYSTEM_ACTOR, true);
    return { status: reply.status, body: reply.view ? this.lazyBody(`${route.method} ${route.path}`, reply) : reply.body };
  }

  private lazyBody(request: string, reply: Reply): object {
    return this.views.lazy(request, { event_id: reply.seq, business_date: reply.today }, reply.view!);
  }

  /** Records a request refused outside the pipeline (the control port) as a probe row. */
  recordProbe(p: { method: string; path: string; action: string; code: string; status: number; detail: string }): ApiResponse {
    const kind = p.method === 'GET' ? 'read' : 'write';
    return render(this.refuseAndRecord({ kind, method: p.method, path: p.path, actor: 'anonymous', tokenId: null, action: p.action }, p.status, p.code, p.detail, {}));
  }

  private query(route: QueryDef, params: Record<string, string>, req: ApiRequest, actor: Actor): Reply {
    const base = { kind: 'read' as const, method: 'GET', path: req.path, actor: actor.id, tokenId: actor.tokenId, action: `get ${route.path}`, objectType: route.objectType ?? null, objectId: params.id ?? null };
    const badPath = this.badParams(route, params);
    if (badPath) return this.refuseAndRecord(base, 400, 'invalid_request', badPath, { params });
    const query: Record<string, unknown> = { ...(req.query ?? {}) };
    const validate = this.validator(route, 'query');
    if (!validate(query)) return this.refuseAndRecord(base, 400, 'invalid_request', describeErrors(validate.errors, 'query'), { params, query: req.query ?? {} });
    if (route.permission && !actor.permissions.has(route.permission)) {
      return this.refuseAndRecord(base, 403, 'forbidden', `Reading ${route.path} needs the ${route.permission} permission, which your roles do not grant.`, { params });
    }
    const today = this.today();
    const result = route.run({ params, query: query as never }, { actor, today, read: this.read, tables: this.erp.tables });
    if (result === undefined) return this.refuseAndRecord(base, 404, 'not_found', `No ${route.objectType ?? 'document'} ${params.id ?? req.path}.`, { params });
    if (isRefusal(result)) return this.refuseAndRecord(base, result.status, result.code, result.detail, { params, query: req.query ?? {} });
    this.erp.store.appendOne({ ...base, businessDate: today, outcome: 'ok', data: { params, query } });
    return { status: 200, contentType: 'application/json', today, body: maskBankNumbers({ ...(result as object), business_date: today }, actor.permissions) };
  }

  private action(route: ActionDef, params: Record<string, string>, req: ApiRequest, actor: Actor, inProcess: boolean): Reply {
    const key = req.idempotencyKey ?? null;
    const base = { kind: 'write' as const, method: route.method, path: req.path, actor: actor.id, tokenId: actor.tokenId, action: route.action, objectType: route.objectType, objectId: params.id ?? null, idempotencyKey: key };
    if (key !== null && (key.length === 0 || key.length > MAX_KEY_LENGTH)) {
      return this.refuseAndRecord(base, 400, 'invalid_request', `An Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`, {});
    }
    if (req.bodyError) return this.refuseAndRecord(base, req.bodyError.status, req.bodyError.code, req.bodyError.detail, {});
    const badPath = this.badParams(route, params);
    if (badPath) return this.refuseAndRecord(base, 400, 'invalid_request', badPath, { params });
    const body = req.body === undefined ? {} : req.body;
    // Only a request with a key is ever compared with another, so only then is it hashed.
    const requestHash = key === null ? '' : hashRequest(route.method, req.path, body);

    if (key !== null) {
      const prior = this.findKey.get(actor.id, key) as { request_hash: string; status: number; response: string; seq: number } | undefined;
      if (prior) {
        if (prior.request_hash !== requestHash) {
          return this.refuseAndRecord(base, 422, 'idempotency_key_reused', `Idempotency-Key ${key} was already used for a different request; use a new key for a new request.`, body);
        }
        // A retry: the first response, byte for byte, and no new effect. The row records the retry.
        const today = this.today();
        this.erp.store.appendOne({ ...base, businessDate: today, outcome: 'ok', data: { idempotent_replay_of: prior.seq } });
        return { status: prior.status, contentType: prior.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json', today: businessDateOf(prior.response) ?? '', text: prior.response };
      }
    }

    const validate = this.validator(route, 'body');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return this.refuseAndRecord(base, 400, 'invalid_request', 'The request body must be a JSON object.', { body });
    }
    if (!validate(body)) return this.refuseAndRecord(base, 400, 'invalid_request', describeErrors(validate.errors), body);
    if (route.permission && !actor.permissions.has(route.permission)) {
      return this.refuseAndRecord(base, 403, 'forbidden', `${route.summary} needs the ${route.permission} permission, which your roles do not grant.`, body);
    }

    try {
      return this.erp.transaction(() => {
        const today = this.today();
        const allocated: Record<string, number> = {};
        const ctx: DecideContext = {
          actor,
          today,
          read: this.read,
          nextId: (prefix) => {
            const next = (allocated[prefix] ?? this.read.idCounters.last(prefix)) + 1;
            allocated[prefix] = next;
            return `${prefix}-${String(next).padStart(6, '0')}`;
          },
        };
        const decision: Decision = route.decide({ params, body: body as never }, ctx);
        let row: EventRow;
        let reply: Reply;
        if (!decision.ok) {
          row = this.erp.store.appendOne({ ...base, businessDate: today, outcome: 'refused', errorCode: decision.code, data: body });
          reply = { status: decision.status, contentType: PROBLEM_CONTENT_TYPE, today, body: problem(decision.status, decision.code, decision.detail, today) };
        } else {
          row = this.erp.store.appendOne({
            ...base, businessDate: today, outcome: 'ok', objectType: decision.objectType, objectId: decision.objectId,
            type: decision.event.type, data: decision.event.data, allocated,
          });
          const seq = row.seq;
          const objectId = decision.objectId;
          const view = () => maskBankNumbers({ ...((route.view?.(this.read, objectId, actor) ?? { id: objectId }) as object), event_id: seq, business_date: today }, actor.permissions);
          reply = { status: route.status ?? 200, contentType: 'application/json', today, seq, ...(inProcess ? { view } : { body: view() }) };
        }
        if (key !== null) {
          // Nobody reads an in-process write's response: a retry of one gets what identifies it.
          const text = reply.body !== undefined ? JSON.stringify(reply.body) : JSON.stringify({ id: decision.ok ? decision.objectId : undefined, event_id: row.seq, business_date: today });
          this.saveKey.run(actor.id, key, requestHash, row.seq, reply.status, text);
          if (!inProcess) reply = { ...reply, text, body: undefined };
        }
        return reply;
      });
    } catch (err) {
      if (err instanceof EventRejected) return this.refuseAndRecord(base, 422, 'invalid_request', err.message, body);
      const message = err instanceof Error ? err.message : String(err);
      return this.refuseAndRecord(base, 500, 'internal_error', `The server failed to process the request: ${message.split('\n')[0]}`, body);
    }
  }

  /** Records the refused request as a probe row and returns its problem response. */
  private refuseAndRecord(base: Omit<NewEvent, 'businessDate' | 'outcome' | 'data'>, status: number, code: string, detail: string, data: unknown): Reply {
    const today = this.today();
    this.erp.store.appendOne({ ...base, businessDate: today, outcome: 'refused', errorCode: code, data: data ?? {} });
    return { status, contentType: PROBLEM_CONTENT_TYPE, today, body: problem(status, code, detail, today) };
  }

  private validator(route: RouteDef, part: 'body' | 'query' | 'params'): ValidateFunction {
    let cached = validators.get(route);
    if (!cached) {
      cached = {};
      validators.set(route, cached);
    }
    if (part === 'body') return (cached.body ??= validatorFor('payload', (route as ActionDef).body));
    if (part === 'params') return (cached.params ??= validatorFor('payload', route.params ?? ANY_OBJECT));
    return (cached.query ??= validatorFor('query', (route as QueryDef).query));
  }

  /** A path parameter that fails its declared schema is a bad request, never a lookup. */
  private badParams(route: RouteDef, params: Record<string, string>): string | undefined {
    if (!route.params) return undefined;
    const validate = this.validator(route, 'params');
    return validate(params) ? undefined : describeErrors(validate.errors, 'path');
  }
}

function hashRequest(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${stableStringify(body)}`).digest('hex');
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function render(reply: Reply): ApiResponse {
  const text = reply.text ?? JSON.stringify(reply.body ?? reply.view?.());
  return { status: reply.status, headers: { 'content-type': reply.contentType, [BUSINESS_DATE_HEADER]: reply.today }, body: text };
}

/** The business date a stored response names (a retry's header repeats the first response's). */
function businessDateOf(text: string): string | undefined {
  return (JSON.parse(text) as { business_date?: string }).business_date;
}
