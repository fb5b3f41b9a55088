import type { CheckOf } from '../../task-pack/schema';
import { hasLedger, tieControl, trialBalance } from '../ledger/trial-balance';
import type { ControlTieResult } from '../result';
import { formatCents, type CheckContext, type CheckOutcome } from './context';

/** Passes when the trial balance balances and each named control equals its subledger at the grading date. */
export function ledgerTies(check: CheckOf<'ledger_ties'>, ctx: CheckContext): CheckOutcome {
  if (!hasLedger(ctx.final)) return { passed: false, detail: 'The final state has no general ledger to tie out.' };
  const problems: string[] = [];
  const tb = trialBalance(ctx.final, ctx.gradingDate);
  if (tb.debits !== tb.credits) problems.push(`the trial balance is out by ${formatCents(tb.debits - tb.credits)} (debits ${formatCents(tb.debits)}, credits ${formatCents(tb.credits)})`);
  const ties: ControlTieResult[] = [];
  for (const kind of check.accounts) {
    const tie = ctx.controlTies.find((t) => t.kind === kind);
    if (!tie) {
      problems.push(`no subledger is registered for control ${kind}`);
      ties.push({ kind, gl_cents: null, subledger_cents: null, ties: false });
      continue;
    }
    const result = tieControl(ctx.final, tie, ctx.gradingDate);
    ties.push(result);
    if (!result.ties) problems.push(`${kind} is ${formatCents(result.gl_cents!)} in the ledger and ${formatCents(result.subledger_cents!)} in its subledger`);
  }
  return {
    passed: problems.length === 0,
    detail: problems.length === 0 ? `The trial balance balances and ${check.accounts.join(', ')} tie to their subledgers at ${ctx.gradingDate}.` : `At ${ctx.gradingDate}: ${problems.join('; ')}.`,
    ties,
  };
}
