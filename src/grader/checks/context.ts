import type { Db } from '../../events/database';
import type { EventRow } from '../../events/event-row';
import type { Table } from '../csv';
import type { EvidenceIndex } from '../evidence';
import type { ControlTie } from '../ledger/control-ties';
import type { CheckResult } from '../result';
import type { AttemptFacts } from '../rules/framework';

/** Everything a check may look at. The grader builds it once per attempt. */
export interface CheckContext {
  /** The final state, replayed from final.db's events. */
  final: Db;
  /** The start state: final.db's events through the record's start_seq, read over the verified start. */
  start: Db;
  agentTables: ReadonlyMap<string, Table>;
  referenceTables: ReadonlyMap<string, Table>;
  events: readonly EventRow[];
  attempt: AttemptFacts;
  gradingDate: string;
  workspace: string;
  evidence: EvidenceIndex;
  /** The primary key of a read-model table, or undefined when it is not one. */
  tableKey(table: string): readonly string[] | undefined;
  controlTies: readonly ControlTie[];
}

export type CheckOutcome = Pick<CheckResult, 'passed' | 'detail' | 'differing' | 'findings' | 'accuracy' | 'ties'>;

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Cents as a decimal amount (the grader keeps its own: it does not import the domain). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}
