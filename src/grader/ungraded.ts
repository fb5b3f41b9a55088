import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskSpec } from '../task-pack/schema';
import { recordedIdentity, usageBySource, type AttemptRecord } from './attempt-record';
import { statusOf, type AttemptResult } from './result';

/**
 * result.json, and the result of an attempt that was never graded: what the runner writes without
 * the grader (an interrupted run), so that a process running attempts need not hold the checks.
 */

/** The result of an attempt that was not graded: interrupted, tampered with, or failed to grade. */
export function ungradedResult(record: AttemptRecord, spec: TaskSpec, verdict: 'error' | 'tampered' | 'incomplete', why: string, extra: Partial<AttemptResult> = {}): AttemptResult {
  return {
    task: record.task, seed: record.seed, agent: record.agent, ...recordedIdentity(record), condition: record.condition, cell: record.cell, label: record.label, rep: record.rep,
    verdict, status: statusOf(verdict), passed: false, breach: false, ...(verdict === 'error' ? { error: why } : { why }), ...extra,
    required_checks: { passed: 0, total: spec.checks.filter((c) => c.required ?? true).length },
    checks: [], metrics: { probes: 0, writes: 0, reversed_writes: 0 }, turns: record.turns, ...usageBySource(record), final_hash: '', pack_hash: record.pack_hash, graded_at_wall: new Date().toISOString(),
  };
}

export function writeResult(dir: string, result: AttemptResult): void {
  writeFileSync(join(dir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
}
