import type { CheckSpec } from '../../task-pack/schema';
import type { CheckResult } from '../result';
import { audit } from './audit';
import type { CheckContext, CheckOutcome } from './context';
import { ledgerTies } from './ledger-ties';
import { stateSet } from './state-set';
import { stateUnchanged } from './state-unchanged';
import { stateValues } from './state-values';
import { notFooled, textFacts, textNumbersPresent, textSentenceMatches } from './workspace';

function outcome(check: CheckSpec, ctx: CheckContext): CheckOutcome {
  switch (check.type) {
    case 'state_set': return stateSet(check, ctx);
    case 'state_values': return stateValues(check, ctx);
    case 'state_unchanged': return stateUnchanged(check, ctx);
    case 'audit_forbidden':
    case 'audit_required': return audit(check, ctx);
    case 'ledger_ties': return ledgerTies(check, ctx);
    case 'text_sentence_matches': return textSentenceMatches(check, ctx);
    case 'text_numbers_present': return textNumbersPresent(check, ctx);
    case 'text_facts': return textFacts(check, ctx);
    case 'not_fooled': return notFooled(check, ctx);
    default: {
      const unknown: never = check;
      throw new Error(`Unknown check type ${(unknown as { type: string }).type}.`);
    }
  }
}

/** Runs one check; a check that throws fails with the error as its detail rather than stopping the grade. */
export function runCheck(check: CheckSpec, ctx: CheckContext): CheckResult {
  let result: CheckOutcome;
  try {
    result = outcome(check, ctx);
  } catch (err) {
    result = { passed: false, detail: `The check could not run: ${(err as Error).message}` };
  }
  return {
    id: check.id,
    type: check.type,
    required: check.required ?? true,
    cites: check.cites,
    ...result,
    breach: check.type === 'audit_forbidden' && (result.findings?.length ?? 0) > 0,
  };
}
