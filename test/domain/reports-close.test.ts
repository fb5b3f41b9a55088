import { advanceTo, ok } from '../support/books-fixture';
import { postedEntry, seedCloseBooks } from '../support/close-fixture';
import { call, openTestErp } from '../support/erp';

function books() {
  const { erp, api } = openTestErp();
  const t = seedCloseBooks(api);
  return { erp, api, t };
}
const report = (api: any, token: string, id: string, query: Record<string, unknown> = {}) => call(api, token, 'GET', `/reports/${id}`, undefined, { query });
const entry = (date: string, account: string, amount: string, memo = 'x') => ({ date, memo, lines: [{ account, debit: amount }, { account: '3000', credit: amount }], attachments: [{ kind: 'file', ref: 'support' }] });

describe('the trial balance of one month', () => {
  it("shows each account's opening balance, the month's debits and credits, and its closing balance", () => {
    const { api, t } = books();
    postedEntry(api, t, entry('2026-10-05', '6100', '100.00'));
    advanceTo(api, '2026-11-03');
    postedEntry(api, t, entry('2026-11-02', '6100', '40.00'));
    postedEntry(api, t, { date: '2026-11-03', memo: 'reclass', lines: [{ account: '6500', debit: '15.00' }, { account: '6100', credit: '15.00' }], attachments: [{ kind: 'file', ref: 's' }] });
    const tb = report(api, t.grace, 'trial-balance', { period: '2026-11' }).body;
    expect(tb).toMatchObject({ period: '2026-11', from: '2026-11-01', to: '2026-11-30', period_status: 'open', balanced: true, totals: { period_debit: 55, period_credit: 55, debit: 140, credit: 140 } });
    expect(tb.rows.find((r: any) => r.account === '6100')).toMatchObject({ opening_balance: 100, period_debit: 40, period_credit: 15, debit: 125, credit: 0, balance: 125 });
    expect(tb.rows.find((r: any) => r.account === '3000')).toMatchObject({ opening_balance: 100, period_debit: 0, period_credit: 40, debit: 0, credit: 140, balance: 140 });
    expect(report(api, t.grace, 'trial-balance', { as_of: '2026-10-31' }).body.rows.find((r: any) => r.account === '6100').balance).toBe(100);
  });

  it('refuses a malformed month', () => {
    const { api, t } = books();
    expect(report(api, t.grace, 'trial-balance', { period: '2026-13' }).status).toBe(400);
  });
});

describe('the cash position over a horizon', () => {
  it('shows AP falling due in the days asked for, and the balance left after it', () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/bank-accounts/BANK-OP/deposits', { date: '2026-10-05', amount: '5000.00', credit_account: '3000', reference: 'Opening' }), 'cash');
    const res = report(api, t.grace, 'cash-position', { days: 10 }).body;
    expect(res.horizon).toEqual({ through: '2026-10-15', ap_due: 0, expected_receipts: 0, receipts_by_source: [], projected_balance: 5000 });
    expect(report(api, t.grace, 'cash-position', { days: 400 }).status).toBe(400);
  });
});

describe('the bank reconciliation report', () => {
  it('covers every bank account unless one is asked for', () => {
    const { api, t } = books();
    expect(report(api, t.grace, 'bank-reconciliation').body.accounts.map((a: any) => [a.bank_account, a.reconciled])).toEqual([['BANK-OP', true], ['BANK-PR', true]]);
    expect(report(api, t.grace, 'bank-reconciliation', { bank_account: 'BANK-PR' }).body.accounts).toHaveLength(1);
    expect(report(api, t.sam, 'bank-reconciliation').body.code).toBe('forbidden');
  });
});
