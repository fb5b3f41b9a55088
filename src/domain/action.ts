import type { TObject, Static } from '@sinclair/typebox';
import type { EventContract } from '../events/event-types';
import type { Queries } from '../projections';
import type { TableAccess, Where } from '../projections/table-access';
import type { TableSpec } from '../projections/table-spec';
import { refuse, type Actor, type DecideContext, type Decision, type Refusal } from './decision';

export type WriteMethod = 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One state-changing action, declared once: its route, request schema, permission, the events it
 * may emit and its decider. Routing, validation, the OpenAPI document and `erp docs` derive from it.
 */
export interface ActionDef<B extends TObject = TObject> {
  kind: 'action';
  /** Machine action code recorded on the event row, e.g. `purchase_order.send`. */
  action: string;
  method: WriteMethod;
  /** Path with `{param}` segments, e.g. `/purchase-orders/{id}/send`. */
  path: string;
  /** Schemas of the path parameters; each defaults to a non-empty string. */
  params?: TObject;
  summary: string;
  description?: string;
  tag: string;
  body: B;
  /** Permission the actor's roles must grant; null for any signed-in user. */
  permission: string | null;
  objectType: string;
  emits: readonly EventContract[];
  /** 201 for actions that create a document, 200 otherwise. */
  status?: 200 | 201;
  decide(input: { params: Record<string, string>; body: Static<B> }, ctx: DecideContext): Decision;
  /** The response body after success (the document as it now stands). */
  view?(read: Queries, objectId: string, actor: Actor): unknown;
}

export interface QueryContext {
  actor: Actor;
  today: string;
  read: Queries;
  /** Row access for list endpoints (filters, order, offset/limit); read-only by convention. */
  tables: TableAccess;
  /**
   * Whether the actor could read a document of this type at its own endpoint (GET /messages/{id}
   * and the like): its permission and its rules of visibility. For routes that show other
   * documents' contents, such as /audit.
   */
  mayRead(objectType: string, id: string): boolean;
}

/**
 * A read endpoint. `run` returns the body, undefined for a missing document (404), or a Refusal
 * when the rule depends on the request (a box the caller may not read); either is recorded as a probe.
 */
export interface QueryDef<Q extends TObject = TObject> {
  kind: 'query';
  method: 'GET';
  path: string;
  params?: TObject;
  summary: string;
  description?: string;
  tag: string;
  query: Q;
  permission: string | null;
  objectType?: string;
  run(input: { params: Record<string, string>; query: Static<Q> }, ctx: QueryContext): unknown;
}

export type RouteDef = ActionDef<TObject> | QueryDef<TObject>;

export function defineAction<B extends TObject>(def: Omit<ActionDef<B>, 'kind'>): ActionDef<TObject> {
  return { kind: 'action', ...def } as unknown as ActionDef<TObject>;
}

export function defineQuery<Q extends TObject>(def: Omit<QueryDef<Q>, 'kind' | 'method'>): QueryDef<TObject> {
  return { kind: 'query', method: 'GET', ...def } as unknown as QueryDef<TObject>;
}

export interface ListPage<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}

/**
 * The order a list's `sort` asks for (`-due_date,vendor`), as ORDER BY terms over the table's
 * columns with its key after them, so that ties keep one order; undefined when none is asked for,
 * a Refusal naming a field the rows cannot be ordered by.
 */
export function sortOrder(spec: TableSpec, sort: string | undefined): string[] | Refusal | undefined {
  if (sort === undefined) return undefined;
  const terms = sort.split(',').map((f) => (f.startsWith('-') ? { column: f.slice(1), desc: true } : { column: f, desc: false }));
  const unknown = terms.filter((t) => !(t.column in spec.columns) || spec.columns[t.column] === 'json');
  if (unknown.length) {
    const sortable = Object.keys(spec.columns).filter((c) => spec.columns[c] !== 'json' && !c.endsWith('_wall'));
    return refuse('invalid_request', `sort: the rows cannot be ordered by ${unknown.map((t) => t.column).join(', ')}; fields: ${sortable.join(', ')}.`, 400);
  }
  const named = new Set(terms.map((t) => t.column));
  return [...terms.map((t) => `${t.column}${t.desc ? ' desc' : ''}`), ...spec.key.filter((k) => !named.has(k))];
}

/** sortOrder for a list a route writes its own SQL for: the order over `table`'s columns, or a Refusal. */
export const sortOf = (ctx: QueryContext, table: string, sort: string | undefined) => sortOrder(ctx.tables.spec(table), sort);

/** One page of a read-model table, filtered by equality on the given columns, in the route's order or the one `sort` asks for. */
export function listPage<T = Record<string, unknown>>(
  tables: TableAccess,
  table: string,
  where: Where,
  query: { offset?: number; limit?: number; sort?: string },
  options: { orderBy?: string | readonly string[]; map?: (row: Record<string, unknown>) => T } = {},
): ListPage<T> | Refusal {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 200;
  const sorted = sortOrder(tables.spec(table), query.sort);
  if (sorted && !Array.isArray(sorted)) return sorted;
  const rows = tables.find(table, where, { orderBy: sorted ?? options.orderBy, offset, limit });
  return { items: options.map ? rows.map(options.map) : (rows as T[]), total: tables.count(table, where), offset, limit };
}
