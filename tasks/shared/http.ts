import type { ClientResponse, ErpClient } from '../../src/client/http-client';
import type { SimResponse } from '../../src/sim/simulator';

/** The body of a generator's request, or an error naming what failed: a generator stops at the first refusal. */
export function must(res: SimResponse, what: string): any {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Decimal dollars from the API as integer cents. */
export const cents = (amount: number) => Math.round(amount * 100);

/** A policy's read: the body of a 200, or an error naming the path. */
export async function get<T = any>(client: ErpClient, path: string, query?: Record<string, string | number | boolean>): Promise<T> {
  const res = await client.get<T>(path, query);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * A policy's write, sent again while the transport fails (503 or no answer). With an
 * Idempotency-Key it cannot apply twice; without one (`key` undefined) it is a blind retry, as a
 * careless client would make. Any other refusal is an error naming the path.
 */
export async function post(client: ErpClient, path: string, body: unknown, key: string | undefined): Promise<ClientResponse> {
  for (let attempt = 1; ; attempt++) {
    const res = await client.post(path, body, key).catch(() => undefined);
    if (res && res.status !== 503) {
      if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
      return res;
    }
    if (attempt >= 5) throw new Error(`POST ${path}: no answer after ${attempt} tries`);
  }
}
