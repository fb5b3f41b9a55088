import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AttemptResult } from '../grader/result';
import type { TaskCode, Truth } from '../task-pack/code';
import { loadPack } from '../task-pack/load';
import { loadPackCode } from '../task-pack/module-loader';
import type { AgentSpec } from './agent-spec';
import { runAttempt } from './attempt';
import { unfinishedTurns } from './turn-outcome';
import { generateScenario } from './scenario';

export type StrategyKind = 'reference' | 'alternative' | 'failing' | 'regression' | 'blind';

/** One strategy on one scenario of a family, and how it came out. */
export interface StrategyCell {
  family: string;
  task: string;
  seed: number;
  kind: StrategyKind;
  /** The label the matrix prints (shared across families for the failing strategies). */
  strategy: string;
  /** The policy that played it: oracle, or a name in the pack's negatives or alternatives. */
  policy: string;
  verdict: AttemptResult['verdict'];
  passed: boolean;
  checks_passed: number;
  checks_total: number;
  failed_checks: string[];
  /** Blind only: the chance it passes this scenario. */
  chance?: number;
  error?: string;
  /** Turns the policy did not finish: such a run shows nothing about the checks either way. */
  unfinished?: string;
}

export interface StrategyUnitOptions {
  task: string;
  tasksDir?: string;
  seed: number;
  /** Where this unit's attempts go; emptied first. */
  runsDir: string;
  scenarioDir: string;
  log?: (line: string) => void;
}

/** Every policy of the matrix under one name space, as the runner takes negative controls. */
function withMatrixPolicies(code: TaskCode): TaskCode {
  const m = code.matrix!;
  const alternatives = Object.fromEntries(Object.entries(m.alternatives).map(([name, p]) => [`alt-${name}`, p]));
  return { ...code, negatives: { ...code.negatives, ...alternatives, blind: m.blind.policy } };
}

/**
 * The strategy matrix of one family on one seed (seed 004's validation): the reference, the other
 * valid solutions, the failing strategies, the regression strategies and the blind one, each run
 * through the real runner on the same scenario and graded.
 */
export async function runStrategyUnit(o: StrategyUnitOptions): Promise<StrategyCell[]> {
  const pack = loadPack(o.task, o.tasksDir);
  const base = loadPackCode(pack);
  if (!base.matrix) throw new Error(`${pack.slug} declares no strategy matrix.`);
  const code = withMatrixPolicies(base);
  const m = base.matrix;
  const scenario = await generateScenario(pack, { seed: o.seed, out: o.scenarioDir, log: o.log });
  const truth = JSON.parse(readFileSync(join(scenario.dir, 'truth.json'), 'utf8')) as Truth;
  rmSync(o.runsDir, { recursive: true, force: true });
  const plan: { kind: StrategyKind; strategy: string; policy: string; agent: AgentSpec }[] = [
    { kind: 'reference', strategy: 'reference', policy: 'oracle', agent: { kind: 'oracle' } },
    ...Object.keys(m.alternatives).map((name) => ({ kind: 'alternative' as const, strategy: name, policy: `alt-${name}`, agent: { kind: 'negative' as const, name: `alt-${name}` } })),
    ...Object.entries(m.failing).map(([label, name]) => ({ kind: 'failing' as const, strategy: label, policy: name, agent: { kind: 'negative' as const, name } })),
    ...Object.entries(m.regressions).map(([label, name]) => ({ kind: 'regression' as const, strategy: label, policy: name, agent: { kind: 'negative' as const, name } })),
    { kind: 'blind', strategy: 'blind (queue position)', policy: 'blind', agent: { kind: 'negative', name: 'blind' } },
  ];
  const cells: StrategyCell[] = [];
  for (const p of plan) {
    const out = await runAttempt({
      pack, code, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: o.seed, agent: p.agent,
      attemptDir: join(o.runsDir, p.policy), label: 'strategies', rep: 1, log: o.log,
    });
    const r = out.result!;
    const unfinished = unfinishedTurns(r.turns).map((t) => `${t.text} (${join(o.runsDir, p.policy, 'turns', String(t.index), 'stderr.txt')})`).join('; ');
    cells.push({
      family: m.family, task: pack.slug, seed: o.seed, kind: p.kind, strategy: p.strategy, policy: p.policy, verdict: r.verdict, passed: r.verdict === 'pass',
      checks_passed: r.checks.filter((c) => c.passed).length, checks_total: r.checks.length, failed_checks: r.checks.filter((c) => !c.passed).map((c) => c.id),
      ...(p.kind === 'blind' ? { chance: m.blind.chance(truth) } : {}), ...(r.error ? { error: r.error } : {}), ...(unfinished ? { unfinished } : {}),
    });
  }
  return cells;
}
