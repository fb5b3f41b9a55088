import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ruleNamed } from '../grader/rules';
import { paramsProblem } from '../grader/rules/framework';
import type { TaskPack } from '../task-pack/load';
import { clauseRefProblem, placedClauses, splitClauseRef } from '../task-pack/policies';
import { PackError, YamlFile } from '../task-pack/yaml-file';
import { placeholders, renderHandbook } from './render';

export interface LintReport {
  ok: boolean;
  /** Defects that fail the lint, each naming its file and field. */
  errors: string[];
  /** Clauses in the handbook that no check cites and that bind no rule. */
  unenforced: string[];
  warnings: string[];
}

/**
 * Seed 000 §11.5: every check cites clauses the agent's handbook has; every audit check runs a
 * rule one of its cited clauses binds; and the clauses nothing enforces are listed.
 */
export function lintPack(pack: TaskPack): LintReport {
  const errors: string[] = [];
  const warnings: string[] = [];
  const yaml = YamlFile.read(pack.taskFile);
  const { clauses } = pack.policies;
  const inHandbook = new Set(placedClauses(pack.policies));
  try {
    renderHandbook(pack.policies);
  } catch (err) {
    errors.push((err as Error).message);
  }

  const cited = new Set<string>();
  pack.spec.checks.forEach((check, i) => {
    check.cites.forEach((id, j) => {
      cited.add(id);
      if (!clauses.has(id)) errors.push(yaml.error(['checks', i, 'cites', j], `clause ${id} does not exist in policies.yaml`).message);
      else if (!inHandbook.has(id)) errors.push(yaml.error(['checks', i, 'cites', j], `clause ${id} is in no handbook file, so the agent never sees it`).message);
    });
    if (check.type !== 'audit_forbidden' && check.type !== 'audit_required') return;
    const rule = ruleNamed(check.rule);
    if (!rule) {
      errors.push(yaml.error(['checks', i, 'rule'], `no audit rule named ${check.rule}`).message);
      return;
    }
    const problem = paramsProblem(rule, check.params);
    if (problem) errors.push(yaml.error(['checks', i, 'params'], problem).message);
    const binding = check.cites.filter((id) => clauses.get(id)?.rules?.includes(check.rule));
    if (binding.length === 0) errors.push(yaml.error(['checks', i, 'rule'], `none of the cited clauses (${check.cites.join(', ')}) binds rule ${check.rule}`).message);
  });

  // Controls this task.yaml declares (a variant's inherited ones are linted with their own file, where their lines are).
  const own = yaml.data as { negative_controls?: Record<string, { breaks?: string[] } | string[]>; fault_profiles?: Record<string, { negative_controls?: Record<string, { breaks?: string[] } | string[]> } | string> };
  const declared: [(string | number)[], Record<string, { breaks?: string[] } | string[]>][] = [
    [['negative_controls'], own.negative_controls ?? {}],
    ...Object.entries(own.fault_profiles ?? {}).flatMap(([name, p]): [(string | number)[], Record<string, { breaks?: string[] } | string[]>][] => (typeof p === 'object' ? [[['fault_profiles', name, 'negative_controls'], p.negative_controls ?? {}]] : [])),
  ];
  for (const [where, controls] of declared) {
    for (const [name, n] of Object.entries(controls)) {
      (Array.isArray(n) ? [] : n.breaks ?? []).forEach((ref, j) => {
        const { clause } = splitClauseRef(ref);
        const problem = clauseRefProblem(pack.policies, ref) ?? (inHandbook.has(clause) ? undefined : `clause ${clause} is in no handbook file`);
        if (problem) errors.push(yaml.error([...where, name, 'breaks', j], problem).message);
      });
    }
  }

  for (const clause of clauses.values()) {
    for (const rule of clause.rules ?? []) {
      if (!ruleNamed(rule)) warnings.push(new PackError(clause.source, `clauses.${clause.id}.rules`, `binds ${rule}, which is not a registered audit rule yet`).message);
    }
    const used = new Set(placeholders(clause.text));
    for (const param of Object.keys(clause.params ?? {})) {
      if (!used.has(param)) warnings.push(new PackError(clause.source, `clauses.${clause.id}.params.${param}`, 'is never used in the text').message);
    }
    if (!inHandbook.has(clause.id)) warnings.push(new PackError(clause.source, `clauses.${clause.id}`, 'is defined but placed in no handbook file').message);
  }
  if (pack.spec.variant_of && !existsSync(join(dirname(pack.dir), pack.spec.variant_of, 'task.yaml'))) {
    warnings.push(yaml.error(['variant_of'], `no task ${pack.spec.variant_of} beside this one`).message);
  }
  const unenforced = [...inHandbook].filter((id) => !cited.has(id) && (clauses.get(id)?.rules ?? []).length === 0);
  return { ok: errors.length === 0, errors, unenforced, warnings };
}
