import type { Queries } from '../../projections';
import type { MessageRow } from '../../projections/comms-messages';
import type { Actor } from '../decision';

/** Who may read which mail (seed §3 Communication). Not-visible messages answer 404, never 403. */
export const PERSONAL = 'personal';
export const SEND = 'messages.send';
export const DELIVER = 'messages.deliver';

export function readPermission(box: string): string {
  return `messages.read_${box}`;
}

/** A shared box is read with `messages.read_<box>`; a personal box only by its owner. */
export function mayReadBox(actor: Actor, box: string): boolean {
  return box !== PERSONAL && actor.permissions.has(readPermission(box));
}

/** Shared boxes the actor's roles let them read, sorted. */
export function readableBoxes(actor: Actor): string[] {
  const boxes: string[] = [];
  for (const p of actor.permissions) {
    const m = /^messages\.read_([a-z][a-z_]*)$/.exec(p);
    if (m && m[1] !== PERSONAL) boxes.push(m[1]!);
  }
  return [...new Set(boxes)].sort();
}

export function actorEmail(read: Queries, actor: Actor): string | null {
  return read.org.user(actor.id)?.email ?? null;
}

/**
 * The addresses whose mail the actor receives: their own email, and the address of each shared
 * box they read (internal mail sent to ap@ lands in the AP box).
 */
export function actorAddresses(read: Queries, actor: Actor, boxes = readableBoxes(actor)): string[] {
  const out = new Set<string>();
  const own = actorEmail(read, actor);
  if (own) out.add(own);
  for (const box of boxes) {
    const address = read.messages.box(box)?.address;
    if (address) out.add(address);
  }
  return [...out].sort();
}

/**
 * A message is visible to: readers of its shared box, the owner of its personal box, its sender,
 * and anyone it is addressed to (to or cc), directly or through a box they read.
 */
export function canRead(read: Queries, actor: Actor, m: MessageRow): boolean {
  if (actor.system) return true;
  if (m.box === PERSONAL ? m.owner === actor.id : mayReadBox(actor, m.box)) return true;
  if (m.sender === actor.id) return true;
  const addresses = new Set(actorAddresses(read, actor));
  return [...m.to, ...m.cc].some((a) => addresses.has(a));
}

/** Dispositions are a box's bookkeeping: only for inbound mail of a box the actor works. */
export function mayDisposition(actor: Actor, m: MessageRow): boolean {
  if (actor.system) return true;
  return m.box === PERSONAL ? m.owner === actor.id : mayReadBox(actor, m.box);
}

/** The message if the actor may see it; otherwise undefined, so callers answer 404 either way. */
export function visibleMessage(read: Queries, actor: Actor, id: string): MessageRow | undefined {
  const m = read.messages.message(id);
  return m && canRead(read, actor, m) ? m : undefined;
}
