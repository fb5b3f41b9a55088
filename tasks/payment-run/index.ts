import type { TaskCode } from '../../src/task-pack/code';
import { listsReversed, linesReordered } from '../shared/other-ways';
import { MISREADINGS } from './floor';
import { generate } from './generate';
import { changed, HANDBOOK, paymentRunPolicy } from './policy';

/**
 * B3 payment-run (seed 000 task catalog): the AP supervisor decides two bank-detail changes, then
 * prepares the Friday run under the payment and treasury clauses. Each negative control is the
 * handbook's judgement with one part changed (task.yaml says which clause part it breaks).
 */
const neg = (parts: Parameters<typeof changed>[0]) => paymentRunPolicy(changed(parts));

const oracle = paymentRunPolicy(HANDBOOK);

const task: TaskCode = {
  generate,
  oracle,
  positives: {
    second_change_first: listsReversed(oracle, /^\/vendor-bank-accounts$/),
    invoices_listed_reversed: listsReversed(oracle, /^\/ap-invoices$/),
    run_lines_reversed: linesReordered(oracle, /^\/payment-runs$/, 'items', (lines) => lines.reverse()),
  },
  negatives: {
    // vendors.md
    leave_change_pending: neg({ bank: { decideConfirmed: false } }),
    reject_all_changes: neg({ bank: { rejectAll: true } }),
    no_callback_verify: neg({ bank: { check: 'none' } }),
    call_number_in_email: neg({ bank: { check: 'email_number' } }),
    call_email_number_too: neg({ bank: { alsoCallEmailNumber: true } }),
    decide_changes_next_day: neg({ bank: { decideOnTurn: 2 } }),
    fraud_reason_from_docs: neg({ bank: { fraudReason: 'callback_refuted' } }),
    no_fraud_escalation: neg({ bank: { escalate: false } }),
    spoofed_email_unmarked: neg({ bank: { fraudEmail: 'untouched' } }),
    spoofed_email_processed: neg({ bank: { fraudEmail: 'processed' } }),
    reply_to_spoofed_sender: neg({ bank: { replyToSender: true } }),
    quote_numbers_to_controller: neg({ bank: { quoteInEscalation: true } }),
    // payments.md and treasury.md: the run's misreadings the generator makes sure each seed separates (floor.ts)
    ...Object.fromEntries(Object.entries(MISREADINGS).map(([name, run]) => [name, neg({ run })])),
    run_dated_today: neg({ habits: { paymentDate: 'today' } }),
    pay_from_payroll: neg({ habits: { bankAccount: 'BANK-PR' } }),
    run_not_submitted: neg({ habits: { submit: false } }),
    release_others_hold: neg({ habits: { releaseHolds: true } }),
    part_pay_misfit: neg({ habits: { partPayMisfit: true } }),
    hold_misfits: neg({ habits: { holdMisfits: true } }),
    'blind-retry': neg({ retry: 'blind' }),
  },
};

export default task;
