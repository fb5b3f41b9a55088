import type { ActorBehaviour } from './simulator';
import { ACTOR_ORDER, type ActorKind } from './world';

const behaviours = new Map<ActorKind, { name: string; act: ActorBehaviour }[]>();

/** Registers a behaviour under an actor kind; within a kind they run in registration order. */
export function registerBehaviour(kind: ActorKind, name: string, act: ActorBehaviour): void {
  const list = behaviours.get(kind) ?? [];
  if (list.some((b) => b.name === name)) throw new Error(`Behaviour ${name} of ${kind} is registered twice.`);
  list.push({ name, act });
  behaviours.set(kind, list);
}

export function registeredBehaviours(): { kind: ActorKind; name: string }[] {
  return ACTOR_ORDER.flatMap((kind) => (behaviours.get(kind) ?? []).map((b) => ({ kind, name: b.name })));
}

export function behavioursOf(kind: ActorKind): readonly { name: string; act: ActorBehaviour }[] {
  return behaviours.get(kind) ?? [];
}
