import type { ClientResponse, ErpClient, RequestOptions } from '../../src/client/http-client';
import type { AgentPolicy } from '../../src/task-pack/code';

/**
 * Positive controls made from a pack's oracle: the same judgement, reached in another order an
 * agent may freely choose. The policy's client is wrapped so that a list it reads comes in
 * another order, or a write's lines go in another order; everything else is the oracle's.
 * Only types come from src/, so a copied tasks/shared/ loads on its own.
 */
export interface ClientEdits {
  /** A request's options before it is sent (its body's lines reordered, say). */
  request?(method: string, path: string, options: RequestOptions): RequestOptions;
  /** A response's body before the policy reads it. */
  response?(method: string, path: string, body: any): any;
}

/** The client with its every request (get, post and callTool all make one) passed through the edits. */
export function editedClient(client: ErpClient, edits: ClientEdits): ErpClient {
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<ClientResponse> => {
    const res = await client.request(method, path, edits.request ? edits.request(method, path, options) : options);
    return edits.response && res.status < 300 ? { ...res, body: edits.response(method, path, res.body) } : res;
  };
  return new Proxy(client, { get: (target, prop) => (prop === 'request' ? request : Reflect.get(target, prop, target)) }) as ErpClient;
}

/** The policy played with its client edited. */
export const withEdits = (policy: AgentPolicy, edits: ClientEdits): AgentPolicy => (ctx) => policy({ ...ctx, client: editedClient(ctx.client, edits) });

/** The `items` of the list reads whose path matches, put in another order by `order`: the policy works the list in that order. */
export function listsReordered(policy: AgentPolicy, path: RegExp, order: (items: any[]) => any[]): AgentPolicy {
  return withEdits(policy, {
    response: (method, p, body) => (method === 'GET' && path.test(p.split('?')[0]!) && Array.isArray(body?.items) ? { ...body, items: order([...body.items]) } : body),
  });
}

/** The list reads whose path matches, in the reverse order: the policy works the queue from its other end. */
export const listsReversed = (policy: AgentPolicy, path: RegExp): AgentPolicy => listsReordered(policy, path, (items) => items.reverse());

/** A list started from its middle and wrapped round: the second half first. */
export const fromTheMiddle = <T>(items: T[]): T[] => [...items.slice(Math.floor(items.length / 2)), ...items.slice(0, Math.floor(items.length / 2))];

/** The array field `field` of the writes whose path matches, reordered by `order`: a document's lines entered in another order. */
export function linesReordered(policy: AgentPolicy, path: RegExp, field: string, order: (lines: any[]) => any[]): AgentPolicy {
  return withEdits(policy, {
    request: (method, p, options) => {
      const body = options.body as Record<string, unknown> | undefined;
      if (method === 'GET' || !path.test(p) || !body || !Array.isArray(body[field])) return options;
      return { ...options, body: { ...body, [field]: order([...(body[field] as unknown[])]) } };
    },
  });
}
