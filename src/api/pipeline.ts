import type { ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import type { ActionDef, QueryDef, RouteDef } from '../domain/action';
import { isRefusal, type Actor, type DecideContext, type Decision } from '../domain/decision';
import { maskBankNumbers } from '../domain/master/bank-masking';
import { EventRejected } from '../events/event-types';
import type { EventRow, NewEvent } from '../events/event-row';
import { ajv, ajvQuery, describeErrors } from '../events/json-schema';
import { buildQueries, type Queries } from '../projections';
import type { ErpDb } from '../projections/erp-db';
import { actorForToken, SYSTEM_ACTOR } from './actors';
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

export const BUSINESS_DATE_HEADER = 'ERP-Business-Date';
const MAX_KEY_LENGTH = 200;

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
  readonly read: Queries;
  readonly router: Router;
  private readonly findKey;
  private readonly saveKey;

  constructor(readonly erp: ErpDb, readonly routes: readonly RouteDef[]) {
    this.read = buildQueries(erp.tables);
    this.router = new Router(routes);
    this.findKey = erp.db.prepare('SELECT request_hash, status, response, seq FROM idempotency WHERE actor = ? AND key = ?');
    this.saveKey = erp.db.prepare('INSERT INTO idempotency (actor, key, request_hash, seq, status, response) VALUES (?, ?, ?, ?, ?, ?)');
  }

  today(): string {
    return this.read.clock.today();
  }

  handle(req: ApiRequest): ApiResponse {
    const method = req.method.toUpperCase();
    const kind = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
    const base = { kind, method, path: req.path, idempotencyKey: req.idempotencyKey ?? null } as const;

    const actor = req.asSystem ? SYSTEM_ACTOR : actorForToken(this.read, req.token);
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
    return route.kind === 'query' ? this.query(route, params, req, actor) : this.action(route, params, req, actor);
  }

  /**
   * Runs an action that has no public route (the clock) through the same write path, as the
   * system actor: validation, decider, one transaction, the event row.
   */
  runInternal(route: ActionDef, body: unknown, params: Record<string, string> = {}): ApiResponse {
    return this.action(route, params, { method: route.method, path: route.path, body, asSystem: true }, SYSTEM_ACTOR);
  }

  /** Records a request refused outside the pipeline (the control port) as a probe row. */
  recordProbe(p: { method: string; path: string; action: string; code: string; status: number; detail: string }): ApiResponse {
    const kind = p.method === 'GET' ? 'read' : 'write';
    return this.refuseAndRecord({ kind, method: p.method, path: p.path, actor: 'anonymous', tokenId: null, action: p.action }, p.status, p.code, p.detail, {});
  }

  private query(route: QueryDef, params: Record<string, string>, req: ApiRequest, actor: Actor): ApiResponse {
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
    return json(200, maskBankNumbers({ ...(result as object), business_date: today }, actor.permissions), today);
  }

  private action(route: ActionDef, params: Record<string, string>, req: ApiRequest, actor: Actor): ApiResponse {
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
        this.erp.store.appendOne({ ...base, businessDate: this.today(), outcome: 'ok', data: { idempotent_replay_of: prior.seq } });
        return respond(prior.status, prior.response);
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
        let status: number;
        let responseBody: object;
        let contentType: string;
        if (!decision.ok) {
          row = this.erp.store.appendOne({ ...base, businessDate: today, outcome: 'refused', errorCode: decision.code, data: body });
          status = decision.status;
          responseBody = problem(status, decision.code, decision.detail, today);
          contentType = PROBLEM_CONTENT_TYPE;
        } else {
          row = this.erp.store.appendOne({
            ...base, businessDate: today, outcome: 'ok', objectType: decision.objectType, objectId: decision.objectId,
            type: decision.event.type, data: decision.event.data, allocated,
          });
          const view = route.view?.(this.read, decision.objectId, actor) ?? { id: decision.objectId };
          status = route.status ?? 200;
          responseBody = maskBankNumbers({ ...(view as object), event_id: row.seq, business_date: today }, actor.permissions);
          contentType = 'application/json';
        }
        const text = JSON.stringify(responseBody);
        if (key !== null) this.saveKey.run(actor.id, key, requestHash, row.seq, status, text);
        return { status, headers: { 'content-type': contentType, [BUSINESS_DATE_HEADER]: today }, body: text };
      });
    } catch (err) {
      if (err instanceof EventRejected) return this.refuseAndRecord(base, 422, 'invalid_request', err.message, body);
      const message = err instanceof Error ? err.message : String(err);
      return this.refuseAndRecord(base, 500, 'internal_error', `The server failed to process the request: ${message.split('\n')[0]}`, body);
    }
  }

  /** Records the refused request as a probe row and returns its problem response. */
  private refuseAndRecord(base: Omit<NewEvent, 'businessDate' | 'outcome' | 'data'>, status: number, code: string, detail: string, data: unknown): ApiResponse {
    const today = this.today();
    this.erp.store.appendOne({ ...base, businessDate: today, outcome: 'refused', errorCode: code, data: data ?? {} });
    return respond(status, JSON.stringify(problem(status, code, detail, today)), PROBLEM_CONTENT_TYPE, today);
  }

  private validator(route: RouteDef, part: 'body' | 'query' | 'params'): ValidateFunction {
    let cached = validators.get(route);
    if (!cached) {
      cached = {};
      validators.set(route, cached);
    }
    if (part === 'body') return (cached.body ??= ajv.compile((route as ActionDef).body));
    if (part === 'params') return (cached.params ??= ajv.compile(route.params ?? { type: 'object' }));
    return (cached.query ??= ajvQuery.compile((route as QueryDef).query));
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

function json(status: number, body: object, today: string): ApiResponse {
  return respond(status, JSON.stringify(body), 'application/json', today);
}

function respond(status: number, text: string, contentType?: string, today?: string): ApiResponse {
  const type = contentType ?? (status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json');
  const date = today ?? (JSON.parse(text) as { business_date?: string }).business_date ?? '';
  return { status, headers: { 'content-type': type, [BUSINESS_DATE_HEADER]: date }, body: text };
}
