/** Entering, revising, annotating and flagging vendor invoices. */
export const AP_ENTER = 'ap_invoice.enter';
/** Running the three-way match and posting an invoice. */
export const AP_VALIDATE = 'ap_invoice.validate';
/** Placing and releasing holds. */
export const AP_HOLD = 'ap_invoice.hold';
/** Approving an invoice for payment. */
export const AP_APPROVE = 'ap_invoice.approve';
/** Rejecting an unposted invoice and voiding an unpaid one. */
export const AP_REJECT = 'ap_invoice.reject';
export const AP_VOID = 'ap_invoice.void';
/** Writing off an open balance. */
export const AP_WRITE_OFF = 'ap_invoice.write_off';
/** Recording and applying vendor credit memos. */
export const VENDOR_CREDIT = 'vendor_credit.record';
/** Raising debit memos. */
export const DEBIT_MEMO = 'debit_memo.raise';
/** Opening and withdrawing disputes (AP); answering them (the vendor). */
export const DISPUTE_OPEN = 'dispute.open';
export const DISPUTE_ANSWER = 'dispute.answer';
/** The handbook's match tolerance and AP posting accounts. */
export const AP_POLICY = 'ap_policy.set';
/** Counterparties' structured records of what they billed (confidential). */
export const SIM_SCRIPT = 'sim.script';
