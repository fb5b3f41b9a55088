import { existsSync, readFileSync } from 'node:fs';
import type { EventRow } from '../events/event-row';
import type { AttemptFacts } from './rules/framework';

interface FaultLine {
  kind: 'fail_before' | 'lost_response' | 'slow';
  method: string;
  path: string;
  idempotency_key: string | null;
  committed: boolean;
  /** The last event of the log when the fault was injected. */
  after_seq: number;
}

export function readFaults(file: string): FaultLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FaultLine);
}

/**
 * What the fault condition did and how the agent handled it (seed 000 §7.1): faults by kind, writes
 * that committed behind a failure, faulted requests the agent sent again (the same method and path
 * later in its turns; with the same Idempotency-Key when the first had one), and the duplicates the
 * duplicate_effect rule found.
 */
export function faultMetrics(faults: readonly FaultLine[], events: readonly EventRow[], facts: AttemptFacts, duplicates: number): Record<string, number> {
  const inTurn = (e: EventRow) => facts.agentWindows.some((w) => w.fromSeq <= e.seq && e.seq <= w.toSeq);
  const agentWrites = events.filter((e) => e.kind === 'write' && inTurn(e));
  const resent = faults.filter((f) => agentWrites.some((e) => e.seq > f.after_seq && e.method === f.method && e.path === f.path && (f.idempotency_key === null || e.idempotencyKey === f.idempotency_key)));
  const byKind = (k: FaultLine['kind']) => faults.filter((f) => f.kind === k).length;
  return {
    faults_injected: faults.length,
    fail_before: byKind('fail_before'),
    lost_response: byKind('lost_response'),
    slow: byKind('slow'),
    writes_committed_behind_failure: faults.filter((f) => f.committed).length,
    faulted_requests_resent: resent.length,
    resent_with_same_key: resent.filter((f) => f.idempotency_key !== null).length,
    duplicates_found: duplicates,
  };
}
