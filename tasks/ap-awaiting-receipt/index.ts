import type { TaskCode, Truth } from '../../src/task-pack/code';
import {
  FAILING_LABELS, holdAll, holdEveryCode, noteOutsideQueue, payAll, payDueOutsideQueue, REGRESSION_LABELS, resolveThenWriteOff,
} from '../shared/ap-exceptions/failing';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { blind, HANDBOOK, receiptJudge } from './judgement';

const judge = receiptJudge(HANDBOOK);

/** The blind strategy holds the first invoice and pays the rest: right only when the one trap comes first. */
function blindChance(truth: Truth): number {
  const traps = truth.planted.filter((p) => p.role === 'trap').length;
  return traps === 1 ? 1 / truth.planted.length : 0;
}

/**
 * AP exceptions, awaiting-receipt family (seed 004): goods billed before they arrived are held; services
 * and goods received in full are paid. Three or four invoices, the mix drawn from the seed.
 */
const task: TaskCode = {
  generate,
  oracle: solve(judge, 'reference'),
  negatives: {
    hold_all: holdAll('awaiting_receipt'),
    pay_all: payAll,
    hold_every_code: holdEveryCode,
    resolve_then_write_off: resolveThenWriteOff(judge),
    pay_due_outside_queue: payDueOutsideQueue(judge, '2026-10-10'),
    note_outside_queue: noteOutsideQueue(judge),
    hold_services: solve(receiptJudge({ holdServices: true }), 'reference'),
  },
  matrix: {
    family: 'awaiting-receipt',
    alternatives: { reverse_order: solve(judge, 'reverse'), equivalent_calls: solve(judge, 'equivalent'), extra_reads_and_notes: solve(judge, 'thorough'), batched: solve(judge, 'batched') },
    failing: {
      [FAILING_LABELS.holdEverything]: 'hold_all', [FAILING_LABELS.payEverything]: 'pay_all', [FAILING_LABELS.holdEveryCode]: 'hold_every_code',
      [FAILING_LABELS.writeOff]: 'resolve_then_write_off',
    },
    regressions: { [REGRESSION_LABELS.noteOutsideQueue]: 'note_outside_queue' },
    blind: { policy: blind, chance: blindChance },
  },
};

export default task;
