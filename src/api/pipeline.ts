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
import { boundedPayload, LogBudget } from './log-growth';
import { pageInfo, pageLinks } from './pagination';
import { problem, PROBLEM_CONTENT_TYPE } from './problem';
import type { BodyError } from './request-body';
import { ObjectReadRules } from './read-rules';
import { Router } from './router';

export interface ApiRequest {
  method: string;
  /** The path without its query string. */
  path: string;
  query?: Record<string, unknown>;
  /** The parsed JSON body; undefined when there was none. */
  body?: unknown;
  /** Set by the HTTP layer when the body could not be read. */
  bodyError?: BodyError;
  token?: string | null;
  /** Set by the HTTP layer when an Authorization header used a scheme other than Bearer. */
  authScheme?: string;
  idempotencyKey?: string | null;
  /** In-process only (generators, the clock): act as the system actor. The HTTP layer never sets it. */
  asSystem?: boolean;
  /** Set by the HTTP layer: the request came from a client, so the per-turn log budget applies. */
  remote?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const BUSINESS_DATE_HEADER = 'ERP-Business-Date';
/** On the first response given again to a retry with its Idempotency-Key (the IETF draft's name). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 200;
const AUTH_CHALLENGE = 'Bearer realm="bb-erp"';

/** Compiled once per route for the whole process: compiling is far slower than validating. */
const validators = new WeakMap<RouteDef, CachedValidators>();

interface CachedValidators {
  body?: ValidateFunction;
  query?: ValidateFunction;
  params?: ValidateFunction;
}

type RowBase = Omit<NewEvent, 'businessDate' | 'outcome' | 'data'>;

/**
 * The one write path (DESIGN §3) and the read path, independent of HTTP: auth → route →
 * validation → idempotency → decide → one transaction (event row + read models) → response.
 * Express adapts requests to it; in-process callers (simulator, generators) call it directly.
 * Every request leaves exactly one row, and nothing a request sends makes it answer 5xx: a fault
 * of the server itself is recorded as what was asked and answered 500.
 */
export class Api {
  readonly read: Queries;
  readonly router: Router;
  readonly budget: LogBudget;
  private readonly readRules: ObjectReadRules;
  private readonly findKey;
  private readonly saveKey;
  private bankNumbers: { count: number; numbers: ReadonlySet<string> } = { count: -1, numbers: new Set() };

  constructor(readonly erp: ErpDb, readonly routes: readonly RouteDef[], options: { logBytesPerTurn?: number } = {}) {
    this.read = buildQueries(erp.tables);
    this.router = new Router(routes);
    this.budget = new LogBudget(erp.db, options.logBytesPerTurn);
    this.readRules = new ObjectReadRules(routes, (route, input, ctx) => this.runQuery(route, input.params, input.query, ctx.actor));
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
      const detail = req.authScheme === 'no' ? 'The Authorization header names no scheme; send Authorization: Bearer <token>.'
        : req.authScheme ? `The Authorization header uses the ${req.authScheme} scheme; send Authorization: Bearer <token>.`
        : req.token ? 'The bearer token is not valid.' : 'A bearer token is required (Authorization: Bearer <token>).';
      const challenge = req.token ? `${AUTH_CHALLENGE}, error="invalid_token"` : AUTH_CHALLENGE;
      return this.refuseAndRecord({ ...base, actor: 'anonymous', tokenId: null, action: 'auth' }, 401, 'unauthorized', detail, {}, { 'WWW-Authenticate': challenge });
    }
    const who = { actor: actor.id, tokenId: actor.tokenId };
    if (req.remote && !actor.system && this.budget.exhausted(actor.id)) {
      return this.refuseAndRecord({ ...base, ...who, action: 'budget' }, 429, 'log_budget_exceeded',
        `Your requests have added ${formatBytes(this.budget.used(actor.id))} to the audit log this turn, and one user may add ${formatBytes(this.budget.limit)}; the budget starts again when the clock next moves.`, {});
    }

    // HEAD is GET without the body (the HTTP layer drops it), recorded as the HEAD it was.
    const match = this.router.match(method === 'HEAD' ? 'GET' : method, req.path);
    if (!match) return this.refuseAndRecord({ ...base, ...who, action: 'route' }, 404, 'not_found', `No endpoint ${method} ${req.path}; see GET /openapi.json or \`erp docs\`.`, {});
    if ('methodNotAllowed' in match) {
      const allowed = match.methodNotAllowed.includes('GET') ? [...match.methodNotAllowed, 'HEAD'].sort() : match.methodNotAllowed;
      return this.refuseAndRecord({ ...base, ...who, action: 'route' }, 405, 'method_not_allowed', `${req.path} accepts ${allowed.join(', ')}, not ${method}.`, {}, { Allow: allowed.join(', ') });
    }
    const { route, params } = match;
    return route.kind === 'query' ? this.query(route, params, req, actor, method) : this.action(route, params, req, actor);
  }

  /**
   * Runs an action that has no public route (the clock) through the same write path, as the
   * system actor: validation, decider, one transaction, the event row.
   */
  runInternal(route: ActionDef, body: unknown, params: Record<string, string> = {}): ApiResponse {
    return this.action(route, params, { method: route.method, path: route.path, body, asSystem: true }, SYSTEM_ACTOR);
  }

  /** Records a request refused outside the pipeline (the control port) as a probe row. */
  recordProbe(p: { method: string; path: string; action: string; code: string; status: number; detail: string; data?: unknown; headers?: Record<string, string> }): ApiResponse {
    const kind = p.method === 'GET' || p.method === 'HEAD' ? 'read' : 'write';
    return this.refuseAndRecord({ kind, method: p.method, path: p.path, actor: 'anonymous', tokenId: null, action: p.action }, p.status, p.code, p.detail, p.data ?? {}, p.headers);
  }

  private query(route: QueryDef, params: Record<string, string>, req: ApiRequest, actor: Actor, method: string): ApiResponse {
    const base = { kind: 'read' as const, method, path: req.path, actor: actor.id, tokenId: actor.tokenId, action: `get ${route.path}`, objectType: route.objectType ?? null, objectId: params.id ?? null };
    // What was asked, as it was asked: a refused or failed read is recorded with it.
    const asked = { params, query: req.query ?? {} };
    if (req.bodyError) return this.refuseAndRecord(base, req.bodyError.status, req.bodyError.code, req.bodyError.detail, asked);
    const badPath = this.badParams(route, params);
    if (badPath) return this.refuseAndRecord(base, 400, 'invalid_request', badPath, asked);
    const query: Record<string, unknown> = { ...(req.query ?? {}) };
    const validate = this.validator(route, 'query');
    if (!validate(query)) return this.refuseAndRecord(base, 400, 'invalid_request', describeErrors(validate.errors, 'query'), asked);
    const outOfRange = unsafeNumber(query);
    if (outOfRange) return this.refuseAndRecord(base, 400, 'invalid_request', `query.${outOfRange} must be a finite number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`, asked);
    if (route.permission && !actor.permissions.has(route.permission)) {
      return this.refuseAndRecord(base, 403, 'forbidden', `Reading ${route.path} needs the ${route.permission} permission, which your roles do not grant.`, asked);
    }
    const today = this.today();
    let body: object;
    let links: string | undefined;
    try {
      const result = this.runQuery(route, params, query, actor);
      if (result === undefined) return this.refuseAndRecord(base, 404, 'not_found', `No ${route.objectType ?? 'document'} ${params.id ?? req.path}.`, asked);
      if (isRefusal(result)) return this.refuseAndRecord(base, result.status, result.code, result.detail, asked);
      const page = pageInfo(result);
      links = page && pageLinks(req.path, req.query ?? {}, page);
      body = this.masked({ ...(result as object), business_date: today }, actor);
    } catch (err) {
      return this.failed(base, err, asked);
    }
    this.append({ ...base, businessDate: today, outcome: 'ok', data: { params, query } });
    return respond(200, JSON.stringify(body), 'application/json', today, links ? { Link: links } : undefined);
  }

  /** A query's result for an actor, with no row: what a request would be answered, or what /audit may show. */
  private runQuery(route: QueryDef, params: Record<string, string>, query: Record<string, unknown>, actor: Actor): unknown {
    return route.run({ params, query: query as never }, { actor, today: this.today(), read: this.read, tables: this.erp.tables, mayRead: (type, id) => this.readRules.mayRead(actor, type, id) });
  }

  private action(route: ActionDef, params: Record<string, string>, req: ApiRequest, actor: Actor): ApiResponse {
    const key = req.idempotencyKey ?? null;
    const base = { kind: 'write' as const, method: route.method, path: req.path, actor: actor.id, tokenId: actor.tokenId, action: route.action, objectType: route.objectType, objectId: params.id ?? null, idempotencyKey: key };
    if (key !== null && (key.length === 0 || key.length > MAX_KEY_LENGTH)) {
      return this.refuseAndRecord({ ...base, idempotencyKey: key.slice(0, MAX_KEY_LENGTH) }, 400, 'invalid_request', `An Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`, {});
    }
    if (req.bodyError) return this.refuseAndRecord(base, req.bodyError.status, req.bodyError.code, req.bodyError.detail, {});
    const badPath = this.badParams(route, params);
    if (badPath) return this.refuseAndRecord(base, 400, 'invalid_request', badPath, { params });
    const body = req.body === undefined ? {} : req.body;
    try {
      return this.decideAndCommit(route, params, body, key, actor, base);
    } catch (err) {
      return this.failed(base, err, body);
    }
  }

  private decideAndCommit(route: ActionDef, params: Record<string, string>, body: unknown, key: string | null, actor: Actor, base: RowBase): ApiResponse {
    // Only a request with a key is ever compared with another, so only then is it hashed.
    const requestHash = key === null ? '' : hashRequest(route.method, base.path ?? route.path, body);
    if (key !== null) {
      const prior = this.findKey.get(actor.id, key) as { request_hash: string; status: number; response: string; seq: number } | undefined;
      if (prior) {
        if (prior.request_hash !== requestHash) {
          return this.refuseAndRecord(base, 422, 'idempotency_key_reused', `Idempotency-Key ${key} was already used for a different request; use a new key for a new request.`, body);
        }
        // A retry: the first response, byte for byte, and no new effect. The row records the retry.
        this.append({ ...base, businessDate: this.today(), outcome: 'ok', data: { idempotent_replay_of: prior.seq } });
        return respond(prior.status, prior.response, undefined, undefined, { [REPLAYED_HEADER]: 'true' });
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

    let committed: EventRow | undefined;
    let response: ApiResponse;
    try {
      response = this.erp.transaction(() => {
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
          row = this.erp.store.appendOne({ ...base, businessDate: today, outcome: 'refused', errorCode: decision.code, data: boundedPayload(body) });
          status = decision.status;
          responseBody = problem(status, decision.code, decision.detail, today, row.seq);
          contentType = PROBLEM_CONTENT_TYPE;
        } else {
          row = this.erp.store.appendOne({
            ...base, businessDate: today, outcome: 'ok', objectType: decision.objectType, objectId: decision.objectId,
            type: decision.event.type, data: decision.event.data, allocated,
          });
          const view = route.view?.(this.read, decision.objectId, actor) ?? { id: decision.objectId };
          status = route.status ?? 200;
          responseBody = this.masked({ ...(view as object), event_id: row.seq, business_date: today }, actor);
          contentType = 'application/json';
        }
        const text = JSON.stringify(responseBody);
        if (key !== null) this.saveKey.run(actor.id, key, requestHash, row.seq, status, text);
        committed = row;
        return { status, headers: { 'content-type': contentType, [BUSINESS_DATE_HEADER]: today }, body: text };
      });
    } catch (err) {
      if (err instanceof EventRejected) return this.refuseAndRecord(base, 422, 'invalid_request', err.message, body);
      const constraint = constraintRefusal(err);
      if (constraint) return this.refuseAndRecord(base, 422, constraint.code, constraint.detail, body);
      throw err;
    }
    this.budget.add([committed!]);
    return response;
  }

  /** A fault of the server, not of the request: recorded as what was asked, answered 500. */
  private failed(base: RowBase, err: unknown, asked: unknown): ApiResponse {
    const message = err instanceof Error ? err.message : String(err);
    return this.refuseAndRecord(base, 500, 'internal_error', `The server failed to process the request: ${message.split('\n')[0]}`, asked);
  }

  /** Records the refused request as a probe row (its payload bounded) and returns its problem response. */
  private refuseAndRecord(base: RowBase, status: number, code: string, detail: string, data: unknown, headers?: Record<string, string>): ApiResponse {
    const today = this.today();
    const row = this.append({ ...base, businessDate: today, outcome: 'refused', errorCode: code, data: boundedPayload(data ?? {}) });
    return respond(status, JSON.stringify(problem(status, code, detail, today, row.seq)), PROBLEM_CONTENT_TYPE, today, headers);
  }

  private append(event: NewEvent): EventRow {
    const row = this.erp.store.appendOne(event);
    this.budget.add([row]);
    return row;
  }

  /** Bank numbers masked for readers without the grant: named fields, and the numbers on file wherever they are written. */
  private masked<T>(body: T, actor: Actor): T {
    if (actor.system) return body;
    const count = this.read.vendors.bankAccountCount();
    if (count !== this.bankNumbers.count) this.bankNumbers = { count, numbers: new Set(this.read.vendors.bankNumbers()) };
    return maskBankNumbers(body, actor.permissions, this.bankNumbers.numbers);
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

/**
 * A query value the coercing validator turned into a number no SQL integer or exact decimal can
 * hold (`limit=Infinity`, `offset=1e400`): ajv does not check a coerced value's finiteness.
 */
function unsafeNumber(query: Record<string, unknown>): string | undefined {
  for (const [k, v] of Object.entries(query)) {
    if (typeof v === 'number' && !(Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER)) return k;
  }
  return undefined;
}

/**
 * A read model refusing what a decider let through (a UNIQUE key: the same PO line acknowledged
 * twice in one request). The transaction has rolled back, so nothing was written: it is the
 * request that is wrong, and the refusal names the rule it broke.
 */
function constraintRefusal(err: unknown): { code: string; detail: string } | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_CONSTRAINT')) return undefined;
  const message = (err as Error).message;
  const unique = /^UNIQUE constraint failed: (.+)$/.exec(message);
  if (unique) {
    const columns = unique[1]!.split(', ');
    const table = columns[0]!.split('.')[0]!;
    return { code: 'duplicate_entry', detail: `The request names the same ${columns.map((c) => c.split('.')[1]).join(' and ')} of ${table} twice, or one that already exists.` };
  }
  return { code: 'invalid_request', detail: `The request breaks a rule of the books: ${message}.` };
}

function formatBytes(n: number): string {
  return n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
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

function respond(status: number, text: string, contentType?: string, today?: string, extra?: Record<string, string>): ApiResponse {
  const type = contentType ?? (status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json');
  const date = today ?? (JSON.parse(text) as { business_date?: string }).business_date ?? '';
  return { status, headers: { 'content-type': type, [BUSINESS_DATE_HEADER]: date, ...(extra ?? {}) }, body: text };
}
