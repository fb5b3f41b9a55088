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
  names: { holdEverything: 'hold_all', payEverything: 'pay_all' },
  pays: true,
  negatives: {
    pay_billed_quantity: solve(matchingJudge({ ...HANDBOOK, shortPay: false }), 'reference'),
    short_pay_without_memo: solve(matchingJudge({ ...HANDBOOK, memo: false }), 'reference'),
    memo_price_difference: solve(matchingJudge({ ...HANDBOOK, memoPriceDifference: true }), 'reference'),
    hold_any_price_difference: solve(matchingJudge({ ...HANDBOOK, toleranceBp: 0 }), 'reference'),
  },
  // Of the six orders the three invoices can take in the queue, one lists them as the blind strategy guesses.
  blind: { policy: blind, chance: () => 1 / 6 },
});
