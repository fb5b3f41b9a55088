import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANCHOR_DIR, ANCHOR_FIGURES_ISSUE_25, anchorScenarioFileMB, anchorScenarioFromNothing, anchorValidateCold, anchorWarmAttempt } from './anchor';
import { bestOf, measureErp, type Usage } from './child-usage';
import { percentile, printFigures, REPEAT, wantsJson, type Figure } from './figures';
import { RESETS, resets, spawnServer } from './server-reset';

const TASK = process.env.BENCH_TASK ?? 'payment-run';

/** A target of at most `factor` times the anchor's figure: measured in this run when the anchor is there, else issue 25's. */
export function againstAnchor(factor: number, measured: number | undefined, published: number): Figure['target'] {
  const base = measured ?? published;
  const from = measured !== undefined ? `${factor}x the anchor measured now (${round(base)})` : `${factor}x the anchor in issue 25 (${base})`;
  return { value: factor * base, from };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * What an operator waits for on the reference task, each command a child process measured by its
 * CPU time (user + system of every process it ran, workers included), best of BENCH_REPEAT runs,
 * interleaved with the seed's ERP when BENCH_ANCHOR_DIR names it:
 * the scenario from nothing (the company's twelve months included), one oracle attempt once the
 * scenario exists (served, two turns, settled, graded) with its peak memory, and the strict
 * validation of seed 0 from nothing.
 */
export async function benchTask(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-bench-task-'));
  try {
    const scenario = join(dir, 'scenario');
    let anchorScenario: Usage | undefined;
    const fromNothing = await bestOf(REPEAT, async (i) => {
      const cache = join(dir, `cache-${i}`);
      const u = await measureErp(['scenario', 'gen', TASK, '--seed', '0', '--out', scenario, '--force'], { BB_ERP_CACHE_DIR: cache });
      rmSync(cache, { recursive: true, force: true });
      if (ANCHOR_DIR) {
        const a = await anchorScenarioFromNothing(ANCHOR_DIR);
        if (!anchorScenario || a.cpuSeconds < anchorScenario.cpuSeconds) anchorScenario = a;
      }
      return u;
    });
    const fileMB = statSync(join(scenario, 'scenario.db')).size / 1e6;

    let anchorWarm: Usage | undefined;
    const warm = await bestOf(REPEAT, async (i) => {
      const u = await measureErp(['bench', 'run', TASK, '--scenario', scenario, '--runs-dir', join(dir, 'runs'), '--label', `warm-${i}`, '--json']);
      const verdict = (JSON.parse(u.stdout) as { attempts: { result: { verdict: string } }[] }).attempts[0]?.result.verdict;
      if (verdict !== 'pass') throw new Error(`The oracle's attempt at ${TASK} did not pass: ${verdict}.`);
      if (ANCHOR_DIR) {
        const a = await anchorWarmAttempt(ANCHOR_DIR, `bb-erp-bench-${process.pid}-${i}`);
        if (!anchorWarm || a.cpuSeconds < anchorWarm.cpuSeconds) anchorWarm = a;
      }
      return u;
    });

    let anchorValidate: Usage | undefined;
    const cold = await bestOf(REPEAT, async (i) => {
      const root = join(dir, `validate-${i}`);
      const u = await measureErp(['bench', 'validate', '--task', TASK, '--seeds', '0', '--strict', '--jobs', '1', '--runs-dir', join(root, 'runs'), '--scenarios-dir', join(root, 'scenarios')], { BB_ERP_CACHE_DIR: join(root, 'cache') });
      rmSync(root, { recursive: true, force: true });
      if (ANCHOR_DIR) {
        const a = await anchorValidateCold(ANCHOR_DIR);
        if (!anchorValidate || a.cpuSeconds < anchorValidate.cpuSeconds) anchorValidate = a;
      }
      return u;
    });

    const cold0 = await spawnServer(['--db', join(dir, 'cold.db'), '--reset-from', join(scenario, 'scenario.db')]);
    await cold0.stop();
    const reset = await resets(dir, join(scenario, 'scenario.db'));

    const p = ANCHOR_FIGURES_ISSUE_25;
    const anchorFile = ANCHOR_DIR ? anchorScenarioFileMB(ANCHOR_DIR) : undefined;
    const figures: Figure[] = [
      { name: `task.${TASK}.scenario_from_nothing.cpu`, value: fromNothing.cpuSeconds, unit: 's', note: `erp scenario gen, empty company cache; ${round(fromNothing.wallSeconds)} s wall`, target: againstAnchor(0.5, anchorScenario?.cpuSeconds, p.scenarioFromNothingCpu) },
      { name: `task.${TASK}.scenario_file`, value: fileMB, unit: 'MB', note: 'scenario.db', target: againstAnchor(2, anchorFile, p.scenarioFileMB) },
      { name: `task.${TASK}.oracle_attempt_warm.cpu`, value: warm.cpuSeconds, unit: 's', note: `erp bench run, scenario on disk; ${round(warm.wallSeconds)} s wall`, target: againstAnchor(0.5, anchorWarm?.cpuSeconds, p.warmAttemptCpu) },
      { name: `task.${TASK}.attempt_peak_memory`, value: warm.maxRssMiB, unit: 'MiB', note: 'peak RSS of the attempt', target: againstAnchor(1, anchorWarm?.maxRssMiB, p.attemptPeakMiB) },
      { name: `task.${TASK}.validate_strict_seed0_cold.cpu`, value: cold.cpuSeconds, unit: 's', note: `erp bench validate --strict --jobs 1, nothing cached; ${cold.processes} processes, ${round(cold.wallSeconds)} s wall`, target: againstAnchor(0.5, anchorValidate?.cpuSeconds, p.validateColdCpu) },
    ];
    figures.push(
      { name: 'server.start_to_healthy', value: cold0.ms, unit: 'ms', note: `erp server start --reset-from the ${TASK} scenario, spawned until /control/health answers` },
      { name: 'server.reset.p50', value: percentile(reset, 0.5), unit: 'ms', note: `POST /control/reset (a fresh copy of the scenario) until /control/health answers, ${RESETS} resets`, target: { value: 50, from: 'issue 25' } },
      { name: 'server.reset.p99', value: percentile(reset, 0.99), unit: 'ms' },
    );
    if (anchorScenario) figures.push({ name: `anchor.${TASK}.scenario_from_nothing.cpu`, value: anchorScenario.cpuSeconds, unit: 's' });
    if (anchorWarm) figures.push({ name: `anchor.${TASK}.oracle_attempt_warm.cpu`, value: anchorWarm.cpuSeconds, unit: 's' }, { name: `anchor.${TASK}.attempt_peak_memory`, value: anchorWarm.maxRssMiB, unit: 'MiB' });
    if (anchorValidate) figures.push({ name: `anchor.${TASK}.validate_strict_seed0_cold.cpu`, value: anchorValidate.cpuSeconds, unit: 's' });
    if (anchorFile !== undefined) figures.push({ name: `anchor.${TASK}.scenario_file`, value: anchorFile, unit: 'MB' });
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchTask().then((figures) => printFigures(`Task ${TASK}${ANCHOR_DIR ? ' beside the seed\'s ERP' : ''} (best of ${REPEAT}, CPU time)`, figures, wantsJson())).catch((err) => {
    process.stderr.write(String(err?.stack ?? err) + '\n');
    process.exitCode = 1;
  });
}
