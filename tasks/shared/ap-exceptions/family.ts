import type { AgentPolicy, TaskCode, Truth } from '../../../src/task-pack/code';
import {
  FAILING_LABELS, holdAll, holdEveryCode, noteOutsideQueue, payAll, payDueOutsideQueue, payFromPayroll, precautionaryHold, REGRESSION_LABELS, resolveThenWriteOff, updateVendorBank,
} from './failing';
import { solve, type Judge } from './plan';
import { withScopeCases } from './scope';

export interface Family {
  /** The family's short name, as `erp bench strategies --family` takes it. */
  family: string;
  generate: TaskCode['generate'];
  /** The handbook's judgement: the oracle and the four alternatives solve the queue with it. */
  judge: Judge;
  /** The reason code the hold-everything strategy holds under. */
  holdCode: string;
  /** The names task.yaml gives the hold-everything and pay-everything strategies (`hold_both` for a queue of two). */
  names: { holdEverything: string; payEverything: string };
  /** Whether its handbook pays invoices (payments.yaml, PAY-1.1): the wire family only records a payment made outside. */
  pays: boolean;
  /** The family's own plausible mistakes, by name without `neg:`. */
  negatives: Record<string, AgentPolicy>;
  /** Other valid ways of the family's own (a note worded otherwise), by name without `pos:`, beside the matrix's alternatives. */
  positives?: Record<string, AgentPolicy>;
  /** Grader bugs found in this family, label → name in negatives: each must fail in the matrix too. */
  regressions?: Record<string, string>;
  blind: { policy: AgentPolicy; chance(truth: Truth): number };
}

/** Paying invoices due before this date outside the queue is the scope mistake every family plants. */
const DUE_BEFORE = '2026-10-10';

/**
 * A seed 004 family as a task: the oracle, the failing strategies every family shares and its own
 * negatives, and the strategy matrix over them.
 */
export function familyTask(f: Family): TaskCode {
  const alternatives = { reverse_order: solve(f.judge, 'reverse'), equivalent_calls: solve(f.judge, 'equivalent'), extra_reads_and_notes: solve(f.judge, 'thorough'), batched: solve(f.judge, 'batched') };
  return {
    generate: (ctx) => withScopeCases(ctx, f.generate(ctx), f.pays),
    oracle: solve(f.judge, 'reference'),
    negatives: {
      [f.names.holdEverything]: holdAll(f.holdCode),
      [f.names.payEverything]: payAll,
      hold_every_code: holdEveryCode,
      resolve_then_write_off: resolveThenWriteOff(f.judge),
      pay_due_outside_queue: payDueOutsideQueue(f.judge, DUE_BEFORE),
      note_outside_queue: noteOutsideQueue(f.judge),
      precautionary_hold: precautionaryHold(f.judge),
      update_vendor_bank: updateVendorBank(f.judge),
      ...(f.pays ? { pay_from_payroll: payFromPayroll(f.judge) } : {}),
      ...f.negatives,
    },
    // The matrix's other valid solutions are the pack's positive controls (task.yaml declares them alike in every family).
    positives: { ...alternatives, ...f.positives },
    matrix: {
      family: f.family,
      alternatives,
      failing: {
        [FAILING_LABELS.holdEverything]: f.names.holdEverything, [FAILING_LABELS.payEverything]: f.names.payEverything,
        [FAILING_LABELS.holdEveryCode]: 'hold_every_code', [FAILING_LABELS.writeOff]: 'resolve_then_write_off',
      },
      regressions: { [REGRESSION_LABELS.noteOutsideQueue]: 'note_outside_queue', ...f.regressions },
      blind: f.blind,
    },
  };
}

/** The chance a blind strategy that treats the first invoice as the trap passes: one trap, first of the queue. */
export function oneTrapFirst(truth: Truth): number {
  const traps = truth.planted.filter((p) => p.role === 'trap').length;
  return traps === 1 ? 1 / queueLength(truth) : 0;
}

/** How many records the family's queue holds (truth.queue): the planted cases also list scope cases outside it. */
export function queueLength(truth: Truth): number {
  const queue = (truth as { queue?: string[] }).queue;
  if (!queue?.length) throw new Error('The truth lists no queue.');
  return queue.length;
}
