import { createHash } from 'node:crypto';
import type { Actor } from '../domain/decision';
import type { Queries } from '../projections';

export const SYSTEM_ACTOR: Actor = {
  id: 'system',
  name: 'System',
  roles: ['system'],
  permissions: new Proxy(new Set<string>(), { get: (target, prop) => (prop === 'has' ? () => true : Reflect.get(target, prop)) }),
  department: null,
  tokenId: null,
  system: true,
};

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The actor a bearer token belongs to, or undefined for a missing, unknown or revoked token. */
export function actorForToken(read: Queries, token: string | null | undefined): Actor | undefined {
  if (!token) return undefined;
  const row = read.org.tokenBySha(sha256Hex(token));
  if (!row || row.status !== 'active') return undefined;
  return actorForUser(read, row.user_id, row.id);
}

export function actorForUser(read: Queries, userId: string, tokenId: string | null): Actor | undefined {
  const user = read.org.user(userId);
  if (!user) return undefined;
  return {
    id: user.id,
    name: user.name,
    roles: read.org.roles(user.id),
    permissions: new Set(read.org.permissions(user.id)),
    department: user.department,
    tokenId,
    system: false,
  };
}

/** The tables an actor is read from: a write to any of them may change who a token is. */
const ACTOR_TABLES = ['api_tokens', 'users', 'user_roles', 'role_permissions'] as const;

/**
 * Actors by bearer token, kept while the tables they come from are unchanged: a counterparty
 * making a hundred requests a day is resolved once, and a revoked token or a changed role is
 * seen on the very next request.
 */
export class ActorCache {
  private readonly byToken = new Map<string, { actor: Actor; stamp: number }>();

  constructor(private readonly read: Queries, private readonly tables: { version(table: string): number }) {}

  forToken(token: string | null | undefined): Actor | undefined {
    if (!token) return undefined;
    let stamp = 0;
    for (const t of ACTOR_TABLES) stamp = Math.max(stamp, this.tables.version(t));
    const hit = this.byToken.get(token);
    if (hit && hit.stamp === stamp) return hit.actor;
    const actor = actorForToken(this.read, token);
    if (actor) this.byToken.set(token, { actor, stamp });
    else this.byToken.delete(token);
    return actor;
  }
}
