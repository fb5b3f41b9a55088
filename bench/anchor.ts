import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { measurePython, type Usage } from './child-usage';

/**
 * The seed's public ERP (erphq/business-bench, Python and SQLite), built beside this project in a
 * folder of its own and named by BENCH_ANCHOR_DIR. Nothing of it is in this repository; the
 * benchmark only runs its commands there. Without it, targets come from the figures issue 25
 * measured on this machine (ANCHOR_FIGURES_ISSUE_25).
 */
export const ANCHOR_DIR = process.env.BENCH_ANCHOR_DIR && existsSync(process.env.BENCH_ANCHOR_DIR) ? process.env.BENCH_ANCHOR_DIR : undefined;

/** The anchor's figures as issue 25 measured them (2 cores, interleaved runs, CPU time). */
export const ANCHOR_FIGURES_ISSUE_25 = {
  scenarioFromNothingCpu: 2.11,
  northgateCpu: 1.58,
  warmAttemptCpu: 0.71,
  validateColdCpu: 4.58,
  resetMs: 96,
  attemptPeakMiB: 75,
  scenarioFileMB: 2.16,
  getP50NewConnectionMs: 7.2,
  getP50KeepAliveMs: 48.5,
} as const;

const PYTHONPATH = (dir: string) => ({ PYTHONPATH: [join(dir, 'erp'), join(dir, 'tasks', 'lib'), join(dir, 'bench')].join(':') });
const SCENARIO = (dir: string) => join(dir, '.cache', 'process', 'payment-run', 'seed-0');

/** Generates the anchor's payment-run scenario (its reference pass included) from nothing. */
export function anchorScenarioFromNothing(dir: string): Promise<Usage> {
  rmSync(SCENARIO(dir), { recursive: true, force: true });
  return measurePython(['python3', '-c', "import process_run as pr; pr.ensure_scenario('payment-run', 0, True)"], dir, PYTHONPATH(dir));
}

/** One oracle attempt, graded, once the anchor's scenario exists. */
export function anchorWarmAttempt(dir: string, label: string): Promise<Usage> {
  const results = join(dir, 'results', label);
  rmSync(results, { recursive: true, force: true });
  return measurePython(['python3', 'bench/process_run.py', '--task', 'payment-run', '--harness', 'oracle', '--label', label], dir, PYTHONPATH(dir))
    .finally(() => rmSync(results, { recursive: true, force: true }));
}

/** Strict validation of payment-run seed 0 with no scenario generated yet. */
export function anchorValidateCold(dir: string): Promise<Usage> {
  rmSync(SCENARIO(dir), { recursive: true, force: true });
  return measurePython(['python3', 'bench/validate_process.py', '--task', 'payment-run', '--seeds', '0', '--strict'], dir, PYTHONPATH(dir));
}

export function anchorScenarioFileMB(dir: string): number | undefined {
  const file = join(SCENARIO(dir), 'scenario.db');
  return existsSync(file) ? statSync(file).size / 1e6 : undefined;
}
