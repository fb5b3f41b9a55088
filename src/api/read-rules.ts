import type { QueryContext, QueryDef, RouteDef } from '../domain/action';
import { isRefusal, type Actor } from '../domain/decision';
import { validatorFor } from '../events/validators';
import { pathParams } from './router';

type RunQuery = (route: QueryDef, input: { params: Record<string, string>; query: Record<string, unknown> }, ctx: Pick<QueryContext, 'actor'>) => unknown;

interface DetailRoute {
  route: QueryDef;
  /** The route's own query defaults (an as_of of today, say); undefined when it needs more than an id. */
  query?: Record<string, unknown>;
}

/**
 * Each document type's read rules, taken from its own endpoint (`GET /messages/{id}`): the
 * permission the route needs and whatever visibility its handler applies (a message in a box the
 * reader cannot open answers 404). A route that shows other documents' contents, such as /audit,
 * asks here before it shows them. A type with no endpoint of its own has no rule beyond the route's.
 */
export class ObjectReadRules {
  private detail?: Map<string, DetailRoute>;

  constructor(private readonly routes: readonly RouteDef[], private readonly run: RunQuery) {}

  mayRead(actor: Actor, objectType: string, id: string): boolean {
    if (actor.system) return true;
    const d = this.detailRoute(objectType);
    if (!d) return true;
    if (d.route.permission && !actor.permissions.has(d.route.permission)) return false;
    if (!d.query) return true;
    try {
      const result = this.run(d.route, { params: { id }, query: { ...d.query } }, { actor });
      return result !== undefined && !isRefusal(result);
    } catch {
      return false;
    }
  }

  private detailRoute(objectType: string): DetailRoute | undefined {
    if (!this.detail) {
      this.detail = new Map();
      for (const r of this.routes) {
        if (r.kind !== 'query' || !r.objectType || this.detail.has(r.objectType)) continue;
        const params = pathParams(r.path);
        if (params.length === 1 && params[0] === 'id') this.detail.set(r.objectType, { route: r });
      }
    }
    const d = this.detail.get(objectType);
    if (d && !('query' in d)) {
      const query: Record<string, unknown> = {};
      d.query = validatorFor('query', d.route.query)(query) ? query : undefined;
    }
    return d;
  }
}
