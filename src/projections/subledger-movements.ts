import type { EventRow } from '../events/event-row';
import { journalOf, type AccountRow } from './ledger';
import type { ProjectionTx } from './read-model';

/** The entries an event carries under `key` (`ap`, `grni`, `ar`, …), or none. */
export function listOf<T>(data: unknown, key: string): T[] {
  if (data === null || typeof data !== 'object' || !(key in data)) return [];
  return ((data as Record<string, unknown>)[key] as T[] | undefined) ?? [];
}

/**
 * What the event's journal posts to the control accounts of one subledger, positive on the side
 * the subledger's own movements count as positive: credit for AP (what is owed), debit for AR (what
 * is owed to us) and GRNI (value taken out of it).
 */
export function controlNet(tx: ProjectionTx, event: EventRow, kind: 'ap' | 'grni' | 'ar'): number {
  let net = 0;
  for (const line of journalOf(event.data)?.lines ?? []) {
    if (tx.get<AccountRow & Record<string, unknown>>('accounts', line.account)?.subledger !== kind) continue;
    net += kind === 'ap' ? line.credit - line.debit : line.debit - line.credit;
  }
  return net;
}
