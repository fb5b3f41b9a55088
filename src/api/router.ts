import type { RouteDef } from '../domain/action';

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: RouteDef;
  segments: { literal?: string; param?: string }[];
}

export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g)].map((m) => m[1]!);
}

/**
 * Matches request paths against the registry's `{param}` templates. A literal segment beats a
 * parameter at the same position, so `/reports/trial-balance` is never read as `/reports/{id}`.
 */
export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly RouteDef[]) {
    const seen = new Set<string>();
    for (const r of routes) {
      const sig = `${r.method} ${r.path.replace(/\{[^}]+\}/g, '{}')}`;
      if (seen.has(sig)) throw new Error(`Route ${r.method} ${r.path} is registered twice.`);
      seen.add(sig);
    }
    this.compiled = routes.map((route) => ({
      route,
      segments: route.path.split('/').filter(Boolean).map((s) => {
        const m = /^\{([a-zA-Z_][a-zA-Z0-9_]*)\}$/.exec(s);
        return m ? { param: m[1] } : { literal: s };
      }),
    }));
    // Most literal segments first: specific routes win over parameterised ones.
    this.compiled.sort((a, b) => literalScore(b) - literalScore(a));
  }

  /** The route for a method and path; `methodNotAllowed` when the path exists under other methods. */
  match(method: string, path: string): RouteMatch | { methodNotAllowed: string[] } | undefined {
    let parts: string[];
    try {
      parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      return undefined;
    }
    const allowed: string[] = [];
    for (const c of this.compiled) {
      const params = matchSegments(c, parts);
      if (!params) continue;
      if (c.route.method === method) return { route: c.route, params };
      allowed.push(c.route.method);
    }
    return allowed.length ? { methodNotAllowed: [...new Set(allowed)].sort() } : undefined;
  }
}

function literalScore(c: CompiledRoute): number {
  return c.segments.reduce((score, s, i) => score + (s.literal ? 2 ** (16 - i) : 0), 0);
}

function matchSegments(c: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (c.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = c.segments[i]!;
    if (seg.literal !== undefined) {
      if (seg.literal !== parts[i]) return undefined;
    } else {
      if (parts[i]!.length === 0 || parts[i]!.length > 120) return undefined;
      params[seg.param!] = parts[i]!;
    }
  }
  return params;
}
