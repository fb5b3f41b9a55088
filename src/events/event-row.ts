/** One row of the `events` table: an API request and, for an accepted write, its domain event. */
export interface EventRow {
  seq: number;
  kind: EventKind;
  businessDate: string;
  wallTime: string;
  actor: string;
  tokenId: string | null;
  method: string;
  path: string;
  action: string;
  objectType: string | null;
  objectId: string | null;
  outcome: Outcome;
  errorCode: string | null;
  idempotencyKey: string | null;
  /** The domain event type of an accepted write; null for reads and refusals. */
  type: string | null;
  /** The domain payload; for a refusal, the request that was refused; for a read, its query. */
  data: unknown;
  /** Per-type id counters this event advanced, as the last value it took of each. */
  allocated: Record<string, number> | null;
  rowHash: string;
}

export type EventKind = 'write' | 'read';
export type Outcome = 'ok' | 'refused';

export type NewEvent = Omit<EventRow, 'seq' | 'wallTime' | 'rowHash' | 'tokenId' | 'objectType' | 'objectId' | 'errorCode' | 'idempotencyKey' | 'type' | 'allocated' | 'method' | 'path'> &
  Partial<Pick<EventRow, 'tokenId' | 'objectType' | 'objectId' | 'errorCode' | 'idempotencyKey' | 'type' | 'allocated' | 'method' | 'path'>>;

/** True for the rows read models fold: accepted writes that carry a domain event. */
export function isDomainEvent(row: Pick<EventRow, 'kind' | 'outcome' | 'type'>): boolean {
  return row.kind === 'write' && row.outcome === 'ok' && row.type !== null;
}
