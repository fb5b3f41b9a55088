import type { EventRow } from '../events/event-row';

/** One entry of a document's `status_history` json column. */
export interface StatusChange {
  status: string;
  date: string;
  by: string;
  reason: string | null;
  event_id: number;
}

export function statusChange(status: string, event: EventRow, reason: string | null = null): StatusChange {
  return { status, date: event.businessDate, by: event.actor, reason, event_id: event.seq };
}

/** The columns every document row carries (docs/adding-an-area.md). */
export function documentStamp(event: EventRow, status: string, reason: string | null = null) {
  return { created_by: event.actor, created_date: event.businessDate, created_wall: event.wallTime, status_history: [statusChange(status, event, reason)] };
}
