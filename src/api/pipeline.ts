import type { ValidateFunction } from 'ajv';
import type { Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { ActionDef, QueryDef, RouteDef } from '../domain/action';
import { isRefusal, type Actor, type DecideContext, type Decision } from '../domain/decision';
import { maskBankNumbers } from '../domain/master/bank-masking';
import { writeLater } from '../events/database';
import { EventRejected } from '../events/event-types';
import type { EventRow, NewEvent } from '../events/event-row';
import { describeErrors } from '../events/json-schema';
import { validatorFor } from '../events/validators';
import { buildQueries, type Queries } from '../projections';
import type { ErpDb } from '../projections/erp-db';
import { ActorCache, SYSTEM_ACTOR } from './actors';
import { InProcessViews, type InProcessResponse } from './in-process';
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
  /** Bytes one user may add to the log between two moves of the clock (LOG_BYTES_PER_TURN by default). */
  logBytesPerTurn?: number;
}

/** What the pipeline decided for one request, before it is rendered for HTTP or an in-process caller. */
interface Reply {
  status: number;
  contentType: string;
  today: string;
  /** Headers beyond the content type and the business date (Link, Allow, WWW-Authenticate, Idempotent-Replayed). */
  headers?: Record<string, string>;
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
/** On the first response given again to a retry with its Idempotency-Key (the IETF draft's name). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 200;
const AUTH_CHALLENGE = 'Bearer realm="bb-erp"';
/** The schema of a route's path parameters when it declares none. */
export const ANY_OBJECT = { type: 'object' } as const;

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
  readonly router: Router;
  readonly inProcess: InProcessMode;
  private readonly readRules: ObjectReadRules;
  private readonly logBytesPerTurn?: number;
  private db!: { erp: ErpDb; read: Queries; actors: ActorCache; budget: LogBudget; findKey: Statement; saveKey: Statement };
  private readonly views = new InProcessViews();
  private bankNumbers: { count: number; numbers: ReadonlySet<string> } = { count: -1, numbers: new Set() };

  constructor(erp: ErpDb, readonly routes: readonly RouteDef[], options: ApiOptions = {}) {
    this.router = new Router(routes);
    this.inProcess = options.inProcess ?? (process.env.BB_ERP_IN_PROCESS === 'per-request' ? 'per-request' : 'batched');
    this.logBytesPerTurn = options.logBytesPerTurn;
    this.readRules = new ObjectReadRules(routes, (route, input, ctx) => this.runQuery(route, input.params, input.query, ctx.actor));
    this.replaceDatabase(erp);
  }

  get erp(): ErpDb {
    return this.db.erp;
  }

  get read(): Queries {
    return this.db.read;
  }

  /** What each user has added to the log this turn, counted for the database being served. */
  get budget(): LogBudget {
    return this.db.budget;
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
      erp, read, actors: new ActorCache(read, erp.tables), budget: new LogBudget(erp.db, this.logBytesPerTurn),
      findKey: erp.db.prepare('SELECT request_hash, status, response, seq FROM idempotency WHERE actor = ? AND key = ?'),
      saveKey: erp.db.prepare('INSERT INTO idempotency (actor, key, request_hash, seq, status, response) VALUES (?, ?, ?, ?, ?, ?)'),
    };
    this.bankNumbers = { count: -1, numbers: new Set() };
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
    return route.kind === 'query' ? this.query(route, params, req, actor, method) : this.action(route, params, req, actor, inProcess);
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
    if (reply.text !== undefined) return { status: reply.status, body: JSON.parse(reply.text) };
    return { status: reply.status, body: reply.view ? this.lazyBody(`${route.method} ${route.path}`, reply) : reply.body };
  }

  private lazyBody(request: string, reply: Reply): object {
    return this.views.lazy(request, { event_id: reply.seq, business_date: reply.today }, reply.view!);
  }

  /** Records a request refused outside the pipeline (the control port) as a probe row. */
  recordProbe(p: { method: string; path: string; action: string; code: string; status: number; detail: string; data?: unknown; headers?: Record<string, string> }): ApiResponse {
    const kind = p.method === 'GET' || p.method === 'HEAD' ? 'read' : 'write';
    return render(this.refuseAndRecord({ kind, method: p.method, path: p.path, actor: 'anonymous', tokenId: null, action: p.action }, p.status, p.code, p.detail, p.data ?? {}, p.headers));
  }

  private query(route: QueryDef, params: Record<string, string>, req: ApiRequest, actor: Actor, method: string): Reply {
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
    return { status: 200, contentType: 'application/json', today, body, ...(links ? { headers: { Link: links } } : {}) };
  }

  /** A query's result for an actor, with no row: what a request would be answered, or what /audit may show. */
  private runQuery(route: QueryDef, params: Record<string, string>, query: Record<string, unknown>, actor: Actor): unknown {
    return route.run({ params, query: query as never }, { actor, today: this.today(), read: this.read, tables: this.erp.tables, mayRead: (type, id) => this.readRules.mayRead(actor, type, id) });
  }

  private action(route: ActionDef, params: Record<string, string>, req: ApiRequest, actor: Actor, inProcess: boolean): Reply {
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
      return this.decideAndCommit(route, params, body, key, actor, base, inProcess);
    } catch (err) {
      return this.failed(base, err, body);
    }
  }

  private decideAndCommit(route: ActionDef, params: Record<string, string>, body: unknown, key: string | null, actor: Actor, base: RowBase, inProcess: boolean): Reply {
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
        return { status: prior.status, contentType: prior.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json', today: businessDateOf(prior.response) ?? '', text: prior.response, headers: { [REPLAYED_HEADER]: 'true' } };
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
    let reply: Reply;
    try {
      reply = this.erp.transaction((): Reply => {
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
        let out: Reply;
        if (!decision.ok) {
          row = this.erp.store.appendOneWithin({ ...base, businessDate: today, outcome: 'refused', errorCode: decision.code, data: boundedPayload(body) });
          out = { status: decision.status, contentType: PROBLEM_CONTENT_TYPE, today, body: problem(decision.status, decision.code, decision.detail, today, row.seq) };
        } else {
          row = this.erp.store.appendOneWithin({
            ...base, businessDate: today, outcome: 'ok', objectType: decision.objectType, objectId: decision.objectId,
            type: decision.event.type, data: decision.event.data, allocated,
          });
          const seq = row.seq;
          const objectId = decision.objectId;
          const view = () => this.masked({ ...((route.view?.(this.read, objectId, actor) ?? { id: objectId }) as object), event_id: seq, business_date: today }, actor);
          out = { status: route.status ?? 200, contentType: 'application/json', today, seq, ...(inProcess ? { view } : { body: view() }) };
        }
        if (key !== null) {
          // Nobody reads an in-process write's response: a retry of one gets what identifies it.
          const text = out.body !== undefined ? JSON.stringify(out.body) : JSON.stringify({ id: decision.ok ? decision.objectId : undefined, event_id: row.seq, business_date: today });
          writeLater(this.erp.db, this.saveKey, [actor.id, key, requestHash, row.seq, out.status, text]);
          if (!inProcess) out = { ...out, text, body: undefined };
        }
        committed = row;
        return out;
      });
    } catch (err) {
      if (err instanceof EventRejected) return this.refuseAndRecord(base, 422, 'invalid_request', err.message, body);
      const constraint = constraintRefusal(err);
      if (constraint) return this.refuseAndRecord(base, 422, constraint.code, constraint.detail, body);
      throw err;
    }
    this.budget.add([committed!]);
    return reply;
  }

  /** A fault of the server, not of the request: recorded as what was asked, answered 500. */
  private failed(base: RowBase, err: unknown, asked: unknown): Reply {
    // The caller learns only that the server failed; what failed (an SQL text, a path) is for the
    // operator, in the row's server_fault.
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    const recorded = asked && typeof asked === 'object' && !Array.isArray(asked) ? { ...asked, server_fault: message } : { asked, server_fault: message };
    return this.refuseAndRecord(base, 500, 'internal_error', 'The server failed to process the request; the fault is in the audit log.', recorded);
  }

  /** Records the refused request as a probe row (its payload bounded) and returns its problem response. */
  private refuseAndRecord(base: RowBase, status: number, code: string, detail: string, data: unknown, headers?: Record<string, string>): Reply {
    const today = this.today();
    const row = this.append({ ...base, businessDate: today, outcome: 'refused', errorCode: code, data: boundedPayload(data ?? {}) });
    return { status, contentType: PROBLEM_CONTENT_TYPE, today, body: problem(status, code, detail, today, row.seq), ...(headers ? { headers } : {}) };
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

function render(reply: Reply): ApiResponse {
  const text = reply.text ?? JSON.stringify(reply.body ?? reply.view?.());
  return { status: reply.status, headers: { 'content-type': reply.contentType, [BUSINESS_DATE_HEADER]: reply.today, ...(reply.headers ?? {}) }, body: text };
}

/** The business date a stored response names (a retry's header repeats the first response's). */
function businessDateOf(text: string): string | undefined {
  return (JSON.parse(text) as { business_date?: string }).business_date;
}
