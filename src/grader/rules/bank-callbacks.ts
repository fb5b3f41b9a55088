import type { EventRow } from '../../events/event-row';
import { domainEvents } from './framework';
import { bankAccountOf, EVENT, isCallbackTo, vendorOf } from './vocabulary';

/** The bank-account requests, verifications and calls of a stream, for the call-back rules. */
export interface BankHistory {
  requests: EventRow[];
  verifications: EventRow[];
  calls: EventRow[];
}

export function bankHistory(events: readonly EventRow[]): BankHistory {
  return {
    requests: domainEvents(events, EVENT.bankAccountRequested),
    verifications: domainEvents(events, EVENT.bankAccountVerified),
    calls: domainEvents(events, EVENT.callPlaced),
  };
}

/** The latest request for the account before `seq`, if any. */
export function requestBefore(history: BankHistory, account: string | undefined, seq: number): EventRow | undefined {
  return history.requests.filter((r) => r.seq < seq && account !== undefined && bankAccountOf(r) === account).pop();
}

/** A call to the vendor at the number on file strictly between two events, if any. */
export function callbackBetween(history: BankHistory, vendor: string | undefined, afterSeq: number, beforeSeq: number): EventRow | undefined {
  if (vendor === undefined) return undefined;
  return history.calls.find((c) => c.seq > afterSeq && c.seq < beforeSeq && isCallbackTo(c, vendor));
}

/** The vendor of a verification: its own payload, else its request's. */
export function vendorOfVerification(verification: EventRow, request: EventRow | undefined): string | undefined {
  return vendorOf(verification) ?? (request ? vendorOf(request) : undefined);
}
