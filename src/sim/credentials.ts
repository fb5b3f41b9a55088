import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../api/actors';
import type { Api } from '../api/pipeline';

/**
 * Bearer secrets by user id. Held in the memory of the process that issued them and handed on in
 * memory (to the simulator, to a policy, to an agent's environment): never written to a file, so
 * that nothing an agent can read, world.json included, holds a token.
 */
export type Credentials = Record<string, string>;

/**
 * A token secret: 160 bits from the operating system's random source. Unlike a seeded draw, no
 * fact of the scenario (seed, user id, dates) lets anyone compute it.
 */
export function newSecret(): string {
  return `erp_${randomBytes(20).toString('hex')}`;
}

export interface IssuedTokens {
  secrets: Credentials;
  /** The token id (TOK-…) of each user's new token: ids come from a counter, so they repeat across runs. */
  ids: Record<string, string>;
}

/**
 * Registers a fresh token for each user through the write path (only its SHA-256 is stored), in
 * the order given, as the system actor. Token ids are deterministic; the secrets are not, and the
 * canonical hash leaves their hashes out (SECRET_FIELDS in src/events/database.ts).
 */
export function issueTokens(api: Api, users: readonly string[], label: string, secretFor: (user: string) => string = newSecret): IssuedTokens {
  const out: IssuedTokens = { secrets: {}, ids: {} };
  for (const user of users) {
    const secret = secretFor(user);
    const res = api.handle({ method: 'POST', path: '/api-tokens', body: { user, token_sha256: sha256Hex(secret), label }, asSystem: true });
    const body = JSON.parse(res.body) as { id?: string; code?: string; detail?: string };
    if (res.status !== 201 || !body.id) throw new Error(`Issuing a token for ${user} failed (${res.status} ${body.code}): ${body.detail}`);
    out.secrets[user] = secret;
    out.ids[user] = body.id;
  }
  return out;
}
