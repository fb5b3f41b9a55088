import type { EventContract, EventData } from '../events/event-types';
import type { Queries } from '../projections';

/** Who is acting: resolved from the bearer token before any decider runs. */
export interface Actor {
  id: string;
  name: string;
  roles: readonly string[];
  permissions: ReadonlySet<string>;
  department: string | null;
  tokenId: string | null;
  /** The bootstrap actor of generators and the clock: every permission, no token. */
  system: boolean;
}

export interface DecideContext {
  actor: Actor;
  /** The business date the action happens on. */
  today: string;
  read: Queries;
  /** The next document id of a type, e.g. nextId('PO') → 'PO-000124'. */
  nextId(prefix: string): string;
}

export interface Emitted {
  type: string;
  data: unknown;
}

export interface Accepted {
  ok: true;
  event: Emitted;
  objectType: string;
  objectId: string;
}

export interface Refusal {
  ok: false;
  code: string;
  detail: string;
  status: number;
}

export type Decision = Accepted | Refusal;

export function emit<C extends EventContract>(contract: C, data: EventData<C>, objectType: string, objectId: string): Accepted {
  return { ok: true, event: { type: contract.type, data }, objectType, objectId };
}

/** HTTP status of each refusal code; state conflicts default to 409. */
const STATUS: Record<string, number> = {
  forbidden: 403,
  over_limit: 403,
  requester_cannot_approve: 403,
  preparer_cannot_approve: 403,
  not_found: 404,
  invalid_request: 422,
  unauthorized: 401,
};

export function refuse(code: string, detail: string, status?: number): Refusal {
  return { ok: false, code, detail, status: status ?? STATUS[code] ?? 409 };
}

export function isRefusal(d: Decision | unknown): d is Refusal {
  return typeof d === 'object' && d !== null && (d as Refusal).ok === false;
}
