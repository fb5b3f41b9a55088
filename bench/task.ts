import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRun } from '../src/runner/bench-run';
import { generateScenario } from '../src/runner/scenario';
import { validate } from '../src/runner/validate';
import { loadPack } from '../src/task-pack/load';
import { printFigures, timeAsync, wantsJson, type Figure } from './figures';

const TASK = process.env.BENCH_TASK ?? 'payment-run';

/**
 * What an operator waits for on the reference task: one oracle attempt once its scenario exists
 * (warm: the run, the turns, settling to the grading date and grading), the scenario itself from a
 * cached company, and the strict validation of seed 0 from nothing (cold: an empty company cache,
 * so the company's history is generated too).
 */
export async function benchTask(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-bench-task-'));
  const previousCache = process.env.BB_ERP_CACHE_DIR;
  try {
    process.env.BB_ERP_CACHE_DIR = join(dir, 'cache');
    const cold = await timeAsync(() => validate({ tasks: [TASK], seeds: [0], strict: true, jobs: 1, runsDir: join(dir, 'validate'), scenariosDir: join(dir, 'scenarios') }));
    if (!cold.result.ok) throw new Error(`${TASK} seed 0 did not validate: ${cold.result.rows.filter((r) => !r.ok).map((r) => `${r.control}: ${r.got}`).join('; ')}`);

    const scenarioDir = join(dir, 'scenario');
    const scenario = await timeAsync(() => generateScenario(loadPack(TASK), { seed: 0, out: scenarioDir }));
    const warm = await timeAsync(() => benchRun({ task: TASK, seed: 0, agent: 'oracle', runsDir: join(dir, 'runs'), scenarioDir }));
    const verdict = warm.result.attempts[0]!.result.verdict;
    if (verdict !== 'pass') throw new Error(`The oracle's attempt at ${TASK} did not pass: ${verdict}.`);
    return [
      { name: `task.${TASK}.oracle_attempt_warm`, value: warm.seconds, unit: 's', note: 'scenario on disk' },
      { name: `task.${TASK}.scenario_from_cached_company`, value: scenario.seconds, unit: 's', note: 'plant, then the oracle for the reference' },
      { name: `task.${TASK}.validate_strict_seed0_cold`, value: cold.seconds, unit: 's', note: 'empty company cache, one worker' },
    ];
  } finally {
    if (previousCache === undefined) delete process.env.BB_ERP_CACHE_DIR;
    else process.env.BB_ERP_CACHE_DIR = previousCache;
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchTask().then((figures) => printFigures(`Task ${TASK}`, figures, wantsJson())).catch((err) => {
    process.stderr.write(String(err?.stack ?? err) + '\n');
    process.exitCode = 1;
  });
}
