/** Preparing payment runs: create, add and remove items, submit, cancel. */
export const RUN_PREPARE = 'payment_run.prepare';
/** Approving and returning submitted runs, within a payment_run approval limit. */
export const RUN_APPROVE = 'payment_run.approve';
/** Releasing approved runs: the payments leave. */
export const RUN_RELEASE = 'payment_run.release';
/** Paying one invoice at once, outside a run. */
export const PAY = 'payment.pay';
/** Recording a payment released outside AP that the bank feed shows cleared. */
export const RECORD_EXTERNAL = 'payment.record_external';
/** Clearing and returning payments against the bank's statement lines. */
export const CLEAR = 'payment.clear';
/** Voiding a released payment that has not cleared. */
export const VOID = 'payment.void';
