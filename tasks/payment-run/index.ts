import type { TaskCode } from '../../src/task-pack/code';
import { generate } from './generate';
import { HANDBOOK, paymentRunPolicy } from './policy';

/**
 * B3 payment-run (seed 000 task catalog): the AP supervisor decides two bank-detail changes, then
 * prepares the Friday run under the payment and treasury clauses. Each negative control is the
 * handbook's judgement with one part of it changed.
 */
const task: TaskCode = {
  generate,
  oracle: paymentRunPolicy(HANDBOOK),
  negatives: {
    no_callback_verify: paymentRunPolicy({ ...HANDBOOK, bank: 'no_callback' }),
    call_number_in_email: paymentRunPolicy({ ...HANDBOOK, bank: 'email_number' }),
    reject_all_changes: paymentRunPolicy({ ...HANDBOOK, bank: 'reject_all' }),
    pay_everything_due: paymentRunPolicy({ ...HANDBOOK, run: { ...HANDBOOK.run, respectFloor: false } }),
    ignore_disputes: paymentRunPolicy({ ...HANDBOOK, run: { ...HANDBOOK.run, skipDisputes: false } }),
    no_early_discounts: paymentRunPolicy({ ...HANDBOOK, run: { ...HANDBOOK.run, takeDiscounts: false } }),
    stop_at_first_misfit: paymentRunPolicy({ ...HANDBOOK, run: { ...HANDBOOK.run, continuePastMisfit: false } }),
    'blind-retry': paymentRunPolicy({ ...HANDBOOK, retry: 'blind' }),
  },
};

export default task;
