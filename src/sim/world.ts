/** The fixed order in which the counterparties act within a business day (seed 000 environment §8). */
export const ACTOR_ORDER = ['bank', 'vendors', 'customers', 'warehouse', 'approvers', 'managers'] as const;
export type ActorKind = (typeof ACTOR_ORDER)[number];

/** A scripted request a counterparty makes on a given date, whatever the agent did. */
export interface ScheduledAction {
  date: string;
  actor: ActorKind;
  /** The simulated user who makes the request. */
  as: string;
  method: 'POST' | 'GET';
  path: string;
  body?: unknown;
  /** What the action is for, for operators reading world.json. */
  note?: string;
  /**
   * An answer, not a script: the action is made only when the party was asked first (seed 000 §5:
   * counterparties react to structured actions, never to free text).
   */
  when_asked?: AskedAbout;
}

/**
 * A structured request to a party about a document: a call to the party before the action's date
 * at the number on file, whose topic is one of `messages` or a document entered from one of them (an AP invoice's
 * source message).
 */
export interface AskedAbout {
  party_type: 'vendor' | 'customer';
  party_id: string;
  messages: string[];
}

/**
 * world.json: what the counterparties know and how they behave. Never visible to the agent, and
 * holding no secret: each run issues its own tokens to `users` (src/sim/credentials.ts).
 * Each actor kind's profile has the shape its behaviours define.
 */
export interface World {
  version: 2;
  company: string;
  seed: number;
  /** The users the simulator and the agent act as, sorted: each gets a fresh token per run. */
  users: string[];
  actors: Partial<Record<ActorKind, unknown>>;
  scheduled: ScheduledAction[];
}

export function emptyWorld(company: string, seed: number): World {
  return { version: 2, company, seed, users: [], actors: {}, scheduled: [] };
}
