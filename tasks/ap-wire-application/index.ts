import type { TaskCode } from '../../src/task-pack/code';
import {
  FAILING_LABELS, holdAll, holdEveryCode, noteOutsideQueue, payAll, payDueOutsideQueue, REGRESSION_LABELS, resolveThenWriteOff,
} from '../shared/ap-exceptions/failing';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { blind, HANDBOOK, wireJudge } from './judgement';

const judge = wireJudge(HANDBOOK);

/**
 * AP exceptions, wire-application family (seed 004): a cleared wire names two of a vendor's three
 * open invoices; apply it in the order listed, leave the rest open and the third untouched.
 */
const task: TaskCode = {
  generate,
  oracle: solve(judge, 'reference'),
  negatives: {
    hold_both: holdAll('other'),
    pay_both: payAll,
    hold_every_code: holdEveryCode,
    resolve_then_write_off: resolveThenWriteOff(judge),
    pay_due_outside_queue: payDueOutsideQueue(judge, '2026-10-10'),
    note_outside_queue: noteOutsideQueue(judge),
    apply_oldest_first: solve(wireJudge({ ...HANDBOOK, listedOrder: false }), 'reference'),
    pay_the_rest: solve(wireJudge({ ...HANDBOOK, payTheRest: true }), 'reference'),
  },
  matrix: {
    family: 'wire',
    alternatives: { reverse_order: solve(judge, 'reverse'), equivalent_calls: solve(judge, 'equivalent'), extra_reads_and_notes: solve(judge, 'thorough'), batched: solve(judge, 'batched') },
    failing: {
      [FAILING_LABELS.holdEverything]: 'hold_both', [FAILING_LABELS.payEverything]: 'pay_both', [FAILING_LABELS.holdEveryCode]: 'hold_every_code',
      [FAILING_LABELS.writeOff]: 'resolve_then_write_off',
    },
    regressions: { [REGRESSION_LABELS.noteOutsideQueue]: 'note_outside_queue' },
    // Of the six orders the three invoices can take in the queue, one lists the named two first, in their order.
    blind: { policy: blind, chance: () => 1 / 6 },
  },
};

export default task;
