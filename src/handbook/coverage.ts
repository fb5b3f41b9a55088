import { formatTable as table } from '../runner/table';
import type { Truth } from '../task-pack/code';
import type { TaskPack } from '../task-pack/load';
import { clauseRefProblem, placedClauses, splitClauseRef } from '../task-pack/policies';
import type { NegativeControl } from '../task-pack/schema';
import { mutationNames } from '../runner/mutations';

/** One negative control as the coverage table shows it. */
export interface CoverageNegative {
  name: string;
  breaks: string[];
  fails: string[];
  refused: string[];
  /** `clean`, or the fault profile it belongs to (validated with --faults only). */
  condition: string;
  regression: string | null;
  /** When it ran in a validation: the seeds it ran on, and those where it came out as declared. */
  validated?: { seeds: number[]; held: number[] };
}

/** One thing a clause says (the whole clause when it declares no parts) and what breaks it alone. */
export interface CoveragePart {
  /** `PAY-1.1/date`, or the clause id when it has no parts. */
  ref: string;
  part: string | null;
  asks: string | null;
  /** Negative controls that break this part and nothing else. */
  breaking: string[];
  /** The pack's mutation controls that break this part (task.yaml mutations), and how each came out. */
  mutants: CoverageMutant[];
}

/** A mutation control in the table: its name, and per outcome the seeds it had (when validated under --strict). */
export interface CoverageMutant {
  name: string;
  op: string;
  outcomes?: { caught: number[]; unchanged: number[]; missed: number[] };
}

export interface ClauseCoverage {
  clause: string;
  /** The handbook file it is in. */
  file: string;
  /** Checks that cite it, and checks that run a rule it binds. */
  checks: string[];
  rules: string[];
  parts: CoveragePart[];
  /** Every negative control that breaks it, alone or with other clauses. */
  negatives: string[];
  /** Seeds whose planted cases (truth.json) exercise it; null when no scenario was read. */
  exercised: number[] | null;
  problems: string[];
}

/** The clause-coverage table of a pack: clause → checks → negative controls breaking it → seeds exercising it. */
export interface CoverageTable {
  task: string;
  /** The seeds whose scenarios were read. */
  seeds: number[];
  clauses: ClauseCoverage[];
  negatives: CoverageNegative[];
  /** Every problem, each naming its clause or negative control. */
  problems: string[];
  ok: boolean;
}

/** How each negative control came out in a validation, by name (`neg:x`): per seed, whether it held. */
export type NegativeOutcomes = ReadonlyMap<string, ReadonlyMap<number, boolean>>;
/** How each mutation control came out, by name (`mut:…`): per seed. */
export type MutantOutcomes = ReadonlyMap<string, ReadonlyMap<number, 'caught' | 'unchanged' | 'missed'>>;

export interface CoverageInput {
  /** The truth.json of each scenario read, by seed. */
  truths?: ReadonlyMap<number, Truth>;
  outcomes?: NegativeOutcomes;
  mutants?: MutantOutcomes;
}

function declaredNegatives(pack: TaskPack): CoverageNegative[] {
  const of = (name: string, n: NegativeControl, condition: string): CoverageNegative => ({ name, breaks: n.breaks, fails: n.fails, refused: n.refused, condition, regression: n.regression });
  return [
    ...Object.entries(pack.spec.negative_controls).map(([name, n]) => of(name, n, 'clean')),
    ...Object.entries(pack.spec.fault_profiles).flatMap(([profile, p]) => Object.entries(p.negative_controls).map(([name, n]) => of(name, n, profile))),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Whether a planted case's clause reference exercises a clause: the clause itself, or one of its parts. */
const exercises = (ref: string, clause: string) => splitClauseRef(ref).clause === clause;

/**
 * The coverage table (seed 000 §11.3, §11.5): for every clause of the agent's handbook, the checks
 * enforcing it, the negative controls that break it (per part, where it says several things), and
 * the seeds whose generated scenario plants a case of it. A clause is covered when a check enforces
 * it, each of its parts has a negative control that breaks that part alone (and, when validated,
 * fails as declared on every seed it ran on), and some seed read exercises it.
 */
export function packCoverage(pack: TaskPack, input: CoverageInput = {}): CoverageTable {
  const { policies, spec } = pack;
  const negatives = declaredNegatives(pack).map((n) => {
    const seen = input.outcomes?.get(n.name);
    return seen ? { ...n, validated: { seeds: [...seen.keys()].sort((a, b) => a - b), held: [...seen.entries()].filter(([, ok]) => ok).map(([s]) => s).sort((a, b) => a - b) } } : n;
  });
  const problems: string[] = [];
  for (const n of negatives) {
    for (const ref of n.breaks) {
      const problem = clauseRefProblem(policies, ref);
      if (problem) problems.push(`${n.name} breaks ${ref}: ${problem}`);
      else if (splitClauseRef(ref).part === null && Object.keys(policies.clauses.get(ref)?.parts ?? {}).length > 0) {
        problems.push(`${n.name} breaks ${ref}, which has parts (${Object.keys(policies.clauses.get(ref)!.parts!).join(', ')}): name the part it breaks`);
      }
    }
  }
  const mutantNames = mutationNames(spec.mutations);
  const mutantsOf = (ref: string): CoverageMutant[] => spec.mutations.flatMap((m, i) => {
    if (m.breaks !== ref) return [];
    const name = mutantNames[i]!;
    const seen = input.mutants?.get(name);
    const by = (o: string) => (seen ? [...seen].filter(([, x]) => x === o).map(([s]) => s).sort((a, b) => a - b) : []);
    return [{ name, op: m.op, ...(seen ? { outcomes: { caught: by('caught'), unchanged: by('unchanged'), missed: by('missed') } } : {}) }];
  });
  spec.mutations.forEach((m, i) => {
    const problem = clauseRefProblem(policies, m.breaks);
    if (problem) problems.push(`${mutantNames[i]} breaks ${m.breaks}: ${problem}`);
    else if (splitClauseRef(m.breaks).part === null && Object.keys(policies.clauses.get(m.breaks)?.parts ?? {}).length > 0) problems.push(`${mutantNames[i]} breaks ${m.breaks}, which has parts: name the part it breaks`);
  });
  const seeds = [...(input.truths?.keys() ?? [])].sort((a, b) => a - b);
  const fileOf = new Map(policies.files.flatMap((f) => f.blocks.flatMap((b) => (b.clause ? [[b.clause, f.file] as const] : []))));
  const clauses = placedClauses(policies).map((id): ClauseCoverage => {
    const clause = policies.clauses.get(id)!;
    const rules = clause.rules ?? [];
    const checks = spec.checks.filter((c) => c.cites.includes(id) || ((c.type === 'audit_forbidden' || c.type === 'audit_required') && rules.includes(c.rule))).map((c) => c.id);
    const partNames = Object.keys(clause.parts ?? {});
    const refs = partNames.length ? partNames.map((p) => ({ ref: `${id}/${p}`, part: p as string | null, asks: clause.parts![p]! })) : [{ ref: id, part: null, asks: null }];
    const clauseProblems: string[] = [];
    if (checks.length === 0) clauseProblems.push(`${id}: no check enforces it`);
    const parts = refs.map(({ ref, part, asks }): CoveragePart => {
      const alone = negatives.filter((n) => n.breaks.length === 1 && n.breaks[0] === ref);
      const holding = alone.filter((n) => !n.validated || n.validated.held.length === n.validated.seeds.length);
      for (const n of alone.filter((x) => !holding.includes(x))) {
        const missed = n.validated!.seeds.filter((s) => !n.validated!.held.includes(s));
        clauseProblems.push(`${ref}: ${n.name} did not come out as declared on seed${missed.length === 1 ? '' : 's'} ${missed.join(', ')}`);
      }
      if (alone.length === 0) clauseProblems.push(`${ref}: no negative control breaks it alone`);
      const mutants = mutantsOf(ref);
      for (const m of mutants) if (m.outcomes?.missed.length) clauseProblems.push(`${ref}: ${m.name} passes on seed${m.outcomes.missed.length === 1 ? '' : 's'} ${m.outcomes.missed.join(', ')} (a false pass)`);
      return { ref, part, asks, breaking: holding.map((n) => n.name), mutants };
    });
    let exercised: number[] | null = null;
    if (input.truths) {
      exercised = seeds.filter((s) => input.truths!.get(s)!.planted.some((p) => p.clauses.some((ref) => exercises(ref, id))));
      if (exercised.length === 0) clauseProblems.push(`${id}: no planted case of seed${seeds.length === 1 ? '' : 's'} ${seeds.join(', ')} exercises it`);
    }
    return {
      clause: id, file: fileOf.get(id)!, checks, rules, parts,
      negatives: negatives.filter((n) => n.breaks.some((ref) => splitClauseRef(ref).clause === id)).map((n) => n.name),
      exercised, problems: clauseProblems,
    };
  });
  problems.push(...clauses.flatMap((c) => c.problems));
  return { task: pack.slug, seeds, clauses, negatives, problems, ok: problems.length === 0 };
}

const list = (xs: readonly (string | number)[]) => (xs.length ? xs.join(', ') : '-');

/** A mutant in the table: its operator, and over the seeds it ran on how many caught it, changed nothing, or let it pass. */
function mutantCell(m: CoverageMutant): string {
  if (!m.outcomes) return `${m.op} (not run)`;
  const { caught, unchanged, missed } = m.outcomes;
  const parts = [`caught ${caught.length}/${caught.length + unchanged.length + missed.length}`, ...(unchanged.length ? [`unchanged ${unchanged.length}`] : []), ...(missed.length ? [`PASSES on ${missed.join(', ')}`] : [])];
  return `${m.op}: ${parts.join(', ')}`;
}

/** The table as text: one row per clause part, then the negative controls and what each breaks. */
export function formatCoverage(t: CoverageTable): string {
  const rows: string[][] = [];
  for (const c of t.clauses) {
    c.parts.forEach((p, i) => {
      const ok = c.problems.some((x) => x.startsWith(`${p.ref}:`) || x.startsWith(`${c.clause}:`)) ? 'MISSING' : 'ok';
      rows.push([i === 0 ? c.clause : '', p.part ?? '', i === 0 ? list(c.checks) : '', list(p.breaking), list(p.mutants.map(mutantCell)), i === 0 ? (c.exercised ? list(c.exercised) : 'not read') : '', ok]);
    });
  }
  const out = [`${t.task}: clause coverage${t.seeds.length ? ` over seeds ${t.seeds.join(', ')}` : ''}`];
  out.push(table(['clause', 'part', 'checks', 'broken alone by', 'mutants', 'exercised on seeds', 'ok'], rows));
  out.push(table(['negative control', 'breaks', 'fails', 'validated'], t.negatives.map((n) => [
    `${n.name}${n.condition === 'clean' ? '' : ` (${n.condition})`}${n.regression ? ' [regression]' : ''}`,
    list(n.breaks), `${list(n.fails)}${n.refused.length ? `; refused ${n.refused.join(', ')}` : ''}`,
    n.validated ? `held on ${n.validated.held.length}/${n.validated.seeds.length} seeds` : 'not run',
  ])));
  out.push(t.ok ? 'every clause is covered' : `${t.problems.length} coverage problem(s):\n${t.problems.map((p) => `  - ${p}`).join('\n')}`);
  return out.join('\n');
}
