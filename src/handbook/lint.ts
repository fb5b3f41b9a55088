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

  const negatives: [string[], string, string[]][] = [
    ...Object.entries(pack.spec.negative_controls).map(([name, n]): [string[], string, string[]] => [['negative_controls', name, 'breaks'], name, n.breaks]),
    ...Object.entries(pack.spec.fault_profiles).flatMap(([profile, p]) => Object.entries(p.negative_controls).map(([name, n]): [string[], string, string[]] => [['fault_profiles', profile, 'negative_controls', name, 'breaks'], name, n.breaks])),
  ];
  const own = yaml.data as { negative_controls?: Record<string, unknown>; fault_profiles?: Record<string, { negative_controls?: Record<string, unknown> } | string> };
  const declaredHere = (where: string[]) => (where[0] === 'negative_controls'
    ? own.negative_controls?.[where[1]!] !== undefined
    : typeof own.fault_profiles?.[where[1]!] === 'object' && (own.fault_profiles[where[1]!] as { negative_controls?: Record<string, unknown> }).negative_controls?.[where[3]!] !== undefined);
  // A variant's inherited controls are linted with their own task.yaml, where their lines are.
  for (const [where, , breaks] of negatives.filter(([where]) => declaredHere(where))) {
    breaks.forEach((ref, j) => {
      const problem = clauseRefProblem(pack.policies, ref) ?? (inHandbook.has(splitClauseRef(ref).clause) ? undefined : `clause ${splitClauseRef(ref).clause} is in no handbook file`);
      if (problem) errors.push(yaml.error([...where, j], problem).message);
    });
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
