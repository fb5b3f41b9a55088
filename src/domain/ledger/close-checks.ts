import type { Queries } from '../../projections';
import { endOfMonth } from '../calendar';
import { formatCents } from '../money';
import { controlTiesAsOf } from './subledgers';

/**
 * What must be true before a month can close, each check registered once by the area whose
 * documents it looks at. A blocking check that finds problems refuses the close (`close_blocked`,
 * a hard control); an advisory one is listed in the checklist for the accountant to judge.
 * Revenue cutoff is such a check, registered by receivables: the ledger does not know about sales.
 */
export interface CloseCheck {
  id: string;
  summary: string;
  blocking: boolean;
  /** Problems found for the month, one sentence each; none when the check passes. */
  run(read: Queries, period: string, periodEnd: string): string[];
}

const checks: CloseCheck[] = [];

export function registerCloseCheck(check: CloseCheck): void {
  if (checks.some((c) => c.id === check.id)) throw new Error(`Close check ${check.id} is registered twice.`);
  checks.push(check);
}

export interface CloseCheckResult {
  id: string;
  summary: string;
  blocking: boolean;
  ok: boolean;
  problems: string[];
}

/** Every registered check for a month, in registration order. */
export function closeChecklist(read: Queries, period: string): CloseCheckResult[] {
  const end = endOfMonth(`${period}-01`);
  return checks.map((c) => {
    const problems = c.run(read, period, end);
    return { id: c.id, summary: c.summary, blocking: c.blocking, ok: problems.length === 0, problems };
  });
}

/** The blocking problems of a month's checklist, as `check: problem` sentences. */
export function closeBlockers(results: readonly CloseCheckResult[]): string[] {
  return results.filter((r) => r.blocking && !r.ok).flatMap((r) => r.problems.map((p) => `${r.id}: ${p}`));
}

registerCloseCheck({
  id: 'control_ties',
  summary: 'Every control account equals its subledger at the month end (a control account whose subledger nobody keeps must be zero)',
  blocking: true,
  run: (read, _period, end) => controlTiesAsOf(read, end).flatMap((t) => {
    const sub = t.sub ?? 0;
    if (t.gl === sub) return [];
    const kind = t.subledger ?? 'no';
    return [`${t.account} ${t.name} is ${formatCents(t.gl)} in the ledger and ${formatCents(sub)} in the ${kind} subledger${t.sub === null ? ' (no area keeps it)' : ''}: ${formatCents(t.gl - sub)} apart.`];
  }),
});

registerCloseCheck({
  id: 'entries_in_flight',
  summary: 'No journal entry dated in the month is still waiting for approval or posting',
  blocking: true,
  run: (read, period) => read.journalEntries.unpostedIn(period)
    .filter((e) => e.status === 'submitted' || e.status === 'approved')
    .map((e) => `${e.id} (${e.memo}) is ${e.status}; post it, return it or cancel it first.`),
});
