import type { TaskCode, Truth } from '../../src/task-pack/code';
import {
  FAILING_LABELS, holdAll, holdEveryCode, noteOutsideQueue, payAll, payDueOutsideQueue, REGRESSION_LABELS, resolveThenWriteOff,
} from '../shared/ap-exceptions/failing';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { blind, duplicateJudge, HANDBOOK } from './judgement';

const judge = duplicateJudge(HANDBOOK);

/**
 * AP exceptions, duplicate family (seed 004): the AP clerk's queue holds a paid invoice resent under
 * its number written another way, and a look-alike of the same vendor and total to pay.
 */
const task: TaskCode = {
  generate,
  oracle: solve(judge, 'reference'),
  negatives: {
    hold_both: holdAll('duplicate'),
    pay_both: payAll,
    hold_every_code: holdEveryCode,
    resolve_then_write_off: resolveThenWriteOff(judge),
    pay_due_outside_queue: payDueOutsideQueue(judge, '2026-10-10'),
    note_outside_queue: noteOutsideQueue(judge),
    hold_without_flag: solve(duplicateJudge({ ...HANDBOOK, flag: false }), 'reference'),
    same_amount_is_duplicate: solve(duplicateJudge({ ...HANDBOOK, sameAmountIsDuplicate: true }), 'reference'),
  },
  matrix: {
    family: 'duplicate',
    alternatives: { reverse_order: solve(judge, 'reverse'), equivalent_calls: solve(judge, 'equivalent'), extra_reads_and_notes: solve(judge, 'thorough'), batched: solve(judge, 'batched') },
    failing: {
      [FAILING_LABELS.holdEverything]: 'hold_both', [FAILING_LABELS.payEverything]: 'pay_both', [FAILING_LABELS.holdEveryCode]: 'hold_every_code',
      [FAILING_LABELS.writeOff]: 'resolve_then_write_off',
    },
    regressions: { [REGRESSION_LABELS.noteOutsideQueue]: 'note_outside_queue' },
    // The duplicate is first in a queue of two half the time.
    blind: { policy: blind, chance: (truth: Truth) => 1 / truth.planted.length },
  },
};

export default task;
