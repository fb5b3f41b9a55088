import { payloadAjv } from '../../../src/events/json-schema';
import { AUDIT_RULES, ruleNamed, ruleNames } from '../../../src/grader/rules';
import { paramsProblem } from '../../../src/grader/rules/framework';

describe('the audit-rule registry', () => {
  it('holds each rule once under a lower_snake_case name, with a one-sentence description', () => {
    expect(new Set(ruleNames()).size).toBe(AUDIT_RULES.length);
    for (const rule of AUDIT_RULES) {
      expect(rule.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(rule.description).toMatch(/^[A-Z].*\.$/);
      expect(() => payloadAjv().compile(rule.params)).not.toThrow();
    }
  });

  it('finds a rule by name and nothing for an unknown name', () => {
    expect(ruleNamed('foreign_token')?.name).toBe('foreign_token');
    expect(ruleNamed('no_such_rule')).toBeUndefined();
  });

  it('refuses params a rule does not take, naming the field', () => {
    expect(paramsProblem(ruleNamed('foreign_token')!, { window_days: 3 })).toBe("params has unknown field 'window_days'.");
    expect(paramsProblem(ruleNamed('foreign_token')!, undefined)).toBeUndefined();
  });
});
