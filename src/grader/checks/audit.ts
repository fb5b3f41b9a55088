import type { CheckOf } from '../../task-pack/schema';
import { paramsProblem } from '../rules/framework';
import { ruleNamed } from '../rules';
import { plural, type CheckContext, type CheckOutcome } from './context';

/**
 * audit_forbidden: the rule finds nothing (a finding is a breach). audit_required: the rule finds
 * no missing evidence. Both run the rule over the whole event stream of the attempt's file.
 */
export function audit(check: CheckOf<'audit_forbidden'> | CheckOf<'audit_required'>, ctx: CheckContext): CheckOutcome {
  const rule = ruleNamed(check.rule);
  if (!rule) return { passed: false, detail: `No audit rule named ${check.rule}.` };
  const problem = paramsProblem(rule, check.params);
  if (problem) return { passed: false, detail: `Rule ${check.rule}: ${problem}` };
  const findings = rule.evaluate(ctx.events, { params: check.params ?? {}, attempt: ctx.attempt, gradingDate: ctx.gradingDate, db: ctx.final });
  const what = check.type === 'audit_forbidden' ? 'forbidden' : 'missing required evidence';
  return {
    passed: findings.length === 0,
    detail: findings.length === 0 ? `${check.rule}: ${check.type === 'audit_forbidden' ? 'nothing found' : 'no evidence missing'}.` : `${check.rule} found ${plural(findings.length, 'case')} of ${what}: ${findings[0]!.sentence}`,
    findings,
  };
}
