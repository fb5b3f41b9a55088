import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ATTEMPT_FILE, readAttemptRecord } from '../../grader/attempt-record';
import type { AttemptResult } from '../../grader/result';
import { gradeOrError } from '../../runner/attempt';
import type { TaskPack } from '../../task-pack/load';
import { dayFile, HARBOR, type DayClosed } from './layout';

/**
 * The verifier of an exported Harbor task, in its own container (separate mode): the grader, the
 * scenario and its reference, which neither `main` nor the ERP service ever hold. Harbor runs it
 * after every step with ERP_TURN set. Before the last turn it says whether the business day closed
 * (reward 1, or 0 and the trial stops at min_reward); after the last it grades the attempt the ERP
 * service left in evidence/ with the agent's workspace, as `erp bench grade` would.
 *
 * reward.json holds numbers only (Harbor reads it as a map of rewards): reward, check_rate, breach,
 * probes and one `check:<id>` per check. result.json beside it is the grader's own, checks and all.
 */

export interface VerifierPaths {
  tests: string;
  evidence: string;
  workspace: string;
  out: string;
  /** Where the attempt is put together for the grader. */
  scratch: string;
}

export type Rewards = Record<string, number>;

export function rewardsOf(result: AttemptResult): Rewards {
  const { passed, total } = result.required_checks;
  const rewards: Rewards = {
    reward: result.passed ? 1 : 0,
    check_rate: total > 0 ? passed / total : 0,
    breach: result.breach ? 1 : 0,
    probes: result.metrics.probes,
  };
  for (const check of result.checks) rewards[`check:${check.id}`] = check.passed ? 1 : 0;
  return rewards;
}

function readDay(evidence: string, turn: number): DayClosed | undefined {
  const file = join(evidence, dayFile(turn));
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DayClosed) : undefined;
}

/** Grades the attempt in evidence/ against the reference in tests/scenario; the result, or why there is none. */
export function gradeEvidence(p: VerifierPaths): AttemptResult | { error: string } {
  const source = join(p.evidence, 'attempt');
  if (!existsSync(join(source, ATTEMPT_FILE))) return { error: `The ERP service left no attempt in ${source}: the last day did not close.` };
  rmSync(p.scratch, { recursive: true, force: true });
  cpSync(source, p.scratch, { recursive: true });
  const workspace = join(p.scratch, 'workspace');
  if (existsSync(p.workspace)) cpSync(p.workspace, workspace, { recursive: true, verbatimSymlinks: true });
  else mkdirSync(workspace, { recursive: true });
  const scenarioDir = join(p.tests, 'scenario');
  const pack = { ...(JSON.parse(readFileSync(join(p.tests, 'pack.json'), 'utf8')) as TaskPack), dir: join(p.tests, 'pack') };
  const record = { ...readAttemptRecord(p.scratch), scenario_dir: scenarioDir, pack_dir: pack.dir };
  writeFileSync(join(p.scratch, ATTEMPT_FILE), JSON.stringify(record, null, 2) + '\n');
  return gradeOrError(p.scratch, pack, record);
}

/** One step's verification: writes reward.json (and result.json after the last turn); returns the rewards. */
export function verifyStep(turn: number, turns: number, p: VerifierPaths): Rewards {
  mkdirSync(p.out, { recursive: true });
  let rewards: Rewards;
  const day = readDay(p.evidence, turn);
  if (turn < turns) {
    rewards = { reward: day?.closed ? 1 : 0, day_closed: day?.closed ? 1 : 0 };
    writeFileSync(join(p.out, 'day.json'), JSON.stringify(day ?? { turn, closed: false, error: `No ${dayFile(turn)} in the evidence: the collect hook did not run.` }, null, 2) + '\n');
  } else {
    const graded = day?.closed === false ? { error: `The last day did not close: ${day.error}` } : gradeEvidence(p);
    if ('error' in graded && !('verdict' in graded)) {
      rewards = { reward: 0, day_closed: 0 };
      writeFileSync(join(p.out, 'result.json'), JSON.stringify({ verdict: 'error', error: graded.error }, null, 2) + '\n');
    } else {
      const result = graded as AttemptResult;
      rewards = rewardsOf(result);
      writeFileSync(join(p.out, 'result.json'), JSON.stringify(result, null, 2) + '\n');
      // The projections beside the reference's, for the attempt viewer (erp bench show on the trial).
      if (existsSync(join(p.scratch, 'projections'))) cpSync(join(p.scratch, 'projections'), join(p.out, 'projections'), { recursive: true });
    }
  }
  writeFileSync(join(p.out, 'reward.json'), JSON.stringify(rewards) + '\n');
  return rewards;
}

/** The containers' paths, or a test's: `--tests`, `--evidence`, `--workspace`, `--out` and `--scratch` override them. */
function pathsFrom(argv: string[]): VerifierPaths {
  const p: VerifierPaths = { tests: HARBOR.tests, evidence: HARBOR.evidenceDir, workspace: HARBOR.workspace, out: HARBOR.verifierLogs, scratch: '/tmp/attempt' };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]!.replace(/^--/, '') as keyof VerifierPaths;
    if (!argv[i]!.startsWith('--') || !(name in p) || argv[i + 1] === undefined) throw new Error(`Unknown option ${argv[i]}: the verifier takes --tests, --evidence, --workspace, --out and --scratch, each with a folder.`);
    p[name] = argv[i + 1]!;
  }
  return p;
}

/** The program's command line (bundles.ts makes it the bundle's entry); returns the exit code. */
export function main(argv: string[]): number {
  const turn = Number(process.env.ERP_TURN);
  const turns = Number(process.env.ERP_TURNS);
  if (!Number.isInteger(turn) || !Number.isInteger(turns) || turn < 1 || turn > turns) {
    process.stderr.write('ERP_TURN and ERP_TURNS must be whole numbers with 1 <= ERP_TURN <= ERP_TURNS.\n');
    return 2;
  }
  const rewards = verifyStep(turn, turns, pathsFrom(argv));
  process.stdout.write(`${JSON.stringify(rewards)}\n`);
  return 0;
}
