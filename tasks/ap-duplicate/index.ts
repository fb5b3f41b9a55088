import type { Truth } from '../../src/task-pack/code';
import { familyTask, queueLength } from '../shared/ap-exceptions/family';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { blind, duplicateJudge, HANDBOOK } from './judgement';

/**
 * AP exceptions, duplicate family (seed 004): the AP clerk's queue holds a paid invoice resent under
 * its number written another way, and a look-alike of the same vendor and total to pay.
 */
export default familyTask({
  family: 'duplicate',
  generate,
  judge: duplicateJudge(HANDBOOK),
  holdCode: 'duplicate',
  names: { holdEverything: 'hold_both', payEverything: 'pay_both' },
  pays: true,
  negatives: {
    exact_number_match: solve(duplicateJudge({ ...HANDBOOK, normalize: false }), 'reference'),
    hold_without_flag: solve(duplicateJudge({ ...HANDBOOK, flag: false }), 'reference'),
    flag_without_hold: solve(duplicateJudge({ ...HANDBOOK, hold: false }), 'reference'),
    same_amount_is_duplicate: solve(duplicateJudge({ ...HANDBOOK, sameAmountIsDuplicate: true }), 'reference'),
  },
  // The duplicate is first in a queue of two half the time.
  blind: { policy: blind, chance: (truth: Truth) => 1 / queueLength(truth) },
});
