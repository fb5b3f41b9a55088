import type { TaskCode, Truth } from '../../src/task-pack/code';
import { holdAll, holdEveryCode, payAll, payDueOutsideQueue, resolveThenWriteOff } from '../shared/ap-exceptions/failing';
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
    hold_services: solve(receiptJudge({ holdServices: true }), 'reference'),
  },
  matrix: {
    family: 'awaiting-receipt',
    alternatives: { reverse_order: solve(judge, 'reverse'), equivalent_calls: solve(judge, 'equivalent'), extra_reads_and_notes: solve(judge, 'thorough'), batched: solve(judge, 'batched') },
    failing: ['hold_all', 'pay_all', 'hold_every_code', 'resolve_then_write_off'],
    regressions: [],
    blind: { policy: blind, chance: blindChance },
  },
};

export default task;
