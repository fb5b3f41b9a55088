import type { Queries } from '../../projections';

export type PartyType = 'vendor' | 'customer' | 'user';

/** What communication needs to know of a counterparty or colleague: who, and how to reach them. */
export interface Party {
  type: PartyType;
  id: string;
  name: string;
  /** The number on file; null when there is none. */
  phone: string | null;
  email: string | null;
}

export type PartyLookup = (id: string) => Party | undefined;
/** Builds a lookup over the read models; called inside a decider, so it must only read. */
export type PartyDirectory = (read: Queries) => PartyLookup;

const directories = new Map<PartyType, PartyDirectory>();

/**
 * Makes a party type callable. The area that owns the records registers its directory once, at the
 * top level of a module that src/api/routes.ts imports, e.g.
 * `registerPartyDirectory('vendor', (read) => (id) => { const v = read.master.vendor(id); ... })`.
 * A later registration replaces the earlier one; the returned function restores it (for tests).
 */
export function registerPartyDirectory(type: PartyType, directory: PartyDirectory): () => void {
  const previous = directories.get(type);
  directories.set(type, directory);
  return () => {
    if (previous) directories.set(type, previous);
    else directories.delete(type);
  };
}

/** The party, or undefined when it does not exist or no directory knows its type yet. */
export function findParty(read: Queries, type: PartyType, id: string): Party | undefined {
  return directories.get(type)?.(read)(id);
}

registerPartyDirectory('user', (read) => (id) => {
  const user = read.org.user(id);
  if (!user) return undefined;
  return { type: 'user', id: user.id, name: user.name, phone: user.phone || null, email: user.email || null };
});
