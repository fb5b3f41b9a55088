import { call } from '../support/erp';
import { ok } from '../support/payables-fixture';
import { order, salesCompany, shipAndBill } from '../support/sales-fixture';

type C = ReturnType<typeof salesCompany>;
const post = (c: C, token: string, path: string, body: object = {}) => call(c.api, token, 'POST', path, body);
const gl = (c: C, type: string) =>
  c.erp.db.prepare('SELECT account, debit, credit FROM gl_lines WHERE source_type = ? ORDER BY event_id, line_no').all(type).map((l: any) => [l.account, l.debit, l.credit]);
const ties = (c: C) => call(c.api, c.t.grace, 'GET', '/reports/control-ties').body;

/** Two billed invoices: C-2's ARINV-000001 for $650.00 (2/10NET30, contract price) and C-3's ARINV-000002 for $750.00 (list price; C-2 pays for C-3). */
function billed() {
  const c = salesCompany();
  for (const customer of ['C-2', 'C-3']) shipAndBill(c.api, c.t, order(c.api, c.t, { customer, ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] }), customer === 'C-3' ? 'WH2' : 'WH1');
  return c;
}

const deposit = (c: C, amount: number) => ok(post(c, c.t.bank, '/bank-statement-lines', { bank_account: 'BANK-OP', date: c.api.today(), amount, kind: 'deposit', reference: 'CHK 1001' }), 'deposit').id as string;

describe('a cash receipt', () => {
  it('is Dr cash, Cr AR, matched to its deposit line, applied with the discount the terms grant', () => {
    const c = billed();
    const line = deposit(c, 637);
    const res = ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '637.00', reference: 'CHK 1001', statement_line: line, applications: [{ invoice: 'ARINV-000001', amount: '637.00', discount: '13.00' }] }), 'receipt');
    expect(res).toMatchObject({ id: 'CR-000001', status: 'applied', unapplied_amount: 0, applications: [{ invoice: 'ARINV-000001', amount: 637, discount: 13 }] });
    expect(gl(c, 'CashReceiptRecorded')).toEqual([['1000', 63700, 0], ['1200', 0, 63700], ['4400', 1300, 0], ['1200', 0, 1300]]);
    expect(c.api.read.receivables.invoice('ARINV-000001')).toMatchObject({ status: 'paid', open_amount: 0, paid_amount: 63700, discount_taken: 1300 });
    expect(c.api.read.cash.statementLine(line)!.status).toBe('matched');
    expect(ties(c).tied).toBe(true);
  });

  it('lets a parent pay for its subsidiary, and keeps what it does not apply on account until applied later', () => {
    const c = billed();
    const res = ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '1500.00', reference: 'WIRE 55', applications: [{ invoice: 'ARINV-000002', amount: '750.00' }] }), 'receipt');
    expect(res).toMatchObject({ status: 'partially_applied', applied_amount: 750, unapplied_amount: 750 });
    expect(c.api.read.receivables.invoice('ARINV-000002')!.status).toBe('paid');
    expect(c.api.read.receivables.onAccount('C-2')).toBe(75000);
    expect(ok(post(c, c.t.lena, '/cash-receipts/CR-000001/apply', { applications: [{ invoice: 'ARINV-000001', amount: '650.00' }] }), 'apply').unapplied_amount).toBe(100);
    expect(c.api.read.receivables.customerBalance('C-2')).toBe(-10000);
    expect(ties(c).tied).toBe(true);
  });

  it('keeps a short payment open as a deduction with its reason, which the credit manager accepts or rejects', () => {
    const c = billed();
    ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '600.00', reference: 'CHK 7', applications: [{ invoice: 'ARINV-000001', amount: '600.00', deduction: { amount: '50.00', reason: 'damaged' } }] }), 'short');
    expect(c.api.read.receivables.invoice('ARINV-000001')).toMatchObject({ status: 'open', open_amount: 5000 });
    expect(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '50.00', reference: 'x', applications: [{ invoice: 'ARINV-000001', amount: '50.00' }] }).body.code).toBe('exceeds_open_amount');
    expect(post(c, c.t.lena, '/deductions/DED-000001/resolve', { resolution: 'accepted', note: 'x' }).body.code).toBe('forbidden');
    expect(ok(post(c, c.t.ruth, '/deductions/DED-000001/resolve', { resolution: 'accepted', note: 'Damage confirmed by the carrier' }), 'accept')).toMatchObject({ status: 'accepted', account: '4500' });
    expect(gl(c, 'DeductionResolved')).toEqual([['4500', 5000, 0], ['1200', 0, 5000]]);
    expect(c.api.read.receivables.invoice('ARINV-000001')).toMatchObject({ status: 'paid', deductions_accepted: 5000 });
    expect(post(c, c.t.ruth, '/deductions/DED-000001/resolve', { resolution: 'rejected', note: 'x' }).body.code).toBe('invalid_state');
  });

  it('leaves a rejected deduction owed on the invoice, to be collected', () => {
    const c = billed();
    ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '600.00', reference: 'CHK 7', applications: [{ invoice: 'ARINV-000001', amount: '600.00', deduction: { amount: '50.00', reason: 'pricing' } }] }), 'short');
    ok(post(c, c.t.ruth, '/deductions/DED-000001/resolve', { resolution: 'rejected', note: 'Contract price was billed' }), 'reject');
    expect(ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '50.00', reference: 'CHK 8', applications: [{ invoice: 'ARINV-000001', amount: '50.00' }] }), 'rest').status).toBe('applied');
  });

  it('refuses an invoice the payer does not pay for, more than is open or unapplied, a deposit line of another amount, and a date after today', () => {
    const c = billed();
    const receipt = (body: object) => post(c, c.t.lena, '/cash-receipts', { customer: 'C-3', bank_account: 'BANK-OP', amount: '100.00', reference: 'R', ...body }).body;
    expect(receipt({ applications: [{ invoice: 'ARINV-000001', amount: '100.00' }] }).detail).toBe('ARINV-000001 belongs to C-2, which C-3 does not pay for.');
    expect(receipt({ amount: '800.00', applications: [{ invoice: 'ARINV-000002', amount: '751.00' }] }).code).toBe('exceeds_open_amount');
    expect(receipt({ applications: [{ invoice: 'ARINV-000002', amount: '101.00' }] }).code).toBe('exceeds_open_amount');
    expect(receipt({ statement_line: deposit(c, 99) }).code).toBe('invalid_request');
    expect(receipt({ date: '2026-10-06' }).code).toBe('invalid_request');
    expect(receipt({ amount: '0' }).code).toBe('invalid_request');
    expect(receipt({ customer: 'C-9' }).code).toBe('not_found');
  });

  it('is reversed when the bank returns it: cash out, invoices open again, its deductions cancelled', () => {
    const c = billed();
    ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '637.00', reference: 'CHK 9', applications: [{ invoice: 'ARINV-000001', amount: '580.00', discount: '13.00', deduction: { amount: '57.00', reason: 'freight' } }] }), 'receipt');
    const res = ok(post(c, c.t.lena, '/cash-receipts/CR-000001/reverse', { reason: 'nsf' }), 'reverse');
    expect(res).toMatchObject({ status: 'reversed', applications: [{ live: false }] });
    expect(c.api.read.receivables.invoice('ARINV-000001')).toMatchObject({ status: 'open', open_amount: 65000, paid_amount: 0, discount_taken: 0 });
    expect(c.api.read.receivables.onAccount('C-2')).toBe(0);
    expect(c.api.read.arCash.deduction('DED-000001')!.status).toBe('cancelled');
    expect(c.api.read.cash.bookBalance('BANK-OP', '2026-10-05')).toBe(0);
    expect(ties(c).tied).toBe(true);
    expect(post(c, c.t.lena, '/cash-receipts/CR-000001/reverse', { reason: 'nsf' }).body.code).toBe('invalid_state');
  });
});

describe('credit memos', () => {
  it('apply to the invoice named when it can take them, else wait on account to be applied', () => {
    const c = billed();
    expect(ok(post(c, c.t.lena, '/ar-credit-memos', { customer: 'C-2', reason: 'price_adjustment', amount: '20.00', invoice: 'ARINV-000001' }), 'cm')).toMatchObject({ invoice: 'ARINV-000001', unapplied_amount: 0, total: 20 });
    expect(gl(c, 'ArCreditMemoIssued')).toEqual([['4500', 2000, 0], ['1200', 0, 2000]]);
    const big = ok(post(c, c.t.lena, '/ar-credit-memos', { customer: 'C-2', reason: 'price_adjustment', amount: '900.00', invoice: 'ARINV-000001' }), 'big');
    expect(big).toMatchObject({ invoice: null, unapplied_amount: 900 });
    expect(ok(post(c, c.t.lena, `/ar-credit-memos/${big.id}/apply`, { invoice: 'ARINV-000002' }), 'apply').unapplied_amount).toBe(150);
    expect(c.api.read.receivables.invoice('ARINV-000002')!.status).toBe('paid');
    expect(post(c, c.t.lena, `/ar-credit-memos/${big.id}/apply`, { invoice: 'ARINV-000001', amount: '151.00' }).body.code).toBe('exceeds_open_amount');
    expect(ties(c).tied).toBe(true);
  });

  it('pays a volume rebate retroactively once a tier is reached, at the tier\'s rate on all net sales', () => {
    const c = billed();
    ok(post(c, c.t.carla, '/rebate-agreements', { customer: 'C-2', valid_from: '2026-01-01', valid_to: '2026-12-31', tiers: [{ min_amount: '500.00', rebate_bp: 100 }, { min_amount: '1000.00', rebate_bp: 300 }] }), 'rebate');
    expect(call(c.api, c.t.lena, 'GET', '/rebate-agreements/RBA-000001').body).toMatchObject({ net_sales: 650, tier_reached: { min_amount: 500, rebate_bp: 100 }, rebate_earned: 6.5, rebate_due: 6.5 });
    expect(ok(post(c, c.t.lena, '/ar-credit-memos', { customer: 'C-2', reason: 'rebate', rebate_agreement: 'RBA-000001' }), 'rebate memo')).toMatchObject({ total: 6.5, lines: [{ account: '4600' }] });
    expect(call(c.api, c.t.lena, 'GET', '/rebate-agreements/RBA-000001').body.rebate_due).toBe(0);
  });
});
