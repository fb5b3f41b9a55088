import { BANK_READ } from '../ledger/bank';
import { reconcile, reconciliationView } from '../ledger/bank-reconciliation';
import { DateInput, IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/** Each bank account reconciled as of a date: statement and book balances, outstanding items, what does not agree. */
export const bankReconciliationReport = defineReport({
  id: 'bank-reconciliation',
  summary: 'Bank reconciliation as of a date (default today) per account: statement and book balances, outstanding payments, deposits in transit, statement lines not booked, and the difference',
  params: ReportParams({ bank_account: Opt(IdInput), as_of: Opt(DateInput) }),
  permission: BANK_READ,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const accounts = ctx.read.cash.bankAccounts().filter((b) => !params.bank_account || b.id === params.bank_account);
    return { as_of: asOf, accounts: accounts.map((b) => reconciliationView(ctx.read, reconcile(ctx.read, b.id, asOf))) };
  },
});
