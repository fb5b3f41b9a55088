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
