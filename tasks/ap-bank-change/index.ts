import { familyTask, oneTrapFirst } from '../shared/ap-exceptions/family';
import { solve } from '../shared/ap-exceptions/plan';
import { generate } from './generate';
import { bankJudge, blind, HANDBOOK } from './judgement';

/**
 * AP exceptions, bank-change family (seed 004): invoices asking for payment to a new account are held
 * with a note and the vendor record is left alone; invoices printing an account verified by call-back
 * in August are paid to it. Three or four invoices, the mix drawn from the seed.
 */
export default familyTask({
  family: 'bank-change',
  generate,
  judge: bankJudge(HANDBOOK),
  holdCode: 'bank_details_unverified',
  names: { holdEverything: 'hold_all', payEverything: 'pay_all' },
  pays: true,
  negatives: {
    note_without_hold: solve(bankJudge({ ...HANDBOOK, hold: false }), 'reference'),
    hold_without_note: solve(bankJudge({ ...HANDBOOK, note: false }), 'reference'),
    vague_hold_note: solve(bankJudge({ ...HANDBOOK, vagueNote: true }), 'reference'),
    note_without_bank: solve(bankJudge({ ...HANDBOOK, noteWithoutBank: true }), 'reference'),
    hold_every_notice: solve(bankJudge({ ...HANDBOOK, holdEveryNotice: true }), 'reference'),
    pay_requested_account: solve(bankJudge({ ...HANDBOOK, payRequested: true }), 'reference'),
  },
  positives: { note_bank_name_masked_account: solve(bankJudge({ ...HANDBOOK, noteBankNameMasked: true }), 'reference') },
  regressions: { 'a hold note that says nothing': 'vague_hold_note' },
  // The blind strategy holds the first invoice and pays the rest.
  blind: { policy: blind, chance: oneTrapFirst },
});
