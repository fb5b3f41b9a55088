import type { TaskCode } from '../../src/task-pack/code';
import { holdAll, holdEveryCode, payAll, payDueOutsideQueue, resolveThenWriteOff } from '../shared/ap-exceptions/failing';
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
    apply_oldest_first: solve(wireJudge({ ...HANDBOOK, listedOrder: false }), 'reference'),
    pay_the_rest: solve(wireJudge({ ...HANDBOOK, payTheRest: true }), 'reference'),
  },
  matrix: {
    family: 'wire',
    alternatives: { reverse_order: solve(judge, 'reverse'), equivalent_calls: solve(judge, 'equivalent'), extra_reads_and_notes: solve(judge, 'thorough'), batched: solve(judge, 'batched') },
    failing: ['hold_both', 'pay_both', 'hold_every_code', 'resolve_then_write_off'],
    regressions: [],
    // Of the six orders the three invoices can take in the queue, one lists the named two first, in their order.
    blind: { policy: blind, chance: () => 1 / 6 },
  },
};

export default task;
