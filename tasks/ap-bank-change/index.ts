import type { TaskCode, Truth } from '../../src/task-pack/code';
import {
  FAILING_LABELS, holdAll, holdEveryCode, noteOutsideQueue, payAll, payDueOutsideQueue, REGRESSION_LABELS, resolveThenWriteOff,
} from '../shared/ap-exceptions/failing';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { bankJudge, blind, HANDBOOK } from './judgement';

const judge = bankJudge(HANDBOOK);

/** The blind strategy holds the first invoice and pays the rest: right only when the one trap comes first. */
function blindChance(truth: Truth): number {
  const traps = truth.planted.filter((p) => p.role === 'trap').length;
  return traps === 1 ? 1 / truth.planted.length : 0;
}

/**
 * AP exceptions, bank-change family (seed 004): invoices asking for payment to a new account are held
 * with a note and the vendor record is left alone; invoices printing an account verified by call-back
 * in August are paid to it. Three or four invoices, the mix drawn from the seed.
 */
const task: TaskCode = {
  generate,
  oracle: solve(judge, 'reference'),
  negatives: {
    hold_all: holdAll('bank_details_unverified'),
    pay_all: payAll,
    hold_every_code: holdEveryCode,
    resolve_then_write_off: resolveThenWriteOff(judge),
    pay_due_outside_queue: payDueOutsideQueue(judge, '2026-10-10'),
    note_outside_queue: noteOutsideQueue(judge),
    hold_without_note: solve(bankJudge({ ...HANDBOOK, note: false }), 'reference'),
    hold_every_notice: solve(bankJudge({ ...HANDBOOK, holdEveryNotice: true }), 'reference'),
    pay_requested_account: solve(bankJudge({ ...HANDBOOK, payRequested: true }), 'reference'),
  },
  matrix: {
    family: 'bank-change',
    alternatives: { reverse_order: solve(judge, 'reverse'), equivalent_calls: solve(judge, 'equivalent'), extra_reads_and_notes: solve(judge, 'thorough'), batched: solve(judge, 'batched') },
    failing: {
      [FAILING_LABELS.holdEverything]: 'hold_all', [FAILING_LABELS.payEverything]: 'pay_all', [FAILING_LABELS.holdEveryCode]: 'hold_every_code',
      [FAILING_LABELS.writeOff]: 'resolve_then_write_off',
    },
    regressions: { [REGRESSION_LABELS.noteOutsideQueue]: 'note_outside_queue' },
    blind: { policy: blind, chance: blindChance },
  },
};

export default task;
