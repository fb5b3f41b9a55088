import type { EventRow } from '../events/event-row';

/**
 * Event types that undo an earlier write, and the document each undoes. The write-volume metric
 * counts the agent's writes it later reversed itself. Areas add their corrections here
 * (receipt reversals, PO cancellations, invoice voids, journal reversals) as one line each.
 */
export const REVERSALS: Readonly<Record<string, (e: EventRow) => string | null>> = {
  LeaveCancelled: (e) => e.objectId,
  ApiTokenRevoked: (e) => e.objectId,
  // A reversing entry's planned reversal rides in its JournalEntryPosted and is no undo; a reversal by hand is.
  JournalEntryReversed: (e) => e.objectId,
  PeriodReopened: (e) => e.objectId,
};

/** Of the writes in `writes`, how many a later reversal in the same list undid. */
export function reversedCount(writes: readonly EventRow[]): number {
  const reversed = new Set<number>();
  writes.forEach((w, i) => {
    const undo = w.type ? REVERSALS[w.type] : undefined;
    if (!undo) return;
    const target = undo(w);
    for (let j = i - 1; j >= 0; j--) {
      const earlier = writes[j]!;
      if (earlier.objectId === target && earlier.type && !REVERSALS[earlier.type]) {
        reversed.add(earlier.seq);
        break;
      }
    }
  });
  return reversed.size;
}
