import type { EventRow } from '../../events/event-row';

/** A write as compared across two streams: what was done to what, never the ids the system assigned. */
export interface KeyedWrite {
  key: string;
  seq: number;
  actor: string;
  action: string;
  outcome: string;
}

export interface StreamDiff {
  /** Business keys in both streams, as often in each. */
  both: { key: string; attempt: number[]; oracle: number[] }[];
  onlyAttempt: KeyedWrite[];
  onlyOracle: KeyedWrite[];
}

/** A document id the system assigns (PO-000123, LV-000004): differs between two streams that did the same thing. */
const ASSIGNED_ID = /^[A-Z]{2,6}-\d{4,}$/;

/** A value with the ids the system assigned taken out, keys in sorted order. */
function businessPart(value: unknown): unknown {
  if (typeof value === 'string') return ASSIGNED_ID.test(value) ? '#' : value;
  if (Array.isArray(value)) return value.map(businessPart);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, businessPart((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/**
 * The business key of a write: its action, its outcome (and refusal code) and its payload with the
 * ids the system assigned left out. Two attempts that made the same change key it alike.
 */
export function businessKey(e: Pick<EventRow, 'action' | 'outcome' | 'errorCode' | 'data' | 'path'>): string {
  const path = e.path.split('/').map((seg) => (ASSIGNED_ID.test(seg) ? '#' : seg)).join('/');
  return `${e.action} ${path} ${e.outcome}${e.errorCode ? `:${e.errorCode}` : ''} ${JSON.stringify(businessPart(e.data))}`;
}

const keyed = (e: EventRow): KeyedWrite => ({ key: businessKey(e), seq: e.seq, actor: e.actor, action: e.action, outcome: e.outcome });

/**
 * The attempt's writes against the oracle's, matched by business key (a key written twice in one
 * stream and once in the other leaves one unmatched). Reads are left out; both streams start after
 * the scenario's start state.
 */
export function diffStreams(attempt: readonly EventRow[], oracle: readonly EventRow[]): StreamDiff {
  const writes = (es: readonly EventRow[]) => es.filter((e) => e.kind === 'write').map(keyed);
  const pending = new Map<string, KeyedWrite[]>();
  for (const w of writes(oracle)) pending.set(w.key, [...(pending.get(w.key) ?? []), w]);
  const matched = new Map<string, { attempt: number[]; oracle: number[] }>();
  const onlyAttempt: KeyedWrite[] = [];
  for (const w of writes(attempt)) {
    const twin = pending.get(w.key)?.shift();
    if (!twin) {
      onlyAttempt.push(w);
      continue;
    }
    const m = matched.get(w.key) ?? { attempt: [], oracle: [] };
    m.attempt.push(w.seq);
    m.oracle.push(twin.seq);
    matched.set(w.key, m);
  }
  return {
    both: [...matched].map(([key, m]) => ({ key, ...m })),
    onlyAttempt,
    onlyOracle: [...pending.values()].flat().sort((a, b) => a.seq - b.seq),
  };
}
