import { resolveThenWriteOff } from '../shared/ap-exceptions/failing';
import { familyTask } from '../shared/ap-exceptions/family';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { blind, HANDBOOK, wireJudge } from './judgement';

/**
 * AP exceptions, wire-application family (seed 004): a cleared wire names two of a vendor's three
 * open invoices; apply it in the order listed, leave the rest open and the third untouched.
 */
export default familyTask({
  family: 'wire',
  generate,
  judge: wireJudge(HANDBOOK),
  holdCode: 'other',
  names: { holdEverything: 'hold_both', payEverything: 'pay_both' },
  pays: false,
  negatives: {
    write_off_the_remainder: resolveThenWriteOff(wireJudge(HANDBOOK), true),
    record_without_line: solve(wireJudge({ ...HANDBOOK, nameLine: false }), 'reference'),
    apply_oldest_first: solve(wireJudge({ ...HANDBOOK, listedOrder: false }), 'reference'),
    pay_the_rest: solve(wireJudge({ ...HANDBOOK, payTheRest: true }), 'reference'),
  },
  // Of the six orders the three invoices can take in the queue, one lists the named two first, in their order.
  blind: { policy: blind, chance: () => 1 / 6 },
});
