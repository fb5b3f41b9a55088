import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createFaultInjector, parseFaultSpec, type FaultRecord } from '../api/faults';
import type { RequestInterceptor } from '../api/http-app';
import type { TaskPack } from '../task-pack/load';
import type { NegativeControl } from '../task-pack/schema';

/** A declared fault condition (seed 000 §7.1): part of an attempt's identity, never pooled with clean. */
export interface FaultCondition {
  /** The condition's name: the task's profile name, or one derived from the SPEC. */
  condition: string;
  spec: string;
  /** The task's profile this came from, if any. */
  profile: string | null;
  /** Negative controls that apply only under this condition. */
  negativeControls: Record<string, NegativeControl>;
}

export const FAULTS_FILE = 'faults.jsonl';

/**
 * `--faults` as given: the name of one of the task's fault profiles, the profile
 * `flaky-writes:seed=S,rate=R`, or a list of rules. Throws, naming the problem, on anything else.
 */
export function resolveFaults(pack: TaskPack, text: string): FaultCondition {
  const profile = pack.spec.fault_profiles[text];
  if (profile) return { condition: text, spec: profile.spec, profile: text, negativeControls: profile.negative_controls };
  const plan = parseFaultSpec(text);
  const condition = plan.type === 'flaky-writes'
    ? `flaky-writes-seed${plan.seed}-rate${plan.rate}`
    : `faults-${createHash('sha256').update(plan.spec).digest('hex').slice(0, 8)}`;
  return { condition, spec: plan.spec, profile: null, negativeControls: {} };
}

/**
 * The HTTP-side injector of an attempt: each fault goes to faults.jsonl in the attempt folder,
 * beside the runner's files, never into the database or the agent's workspace.
 */
export function attemptInjector(faults: FaultCondition, file: string, server: () => { today(): string; lastSeq(): number }, slowMs: number): RequestInterceptor {
  return createFaultInjector(parseFaultSpec(faults.spec), () => server().today(), {
    slowMs,
    onFault: (record: FaultRecord) => appendFileSync(file, JSON.stringify({ ...record, after_seq: server().lastSeq() }) + '\n'),
  });
}
