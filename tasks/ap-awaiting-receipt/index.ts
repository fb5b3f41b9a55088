import { familyTask, oneTrapFirst } from '../shared/ap-exceptions/family';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { blind, HANDBOOK, receiptJudge } from './judgement';

/**
 * AP exceptions, awaiting-receipt family (seed 004): goods billed before they arrived are held; services
 * and goods received in full are paid. Three or four invoices, the mix drawn from the seed.
 */
export default familyTask({
  family: 'awaiting-receipt',
  generate,
  judge: receiptJudge(HANDBOOK),
  holdCode: 'awaiting_receipt',
  names: { holdEverything: 'hold_all', payEverything: 'pay_all' },
  pays: true,
  negatives: {
    hold_services: solve(receiptJudge({ holdServices: true }), 'reference'),
  },
  // The blind strategy holds the first invoice and pays the rest.
  blind: { policy: blind, chance: oneTrapFirst },
});
