import { dirname, resolve } from 'node:path';
import { PoliciesSchema, type ClauseSpec, type PolicyFileSpec } from './schema';
import { PackError, YamlFile } from './yaml-file';

export interface PlacedClause extends ClauseSpec {
  /** The policies.yaml that defines it. */
  source: string;
}

/** A task's handbook policies with any `extends` chain resolved: the base's files and clauses first. */
export interface Policies {
  files: (PolicyFileSpec & { source: string })[];
  clauses: Map<string, PlacedClause>;
  /** Every policies.yaml read, base first. */
  sources: string[];
}

export function loadPolicies(path: string, seen: readonly string[] = []): Policies {
  const abs = resolve(path);
  if (seen.includes(abs)) throw new PackError(seen[seen.length - 1]!, 'extends', `the extends chain loops back to ${abs}`);
  const yaml = YamlFile.read(abs);
  yaml.check(PoliciesSchema, yaml.data);
  const spec = yaml.data as { extends?: string; files: PolicyFileSpec[]; clauses: ClauseSpec[] };
  const base: Policies = spec.extends
    ? loadPolicies(resolve(dirname(abs), spec.extends), [...seen, abs])
    : { files: [], clauses: new Map(), sources: [] };

  const clauses = new Map(base.clauses);
  spec.clauses.forEach((c, i) => {
    const prior = clauses.get(c.id);
    if (prior) throw yaml.error(['clauses', i, 'id'], `clause ${c.id} is already defined${prior.source === abs ? '' : ` in ${prior.source}`}`);
    clauses.set(c.id, { ...c, source: abs });
  });
  const fileNames = new Set(base.files.map((f) => f.file));
  const placed = new Set(base.files.flatMap((f) => f.blocks.flatMap((b) => (b.clause ? [b.clause] : []))));
  spec.files.forEach((f, i) => {
    if (fileNames.has(f.file)) throw yaml.error(['files', i, 'file'], `handbook file ${f.file} is already defined`);
    fileNames.add(f.file);
    f.blocks.forEach((b, j) => {
      if (!b.clause) return;
      if (!clauses.has(b.clause)) throw yaml.error(['files', i, 'blocks', j, 'clause'], `no clause ${b.clause} is defined`);
      if (placed.has(b.clause)) throw yaml.error(['files', i, 'blocks', j, 'clause'], `clause ${b.clause} is placed twice in the handbook`);
      placed.add(b.clause);
    });
  });
  return { files: [...base.files, ...spec.files.map((f) => ({ ...f, source: abs }))], clauses, sources: [...base.sources, abs] };
}

/** Clause ids that appear in some handbook file, in handbook order. */
export function placedClauses(policies: Policies): string[] {
  return policies.files.flatMap((f) => f.blocks.flatMap((b) => (b.clause ? [b.clause] : [])));
}

/** A clause reference split: `PAY-1.1/date` → PAY-1.1 and date. */
export function splitClauseRef(ref: string): { clause: string; part: string | null } {
  const at = ref.indexOf('/');
  return at < 0 ? { clause: ref, part: null } : { clause: ref.slice(0, at), part: ref.slice(at + 1) };
}

/** What is wrong with a clause reference, or undefined when the clause (and the part it names) exists. */
export function clauseRefProblem(policies: Policies, ref: string): string | undefined {
  const { clause, part } = splitClauseRef(ref);
  const c = policies.clauses.get(clause);
  if (!c) return `clause ${clause} does not exist in policies.yaml`;
  if (part !== null && !(part in (c.parts ?? {}))) {
    const parts = Object.keys(c.parts ?? {});
    return `clause ${clause} has no part '${part}' (${parts.length ? `parts: ${parts.join(', ')}` : 'it declares no parts'})`;
  }
  return undefined;
}
