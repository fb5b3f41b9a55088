/** Billing shipments and entering manual AR invoices (opening balances, charges). */
export const AR_INVOICE_BILL = 'ar_invoice.bill';
/** Voiding an AR invoice nothing was applied to. */
export const AR_INVOICE_VOID = 'ar_invoice.void';
/** Recording customer payments, applying them to invoices, reversing returned ones. */
export const CASH_RECEIPT_RECORD = 'cash_receipt.record';
/** Issuing and applying AR credit memos (returns, rebates, allowances). */
export const AR_CREDIT_MEMO = 'ar_credit_memo.issue';
/** Collections: dunning, customer credit holds, credit limits, deductions (the credit manager). */
export const CREDIT_MANAGE = 'credit.manage';
/** Recording a customer's promise to pay: the credit manager, or the customer itself. */
export const PROMISE_RECORD = 'promise.record';
/** The accounts sales and receivables post to, and the default price list. */
export const SALES_POLICY_SET = 'sales_policy.set';
