import type { TaskCode, Truth } from '../../src/task-pack/code';
import {
  FAILING_LABELS, holdAll, holdEveryCode, noteOutsideQueue, payAll, payDueOutsideQueue, REGRESSION_LABELS, resolveThenWriteOff,
} from '../shared/ap-exceptions/failing';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { blind, HANDBOOK, matchingJudge } from './judgement';

const judge = matchingJudge(HANDBOOK);

/**
 * AP exceptions, over-billing family (seed 004): a vendor bills more units than were received (short-pay
 * and debit memo), beside an invoice whose unit price is 4 to 8% over the PO (hold, nothing else).
 */
const task: TaskCode = {
  generate,
  oracle: solve(judge, 'reference'),
  negatives: {
    hold_both: holdAll('quantity_variance'),
    pay_both: payAll,
    hold_every_code: holdEveryCode,
    resolve_then_write_off: resolveThenWriteOff(judge),
    pay_due_outside_queue: payDueOutsideQueue(judge, '2026-10-10'),
    note_outside_queue: noteOutsideQueue(judge),
    pay_billed_quantity: solve(matchingJudge({ ...HANDBOOK, shortPay: false }), 'reference'),
    short_pay_without_memo: solve(matchingJudge({ ...HANDBOOK, memo: false }), 'reference'),
    memo_price_difference: solve(matchingJudge({ ...HANDBOOK, memoPriceDifference: true }), 'reference'),
  },
  matrix: {
    family: 'over-billing',
    alternatives: { reverse_order: solve(judge, 'reverse'), equivalent_calls: solve(judge, 'equivalent'), extra_reads_and_notes: solve(judge, 'thorough'), batched: solve(judge, 'batched') },
    failing: {
      [FAILING_LABELS.holdEverything]: 'hold_both', [FAILING_LABELS.payEverything]: 'pay_both', [FAILING_LABELS.holdEveryCode]: 'hold_every_code',
      [FAILING_LABELS.writeOff]: 'resolve_then_write_off',
    },
    regressions: { [REGRESSION_LABELS.noteOutsideQueue]: 'note_outside_queue' },
    // The over-billed invoice is first in a queue of two half the time.
    blind: { policy: blind, chance: (truth: Truth) => 1 / truth.planted.length },
  },
};

export default task;
