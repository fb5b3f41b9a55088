import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import type { RequestInterceptor } from './http-app';
import type { ApiRequest, ApiResponse } from './pipeline';
import { BUSINESS_DATE_HEADER, stableStringify } from './pipeline';
import { problem, PROBLEM_CONTENT_TYPE } from './problem';

export type FaultKind = 'fail_before' | 'lost_response' | 'slow';
const KINDS: readonly FaultKind[] = ['fail_before', 'lost_response', 'slow'];
const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export interface FaultRule {
  kind: FaultKind;
  method: string;
  /** Path segments; `*` matches exactly one segment. */
  pattern: string[];
  /** The n-th matching request of the episode (1-based) is hit. */
  nth: number;
  text: string;
}

export type FaultPlan =
  | { type: 'rules'; rules: FaultRule[]; spec: string }
  | { type: 'flaky-writes'; seed: string; rate: number; spec: string };

/**
 * Parses a fault SPEC (seed 000 §7.1): a comma-separated list of `kind:METHOD /path/*@n` rules, or
 * the profile `flaky-writes:seed=S,rate=R` (a seeded share of all writes). Task profile names are
 * resolved to their SPEC before this is called.
 */
export function parseFaultSpec(spec: string): FaultPlan {
  const text = spec.trim();
  if (text.startsWith('flaky-writes:') || text === 'flaky-writes') {
    const params = Object.fromEntries(text.slice('flaky-writes:'.length).split(',').filter(Boolean).map((kv) => {
      const [k, v] = kv.split('=');
      if (!k || v === undefined) throw new Error(`Fault profile flaky-writes: expected key=value, got '${kv}'.`);
      return [k.trim(), v.trim()];
    }));
    for (const k of Object.keys(params)) if (k !== 'seed' && k !== 'rate') throw new Error(`Fault profile flaky-writes has no parameter '${k}' (seed, rate).`);
    const rate = Number(params.rate ?? '0.1');
    if (!(rate > 0 && rate <= 1)) throw new Error(`Fault profile flaky-writes: rate must be in (0, 1], got ${params.rate}.`);
    return { type: 'flaky-writes', seed: params.seed ?? '0', rate, spec: text };
  }
  const rules = text.split(',').map((r) => r.trim()).filter(Boolean).map(parseRule);
  if (rules.length === 0) throw new Error('The fault spec is empty.');
  return { type: 'rules', rules, spec: text };
}

function parseRule(text: string): FaultRule {
  const m = /^([a-z_]+):([A-Z]+)\s+(\/\S*)@(\d+)$/.exec(text);
  if (!m) throw new Error(`Fault rule '${text}' is not of the form kind:METHOD /path/*@n.`);
  const kind = m[1] as FaultKind;
  if (!KINDS.includes(kind)) throw new Error(`Fault rule '${text}': unknown kind ${m[1]} (${KINDS.join(', ')}).`);
  const nth = Number(m[4]);
  if (nth < 1) throw new Error(`Fault rule '${text}': n counts from 1.`);
  return { kind, method: m[2]!, pattern: m[3]!.split('/').filter(Boolean), nth, text };
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method !== method) return false;
  const parts = path.split('/').filter(Boolean);
  return parts.length === rule.pattern.length && rule.pattern.every((p, i) => p === '*' || p === parts[i]);
}

/** One injected fault, as written to faults.jsonl (never to the database or the agent's folder). */
export interface FaultRecord {
  fault: number;
  /** The episode's request counter (1-based) at the faulted request. */
  request: number;
  kind: FaultKind;
  rule: string;
  method: string;
  path: string;
  idempotency_key: string | null;
  /** SHA-256 of method, path and body: how a re-send of the same request is recognised. */
  request_hash: string;
  /** Whether the write reached the ERP and committed behind the failure. */
  committed: boolean;
  status_behind: number | null;
}

export interface FaultOptions {
  /** How long a `slow` response is held back: longer than the CLI's 120-second timeout. */
  slowMs?: number;
  onFault: (record: FaultRecord) => void;
}

/** The byte-identical 503 of both fail_before and lost_response. */
export function unavailableResponse(businessDate: string): ApiResponse {
  return {
    status: 503,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, [BUSINESS_DATE_HEADER]: businessDate },
    body: JSON.stringify(problem(503, 'service_unavailable', 'The service is temporarily unavailable; try again.', businessDate)),
  };
}

export function requestHash(req: Pick<ApiRequest, 'method' | 'path' | 'body'>): string {
  return createHash('sha256').update(`${req.method.toUpperCase()} ${req.path}\n${stableStringify(req.body ?? {})}`).digest('hex');
}

/**
 * The transport-fault layer: decides per request, from the plan and the request sequence alone,
 * whether to fail it, and how. It wraps the pipeline call from outside, so every transaction and
 * commit is exactly what it would have been without it.
 */
export function createFaultInjector(plan: FaultPlan, today: () => string, options: FaultOptions): RequestInterceptor {
  let requests = 0;
  let faults = 0;
  const seen = new Map<FaultRule, number>();
  const rng = plan.type === 'flaky-writes' ? seedrandom(`flaky-writes:${plan.seed}`) : undefined;
  const slowMs = options.slowMs ?? 125_000;

  const decide = (req: ApiRequest): { kind: FaultKind; rule: string } | undefined => {
    const method = req.method.toUpperCase();
    if (plan.type === 'flaky-writes') {
      if (!WRITE_METHODS.has(method)) return undefined;
      const hit = rng!() < plan.rate;
      const kind: FaultKind = rng!() < 0.5 ? 'fail_before' : 'lost_response';
      return hit ? { kind, rule: plan.spec } : undefined;
    }
    let chosen: FaultRule | undefined;
    for (const rule of plan.rules) {
      if (!matches(rule, method, req.path)) continue;
      const n = (seen.get(rule) ?? 0) + 1;
      seen.set(rule, n);
      if (n === rule.nth && !chosen) chosen = rule;
    }
    return chosen ? { kind: chosen.kind, rule: chosen.text } : undefined;
  };

  return async (req, handle) => {
    requests += 1;
    const hit = decide(req);
    if (!hit) return handle(req);
    faults += 1;
    const record: FaultRecord = {
      fault: faults, request: requests, kind: hit.kind, rule: hit.rule, method: req.method.toUpperCase(), path: req.path,
      idempotency_key: req.idempotencyKey ?? null, request_hash: requestHash(req), committed: false, status_behind: null,
    };
    if (hit.kind === 'fail_before') {
      options.onFault(record);
      return unavailableResponse(today());
    }
    const real = handle(req);
    record.committed = real.status < 300 && WRITE_METHODS.has(record.method);
    record.status_behind = real.status;
    options.onFault(record);
    if (hit.kind === 'lost_response') return unavailableResponse(today());
    await new Promise((resolve) => setTimeout(resolve, slowMs));
    return real;
  };
}
