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
}

/**
 * world.json: what the counterparties know and how they behave. Never visible to the agent.
 * Each actor kind's profile has the shape its behaviours define.
 */
export interface World {
  version: 1;
  company: string;
  seed: number;
  /** Token secrets of the users the simulator and the agent act as. */
  tokens: Record<string, string>;
  actors: Partial<Record<ActorKind, unknown>>;
  scheduled: ScheduledAction[];
}

export function emptyWorld(company: string, seed: number): World {
  return { version: 1, company, seed, tokens: {}, actors: {}, scheduled: [] };
}
