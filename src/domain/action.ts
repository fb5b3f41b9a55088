import type { TObject, TSchema, Static } from '@sinclair/typebox';
import type { EventContract } from '../events/event-types';
import type { Queries } from '../projections';
import type { TableAccess, Where } from '../projections/table-access';
import type { Actor, DecideContext, Decision } from './decision';

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
  response?: TSchema;
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
  response?: TSchema;
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

/** One page of a read-model table, filtered by equality on the given columns. */
export function listPage<T = Record<string, unknown>>(
  tables: TableAccess,
  table: string,
  where: Where,
  query: { offset?: number; limit?: number },
  options: { orderBy?: string | readonly string[]; map?: (row: Record<string, unknown>) => T } = {},
): ListPage<T> {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 200;
  const rows = tables.find(table, where, { orderBy: options.orderBy, offset, limit });
  return { items: options.map ? rows.map(options.map) : (rows as T[]), total: tables.count(table, where), offset, limit };
}
