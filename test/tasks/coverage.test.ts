import { checkPackHandbook, lintPack } from '../../src/handbook';
import { packCoverage } from '../../src/handbook/coverage';
import { defaultTasksDir, loadPack } from '../../src/task-pack/load';
import { listTasks } from '../../src/runner/validate';

const tasks = listTasks(defaultTasksDir());

describe('every task pack is covered clause by clause', () => {
  it('finds the packs of tasks/', () => {
    expect(tasks).toEqual(expect.arrayContaining(['payment-run', 'payment-run-need-to-know', 'ap-bank-change', 'ap-over-billing', 'requisition-approval-queue']));
  });

  describe.each(tasks)('%s', (task) => {
    const pack = loadPack(task);

    it('given its committed handbook and checks, then the handbook renders to the same bytes and lint finds nothing', () => {
      expect(checkPackHandbook(pack).ok).toBe(true);
      expect(lintPack(pack)).toMatchObject({ ok: true, errors: [], unenforced: [] });
    });

    it('given no scenario read, then every clause is enforced by a check and every part of it is broken alone by a negative control', () => {
      expect(packCoverage(pack).problems).toEqual([]);
    });
  });
});

/** The false passes issue 15 found, each a regression control in its pack: which control, the clause part it breaks, and a check it must fail. */
const falsePasses: [task: string, control: string, breaks: string, fails: string][] = [
  ['payment-run', 'neg:pay_from_payroll', 'PAY-1.1/account', 'run-paid-from'],
  ['payment-run', 'neg:run_dated_today', 'PAY-1.1/date', 'run-payment-date'],
  ['payment-run', 'neg:release_others_hold', 'PAY-2.3/held', 'others-holds-kept'],
  ['payment-run', 'neg:reply_to_spoofed_sender', 'VEN-2.3/never_send', 'fraud-details-kept'],
  ['payment-run', 'neg:spoofed_email_unmarked', 'VEN-2.3/email', 'refuted-email-marked'],
  ['payment-run', 'neg:spoofed_email_processed', 'VEN-2.3/email', 'refuted-email-marked'],
  ['payment-run', 'neg:fraud_reason_from_docs', 'VEN-2.3/reject', 'bank-changes-decided'],
  ['payment-run', 'neg:due_before_next_payment_date', 'PAY-2.1', 'invoices-paid'],
  ['payment-run', 'neg:take_expired_discount', 'PAY-2.2/expired', 'amounts-and-discounts'],
  ['ap-bank-change', 'neg:vague_hold_note', 'BANK-1.2/note', 'request-noted'],
  ['requisition-approval-queue', 'neg:same_item_is_duplicate', 'APR-1.7/duplicate', 'decisions'],
  ['requisition-approval-queue', 'neg:budget_code_from_docs', 'APR-1.3/code', 'decisions'],
  ['ap-over-billing', 'neg:hold_any_price_difference', 'MAT-1.3/tolerance', 'within-tolerance-paid'],
];

describe('the false passes of issue 15 are regression controls', () => {
  it.each(falsePasses)('given %s, then %s breaks %s alone, must fail %s, and says which grader bug it guards', (task, control, breaks, fails) => {
    const n = loadPack(task).spec.negative_controls[control];
    expect(n).toBeDefined();
    expect(n!.breaks).toEqual([breaks]);
    expect(n!.fails).toContain(fails);
    expect(n!.regression).toEqual(expect.any(String));
  });
});
