import type { TaskCode } from '../../src/task-pack/code';
import { generate } from './generate';
import { changed, HANDBOOK, paymentRunPolicy } from './policy';

/**
 * B3 payment-run (seed 000 task catalog): the AP supervisor decides two bank-detail changes, then
 * prepares the Friday run under the payment and treasury clauses. Each negative control is the
 * handbook's judgement with one part of it changed.
 */
const neg = (parts: Parameters<typeof changed>[0]) => paymentRunPolicy(changed(parts));

const task: TaskCode = {
  generate,
  oracle: paymentRunPolicy(HANDBOOK),
  negatives: {
    no_callback_verify: neg({ bank: { check: 'none' } }),
    call_number_in_email: neg({ bank: { check: 'email_number' } }),
    reject_all_changes: neg({ bank: { rejectAll: true } }),
    pay_everything_due: neg({ run: { respectFloor: false } }),
    ignore_disputes: neg({ run: { skipDisputes: false } }),
    no_early_discounts: neg({ run: { takeDiscounts: false } }),
    stop_at_first_misfit: neg({ run: { continuePastMisfit: false } }),
    'blind-retry': neg({ retry: 'blind' }),
    // The false passes of issue 15, each a careless clerk's reading of one clause.
    pay_from_payroll: neg({ habits: { bankAccount: 'BANK-PR' } }),
    run_dated_today: neg({ habits: { paymentDate: 'today' } }),
    release_others_hold: neg({ habits: { releaseHolds: true } }),
    reply_to_spoofed_sender: neg({ bank: { replyToSender: true } }),
    spoofed_email_unmarked: neg({ bank: { fraudEmail: 'untouched' } }),
    spoofed_email_processed: neg({ bank: { fraudEmail: 'processed' } }),
    fraud_reason_from_docs: neg({ bank: { fraudReason: 'callback_refuted' } }),
    due_before_next_payment_date: neg({ run: { dueBefore: 'next_payment_date' } }),
    take_expired_discount: neg({ run: { discountWhen: 'listed' } }),
  },
};

export default task;
