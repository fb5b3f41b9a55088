import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AttemptResult } from '../grader/result';
import { loadPack } from '../task-pack/load';
import { loadPackCode } from '../task-pack/module-loader';
import { agentText, type AgentSpec } from './agent-spec';
import { runAttempt } from './attempt';
import { generateScenario } from './scenario';
import { FAULTS_FILE, resolveFaults } from './fault-condition';
import { unfinishedTurns } from './turn-outcome';
import { dropAttemptDatabases } from './db-file';
import { existsSync, readFileSync } from 'node:fs';
import { openDatabase } from '../events/database';
import { readAttemptRecord } from '../grader/attempt-record';
import type { MutationSpec, NegativeControl } from '../task-pack/schema';
import type { TaskPack } from '../task-pack/load';
import type { TaskCode } from '../task-pack/code';
import { genericPositives, type GenericPositive } from './generic-positives';
import { mutantPolicy, mutationNames, type MutantState } from './mutations';
import { readReference } from '../grader/projections';

/** One control of seed 000 §11 and how it came out. */
export interface ControlRow {
  task: string;
  /** null for controls that do not depend on a seed (handbook check and lint). */
  seed: number | null;
  control: string;
  expected: string;
  got: string;
  ok: boolean;
  /** A mutation control's outcome: a check of its clause failed, it changed nothing, or it passed (a false pass). */
  mutant?: MutantOutcome;
}

export type MutantOutcome = 'caught' | 'unchanged' | 'missed';

export interface UnitOptions {
  task: string;
  tasksDir?: string;
  seed: number;
  strict: boolean;
  /** Where this unit's attempts go; emptied first. */
  runsDir: string;
  scenarioDir: string;
  /** Validate under a fault profile of the task: its own negative controls instead of the clean ones. */
  faults?: string;
  /** Keep every attempt's final.db (and an older attempt's start.db); by default those of attempts whose controls held are removed. */
  keepDatabases?: boolean;
  log?: (line: string) => void;
}

const failedIds = (r: AttemptResult) => r.checks.filter((c) => !c.passed).map((c) => c.id);

/** A scripted policy's unfinished turns, pointing at their stderr, or null when every turn finished. */
function brokenTurns(r: AttemptResult): string | null {
  const broken = unfinishedTurns(r.turns);
  return broken.length === 0 ? null : broken.map((t) => `${t.text} (turns/${t.index}/stderr.txt)`).join('; ');
}

/** The refusal codes the agent met in its own turns (its probes), from the attempt's final.db. */
export function agentRefusals(attemptDir: string): string[] {
  const record = readAttemptRecord(attemptDir);
  const db = openDatabase(join(attemptDir, 'final.db'), { readonly: true });
  try {
    const stmt = db.prepare(`SELECT DISTINCT error_code AS code FROM events WHERE outcome = 'refused' AND seq BETWEEN ? AND ? AND error_code IS NOT NULL`);
    return [...new Set(record.agent_windows.flatMap((w) => (stmt.all(w.fromSeq, w.toSeq) as { code: string }[]).map((r) => r.code)))].sort();
  } finally {
    db.close();
  }
}

/** What a negative control must show, in words: the checks it fails (exactly those) and the refusals it meets. */
export function expectedOf(n: NegativeControl): string {
  const parts = [n.fails.length ? `fails exactly ${n.fails.join(', ')}` : 'fails no check', ...(n.refused.length ? [`refused ${n.refused.join(', ')}`] : [])];
  return parts.join('; ');
}

/**
 * Whether a negative control's attempt came out as declared: it fails exactly the checks it names
 * (a check it also fails means it breaks more than it says, or a check is too wide), and its turns
 * met every refusal code it names. Returns the shortfall in words, or null.
 */
export function negativeShortfall(n: NegativeControl, failed: ReadonlySet<string>, refused: readonly string[]): string | null {
  const escaped = n.fails.filter((t) => !failed.has(t));
  const extra = [...failed].filter((t) => !n.fails.includes(t)).sort();
  const unmet = n.refused.filter((c) => !refused.includes(c));
  const out = [
    ...(escaped.length ? [`passes ${escaped.join(', ')}`] : []),
    ...(extra.length ? [`also fails ${extra.join(', ')}`] : []),
    ...(unmet.length ? [`never refused ${unmet.join(', ')}`] : []),
  ];
  return out.length ? out.join('; ') : null;
}

/** The checks a failing attempt failed, each with its detail: the evidence a false fail is reported with. */
export function failedWithEvidence(r: AttemptResult): string {
  return r.checks.filter((c) => !c.passed && c.required).map((c) => `${c.id} (${c.detail})`).join('; ');
}

/** How a positive control came out: it passes every required check, or the checks it failed with their evidence. */
export function positiveGot(r: AttemptResult, broken: string | null, oracleHash: string, fallbacks?: GenericPositive['fallbacks']): { got: string; ok: boolean } {
  const ok = r.verdict === 'pass' && r.checks.every((c) => c.passed || !c.required);
  const notes = [
    ...(r.final_hash && r.final_hash === oracleHash ? ['same final state as the oracle'] : []),
    ...(broken ? [`unfinished: ${broken}`] : []),
    ...(fallbacks && fallbacks.requests ? [`${fallbacks.requests} request(s) over plain HTTP: ${[...fallbacks.reasons].map(([why, n]) => `${n}× ${why}`).join('; ')}`] : []),
  ];
  const head = r.error ? `${r.verdict}: ${r.error}` : ok ? 'pass' : `${r.verdict}: fails ${failedWithEvidence(r) || failedIds(r).join(', ')}`;
  return { got: [head, ...notes].join('; '), ok: ok && !broken };
}

/** The checks that judge a clause: those citing it, and audit checks running a rule it binds. */
export function checksOfClause(pack: TaskPack, ref: string): string[] {
  const clause = ref.split('/')[0]!;
  const rules = pack.policies.clauses.get(clause)?.rules ?? [];
  return pack.spec.checks.filter((c) => c.cites.includes(clause) || ((c.type === 'audit_forbidden' || c.type === 'audit_required') && rules.includes(c.rule))).map((c) => c.id);
}

/** What an omit_text mutation's value stands for on a scenario: the literal, or the reference rows' values. */
export function omittedValues(value: Extract<MutationSpec, { op: 'omit_text' }>['value'], reference: ReadonlyMap<string, { rows: Record<string, string>[] }>): string[] {
  if (typeof value !== 'object') return [String(value)];
  const rows = reference.get(value.projection)?.rows ?? [];
  return rows.filter((r) => Object.entries(value.where ?? {}).every(([k, v]) => r[k] === String(v))).map((r) => r[value.column] ?? '').filter(Boolean);
}

/**
 * How a mutation control came out: unchanged when its match picked nothing it changed or the
 * final state is the oracle's; caught when a check judging its clause fails; missed (a false pass) otherwise.
 */
export function mutantOutcome(pack: TaskPack, m: MutationSpec, state: MutantState, r: AttemptResult, oracleHash: string): { outcome: MutantOutcome; got: string } {
  const judging = checksOfClause(pack, m.breaks);
  const left = state.deferred.length ? `; ${state.deferred.length} write(s) left for a day after the last turn, never made` : '';
  if (state.changed === 0) {
    if (m.op === 'omit_text') return { outcome: 'unchanged', got: state.matched === 0 ? `unchanged: the oracle wrote no ${m.file}` : `unchanged: ${m.file} states none of the values` };
    return { outcome: 'unchanged', got: state.matched === 0 ? 'unchanged: no request matched' : `unchanged: ${state.matched} request(s) matched, none changed` };
  }
  if (m.op === 'add' && state.refusedAdds.length === state.changed) return { outcome: 'unchanged', got: `unchanged: the server refused every added request (${[...new Set(state.refusedAdds)].join(', ')})` };
  if (m.op !== 'omit_text' && r.final_hash && r.final_hash === oracleHash) return { outcome: 'unchanged', got: `unchanged: ${state.changed} request(s) changed, same final state as the oracle` };
  const failed = r.checks.filter((c) => !c.passed && judging.includes(c.id)).map((c) => c.id);
  if (failed.length) return { outcome: 'caught', got: `fails ${failed.join(', ')}${left}` };
  const others = failedIds(r);
  const passing = r.checks.filter((c) => judging.includes(c.id)).map((c) => c.id);
  return { outcome: 'missed', got: `FALSE PASS: ${state.changed} request(s) changed, and ${passing.join(', ') || 'no check of the clause'} pass${others.length ? ` (fails only ${others.join(', ')})` : ''}${r.error ? `; ${r.error}` : ''}${left}` };
}

/**
 * The seeded controls for one task and seed: the oracle passes (every check under --strict, else
 * every required one), twice with the same final state; the null agent fails; each negative
 * control fails exactly the checks task.yaml names for it and meets the refusals it names.
 */
export async function validateUnit(o: UnitOptions): Promise<ControlRow[]> {
  const pack = loadPack(o.task, o.tasksDir);
  const code = loadPackCode(pack);
  const scenario = await generateScenario(pack, { seed: o.seed, out: o.scenarioDir, log: o.log });
  rmSync(o.runsDir, { recursive: true, force: true });
  const faults = o.faults ? resolveFaults(pack, o.faults) : undefined;
  const run = async (agent: AgentSpec, name: string): Promise<AttemptResult> =>
    (await runAttempt({ pack, code, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: o.seed, agent, attemptDir: join(o.runsDir, name), label: 'validate', rep: 1, faults, log: o.log })).result!;
  const rows: ControlRow[] = [];
  // Whether every control an attempt folder answered held: a failing one keeps its databases to be looked into.
  const held = new Map<string, boolean>();
  const row = (control: string, expected: string, got: string, ok: boolean, ...attempts: string[]): ControlRow => {
    for (const attempt of attempts) held.set(attempt, (held.get(attempt) ?? true) && ok);
    return { task: pack.slug, seed: o.seed, control, expected, got, ok };
  };
  // Called once an attempt has answered its last control: about 80 MB go as each one is done, not at the end.
  const done = (attempt: string): void => {
    if (!o.keepDatabases && held.get(attempt) === true) dropAttemptDatabases(join(o.runsDir, attempt), 'its validation control held, so erp bench validate removed its databases (--keep-databases keeps them)');
  };

  const oracle = await run({ kind: 'oracle' }, 'oracle-1');
  const oracleBroken = brokenTurns(oracle);
  const oracleOk = oracle.verdict === 'pass' && !oracleBroken && (!o.strict || oracle.checks.every((c) => c.passed));
  rows.push(row('oracle', o.strict ? 'passes every check' : 'pass', oracle.error ?? oracleBroken ?? (failedIds(oracle).length ? `${oracle.verdict}: fails ${failedIds(oracle).join(', ')}` : oracle.verdict), oracleOk, 'oracle-1'));
  const again = await run({ kind: 'oracle' }, 'oracle-2');
  const same = again.final_hash !== '' && again.final_hash === oracle.final_hash;
  rows.push(row('oracle again', 'same final state', same ? 'same canonical hash' : `hash ${again.final_hash.slice(0, 12)} ≠ ${oracle.final_hash.slice(0, 12)}`, same, 'oracle-1', 'oracle-2'));
  done('oracle-2');

  if (faults) {
    const file = join(o.runsDir, 'oracle-1', FAULTS_FILE);
    const hits = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
    rows.push(row('fault plan', 'hits the oracle', `${hits} fault${hits === 1 ? '' : 's'} injected`, hits > 0, 'oracle-1'));
  }
  done('oracle-1');

  const none = await run({ kind: 'null' }, 'null');
  rows.push(row('null', 'fail', none.error ? `error: ${none.error}` : none.verdict, none.verdict === 'fail', 'null'));
  done('null');

  const negatives = faults ? faults.negativeControls : pack.spec.negative_controls;
  for (const [neg, declared] of Object.entries(negatives).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const agent: AgentSpec = { kind: 'negative', name: neg.slice(4) };
    const dir = agentText(agent).replace(':', '-');
    const result = await run(agent, dir);
    const broken = brokenTurns(result);
    const shortfall = result.verdict === 'error' || broken ? null : negativeShortfall(declared, new Set(failedIds(result)), agentRefusals(join(o.runsDir, dir)));
    const ok = result.verdict !== 'error' && !broken && shortfall === null;
    const got = result.error ? `error: ${result.error}` : broken ?? shortfall ?? expectedOf(declared).replace('fails exactly', 'fails');
    rows.push(row(neg, expectedOf(declared), got, ok, dir));
    done(dir);
  }

  // Positive controls: the pack's own, then those built from the oracle (a fresh set, so their fallbacks are this attempt's).
  const generic = genericPositives(code);
  const withControls: TaskCode = { ...code, positives: { ...code.positives, ...Object.fromEntries(Object.entries(generic).map(([n, g]) => [n, g.policy])) } };
  const runControl = async (agent: AgentSpec, name: string, c: TaskCode): Promise<AttemptResult> =>
    (await runAttempt({ pack, code: c, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: o.seed, agent, attemptDir: join(o.runsDir, name), label: 'validate', rep: 1, faults, log: o.log })).result!;
  const positives = [...Object.keys(code.positives ?? {}).sort(), ...Object.keys(generic)];
  for (const name of positives) {
    const dir = `pos-${name}`;
    const result = await runControl({ kind: 'positive', name }, dir, withControls);
    const { got, ok } = positiveGot(result, brokenTurns(result), oracle.final_hash, generic[name]?.fallbacks);
    rows.push(row(`pos:${name}`, 'passes every required check', got, ok, dir));
    done(dir);
  }

  // Mutation controls (--strict): each operator applied to the oracle must fail a check of the clause it breaks.
  if (o.strict && !faults) {
    const names = mutationNames(pack.spec.mutations);
    const reference = pack.spec.mutations.some((m) => m.op === 'omit_text') ? readReference(join(scenario.dir, 'reference'), pack.spec) : undefined;
    for (const [i, m] of pack.spec.mutations.entries()) {
      const dir = `mut-${i + 1}`;
      const mutant = mutantPolicy(code.oracle, m, m.op === 'omit_text' ? omittedValues(m.value, reference!) : []);
      const result = await runControl({ kind: 'negative', name: dir }, dir, { ...code, negatives: { ...code.negatives, [dir]: mutant.policy } });
      const { outcome, got } = mutantOutcome(pack, m, mutant.state, result, oracle.final_hash);
      rows.push({ ...row(names[i]!, `fails a check of ${m.breaks.split('/')[0]} (or changes nothing)`, got, outcome !== 'missed', dir), mutant: outcome });
      done(dir);
    }
  }
  return rows;
}
