import { advanceTo, type DayHook } from '../api/control-app';
import type { Api } from '../api/pipeline';
import { issueTokens, type Credentials } from './credentials';

export class BuildError extends Error {}

export interface CallResult {
  status: number;
  body: any;
}

/**
 * How generators build a scenario: every change is a request through the one pipeline, as the
 * system for bootstrap data and as named users (with their tokens) for everything they did.
 */
export class ScenarioBuilder {
  /** The secrets of the tokens this build issued: in memory only, gone with the process. */
  readonly tokens: Credentials = {};

  constructor(readonly api: Api, readonly seed: number) {}

  /** A request as the system actor; anything but success is a bug in the generator. */
  sys(method: 'POST' | 'GET', path: string, body?: unknown, query?: Record<string, unknown>): any {
    return this.expectOk(this.api.call({ method, path, body, query, asSystem: true }), `system ${method} ${path}`);
  }

  /** A request as a user; `expectOk` false returns refusals instead of throwing. */
  as(userId: string, method: 'POST' | 'GET', path: string, body?: unknown, options: { query?: Record<string, unknown>; key?: string; expectOk?: boolean } = {}): CallResult | any {
    const token = this.tokens[userId];
    if (!token) throw new BuildError(`No token issued for ${userId}.`);
    const res = this.api.call({ method, path, body, query: options.query, token, idempotencyKey: options.key ?? null });
    if (options.expectOk === false) return res;
    return this.expectOk(res, `${userId} ${method} ${path}`);
  }

  /**
   * Issues a random token for each user, for this build's own requests. Nothing keeps the secrets
   * past the build: every later run (scenario, attempt) issues its own.
   */
  issueTokens(userIds: readonly string[]): void {
    Object.assign(this.tokens, issueTokens(this.api, userIds, 'scenario').secrets);
  }

  /** The users this build holds tokens for, sorted: world.json's `users`. */
  users(): string[] {
    return Object.keys(this.tokens).sort();
  }

  advanceTo(date: string, onDay?: DayHook): void {
    advanceTo(this.api, date, onDay);
  }

  today(): string {
    return this.api.today();
  }

  private expectOk(res: CallResult, what: string): any {
    if (res.status >= 300) throw new BuildError(`${what} failed (${res.status} ${res.body.code}): ${res.body.detail}`);
    return res.body;
  }
}

/** Expands permission patterns (`ap_invoice.*`) against the permissions that exist. */
export function resolveGrants(patterns: readonly string[], available: readonly string[]): { permissions: string[]; unmatched: string[] } {
  const permissions = new Set<string>();
  const unmatched: string[] = [];
  for (const p of patterns) {
    const re = new RegExp(`^${p.replace(/\./g, '\\.').replace(/\*/g, '[a-z_]+')}$`);
    const hits = available.filter((a) => re.test(a));
    if (hits.length === 0) unmatched.push(p);
    for (const h of hits) permissions.add(h);
  }
  return { permissions: [...permissions].sort(), unmatched };
}
