import type { Truth } from '../../src/task-pack/code';
import { familyTask } from '../shared/ap-exceptions/family';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { blind, HANDBOOK, matchingJudge } from './judgement';

/**
 * AP exceptions, over-billing family (seed 004): a vendor bills more units than were received (short-pay
 * and debit memo), beside an invoice whose unit price is 4 to 8% over the PO (hold, nothing else).
 */
export default familyTask({
  family: 'over-billing',
  generate,
  judge: matchingJudge(HANDBOOK),
  holdCode: 'quantity_variance',
  names: { holdEverything: 'hold_both', payEverything: 'pay_both' },
  negatives: {
    pay_billed_quantity: solve(matchingJudge({ ...HANDBOOK, shortPay: false }), 'reference'),
    short_pay_without_memo: solve(matchingJudge({ ...HANDBOOK, memo: false }), 'reference'),
    memo_price_difference: solve(matchingJudge({ ...HANDBOOK, memoPriceDifference: true }), 'reference'),
    hold_any_price_difference: solve(matchingJudge({ ...HANDBOOK, toleranceBp: 0 }), 'reference'),
  },
  // The over-billed invoice is first in a queue of two half the time.
  blind: { policy: blind, chance: (truth: Truth) => 1 / truth.planted.length },
});
