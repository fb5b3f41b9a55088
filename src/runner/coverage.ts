import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packCoverage, type CoverageTable, type MutantOutcomes, type NegativeOutcomes } from '../handbook/coverage';
import type { Truth } from '../task-pack/code';
import { loadPack, type TaskPack } from '../task-pack/load';
import type { Progress } from './company';
import { generateScenario } from './scenario';
import type { ControlRow } from './validate-unit';

/** truth.json of a generated scenario folder, or undefined when the folder holds none. */
export function readTruth(scenarioDir: string): Truth | undefined {
  const file = join(scenarioDir, 'truth.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Truth) : undefined;
}

/** Where validation and lint find (or generate) a task's scenario for a seed. */
export const scenarioDirOf = (scenariosDir: string | undefined, task: string, seed: number) => resolve(scenariosDir ?? 'scenarios', task, `seed-${seed}`);

/** How each negative control came out in validation rows, by name and seed. */
export function outcomesOf(rows: readonly ControlRow[], task: string): NegativeOutcomes {
  const out = new Map<string, Map<number, boolean>>();
  for (const r of rows) {
    if (r.task !== task || r.seed === null || !r.control.startsWith('neg:')) continue;
    out.set(r.control, (out.get(r.control) ?? new Map()).set(r.seed, r.ok));
  }
  return out;
}

/** How each mutation control came out in validation rows, by name and seed. */
export function mutantOutcomesOf(rows: readonly ControlRow[], task: string): MutantOutcomes {
  const out = new Map<string, Map<number, 'caught' | 'unchanged' | 'missed'>>();
  for (const r of rows) {
    if (r.task !== task || r.seed === null || !r.mutant) continue;
    out.set(r.control, (out.get(r.control) ?? new Map()).set(r.seed, r.mutant));
  }
  return out;
}

export interface CoverageOptions {
  task: string;
  tasksDir?: string;
  seeds: number[];
  scenariosDir?: string;
  log?: (line: string) => void;
  progress?: Progress;
}

/**
 * `erp handbook lint --coverage`: the pack's coverage table over the seeds asked for, reading each
 * seed's planted cases from its scenario (generated when missing or stale; cached otherwise).
 */
export async function coverageReport(o: CoverageOptions): Promise<CoverageTable> {
  const pack: TaskPack = loadPack(o.task, o.tasksDir);
  const truths = new Map<number, Truth>();
  for (const seed of o.seeds) {
    const scenario = await generateScenario(pack, { seed, out: scenarioDirOf(o.scenariosDir, pack.slug, seed), log: o.log, progress: o.progress });
    truths.set(seed, readTruth(scenario.dir)!);
  }
  return packCoverage(pack, { truths });
}
