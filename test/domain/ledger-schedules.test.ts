import { advanceTo, ok } from '../support/books-fixture';
import { postedEntry, seedCloseBooks } from '../support/close-fixture';
import { call, eventCount, openTestErp } from '../support/erp';

function books() {
  const { erp, api } = openTestErp();
  const t = seedCloseBooks(api);
  return { erp, api, t };
}

const LATHE = {
  description: 'CNC lathe', cost_account: '1500', accumulated_account: '1510', expense_account: '6700', department: 'OPS',
  cost: '12000.00', life_months: 60, in_service_date: '2026-10-05', source: 'JE-000001',
};
/** The lathe's cost on the books, as the invoice or wire that bought it would post it. */
const capitalize = (api: any, t: any) => postedEntry(api, t, { date: '2026-10-05', memo: 'Lathe bought', lines: [{ account: '1500', debit: '12000.00' }, { account: '3000', credit: '12000.00' }], attachments: [{ kind: 'file', ref: 'invoice' }] });

describe('the fixed-asset register', () => {
  it('registers an asset with its accounts, life and opening depreciation', () => {
    const { api, t } = books();
    const res = call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, opening_accumulated: '400.00' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'FA-000001', cost: 12000, salvage: 0, accumulated: 400, net_book_value: 11600, monthly_depreciation: 200, status: 'in_service', depreciation: [] });
  });

  it('refuses a cost account that is not a debit-normal asset, an accumulated account that is not a contra asset, and an expense account that is not an expense', () => {
    const { api, t } = books();
    expect(call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, cost_account: '2300' }).body.detail).toBe('The cost account must be a debit-normal asset account; 2300 Accrued liabilities is credit-normal liability.');
    expect(call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, accumulated_account: '1500' }).body.code).toBe('invalid_request');
    expect(call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, expense_account: '1510' }).body.code).toBe('invalid_request');
    expect(call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, expense_account: '6999' }).status).toBe(404);
  });

  it('refuses a salvage value at or above cost, opening depreciation above what can be depreciated, and an unknown department', () => {
    const { api, t } = books();
    expect(call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, salvage: '12000.00' }).body.code).toBe('invalid_request');
    expect(call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, salvage: '2000.00', opening_accumulated: '10000.01' }).body.code).toBe('invalid_request');
    expect(call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, department: 'NOPE' }).status).toBe(404);
    expect(call(api, t.sam, 'POST', '/fixed-assets', LATHE).body.code).toBe('forbidden');
  });
});

describe('a depreciation run', () => {
  it('takes nothing in the month the asset is placed in service, then a month of straight line each month after', () => {
    const { api, t } = books();
    capitalize(api, t);
    ok(call(api, t.lena, 'POST', '/fixed-assets', LATHE), 'asset');
    advanceTo(api, '2026-11-02');
    expect(call(api, t.lena, 'POST', '/depreciation-runs', { period: '2026-10' }).body).toMatchObject({ id: 'DPR-000001', period: '2026-10', total: 0, lines: [] });
    advanceTo(api, '2026-12-01');
    const nov = call(api, t.lena, 'POST', '/depreciation-runs', { period: '2026-11' });
    expect(nov.body).toMatchObject({ period: '2026-11', total: 200, lines: [{ asset: 'FA-000001', amount: 200 }] });
    const lines = call(api, t.grace, 'GET', '/gl-lines', undefined, { query: { source_type: 'DepreciationRunPosted' } }).body.items;
    expect(lines.map((l: any) => [l.date, l.account, l.debit, l.credit, l.department])).toEqual([['2026-11-30', '6700', 200, 0, 'OPS'], ['2026-11-30', '1510', 0, 200, null]]);
    expect(call(api, t.lena, 'GET', '/fixed-assets/FA-000001').body).toMatchObject({ accumulated: 200, net_book_value: 11800, last_period: '2026-11', depreciation: [{ period: '2026-11', amount: 200 }] });
  });

  it('takes exactly what is left in the last month, then marks the asset fully depreciated', () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/fixed-assets', { ...LATHE, cost: '1000.00', life_months: 3, in_service_date: '2026-09-15' }), 'asset');
    advanceTo(api, '2026-12-01');
    const takes = ['2026-10', '2026-11'].map((period) => call(api, t.lena, 'POST', '/depreciation-runs', { period }).body.total);
    advanceTo(api, '2027-01-04');
    takes.push(call(api, t.lena, 'POST', '/depreciation-runs', { period: '2026-12' }).body.total);
    expect(takes).toEqual([333.33, 333.34, 333.33]);
    expect(call(api, t.lena, 'GET', '/fixed-assets/FA-000001').body).toMatchObject({ accumulated: 1000, status: 'fully_depreciated' });
  });

  it('refuses a second run for a month, a month before the last run, a month ahead, and a closed month', () => {
    const { erp, api, t } = books();
    advanceTo(api, '2026-12-01');
    ok(call(api, t.lena, 'POST', '/depreciation-runs', { period: '2026-11' }), 'nov');
    const before = eventCount(erp);
    expect(call(api, t.lena, 'POST', '/depreciation-runs', { period: '2026-11' }).body.code).toBe('already_exists');
    expect(call(api, t.lena, 'POST', '/depreciation-runs', { period: '2026-10' }).body.code).toBe('invalid_state');
    expect(call(api, t.lena, 'POST', '/depreciation-runs', { period: '2027-01' }).body.code).toBe('invalid_request');
    ok(call(api, t.grace, 'POST', '/periods/2026-10/close', {}), 'close oct');
    ok(call(api, t.grace, 'POST', '/periods/2026-11/close', {}), 'close nov');
    expect(call(api, t.lena, 'POST', '/depreciation-runs', { period: '2026-12' }).status).toBe(201);
    expect(eventCount(erp)).toBe(before + 6);
  });

  it("shows in the close checklist when the month's run is missing, or the register and the ledger disagree", () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/fixed-assets', LATHE), 'asset registered, its cost never posted');
    advanceTo(api, '2026-11-02');
    const check = call(api, t.grace, 'GET', '/periods/2026-10/close-checklist').body.checks.find((c: any) => c.id === 'depreciation');
    expect(check).toMatchObject({ blocking: false, ok: false, problems: ['No depreciation run for 2026-10.', 'Account 1500 is 0.00 in the ledger and 12,000.00 in the fixed-asset register.'] });
  });
});

const POLICY = { description: 'Property insurance, Oct to Sep', prepaid_account: '1410', expense_account: '6400', department: 'OPS', amount: '1200.00', start_period: '2026-10', months: 12, source: 'JE-000001' };

describe('the prepaid register and its amortization', () => {
  it('registers a prepayment and expenses a twelfth of it in each month from its first', () => {
    const { api, t } = books();
    postedEntry(api, t, { date: '2026-10-05', memo: 'Premium paid', lines: [{ account: '1410', debit: '1200.00' }, { account: '3000', credit: '1200.00' }], attachments: [{ kind: 'file', ref: 'policy' }] });
    expect(call(api, t.lena, 'POST', '/prepaid-schedules', POLICY).body).toMatchObject({ id: 'PPD-000001', amount: 1200, amortized: 0, unamortized: 1200, status: 'amortizing' });
    advanceTo(api, '2026-11-02');
    expect(call(api, t.lena, 'POST', '/amortization-runs', { period: '2026-10' }).body).toMatchObject({ id: 'AMR-000001', total: 100, lines: [{ schedule: 'PPD-000001', amount: 100 }] });
    expect(api.read.ledger.balance('1410', '2026-10-31')).toBe(110_000);
    expect(api.read.ledger.balance('6400', '2026-10-31')).toBe(10_000);
    const check = call(api, t.grace, 'GET', '/periods/2026-10/close-checklist').body.checks.find((c: any) => c.id === 'prepaid_amortization');
    expect(check).toMatchObject({ ok: true, problems: [] });
  });

  it('takes only what opening amortization left, and refuses opening amortization above the amount', () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/prepaid-schedules', { ...POLICY, start_period: '2026-01', opening_amortized: '850.00' }), 'schedule');
    advanceTo(api, '2026-11-02');
    expect(call(api, t.lena, 'POST', '/amortization-runs', { period: '2026-10' }).body.total).toBe(150);
    expect(call(api, t.lena, 'POST', '/prepaid-schedules', { ...POLICY, opening_amortized: '1200.01' }).body.code).toBe('invalid_request');
  });

  it('refuses a prepaid account that is not an asset, and a run twice for one month', () => {
    const { api, t } = books();
    expect(call(api, t.lena, 'POST', '/prepaid-schedules', { ...POLICY, prepaid_account: '6400' }).body.code).toBe('invalid_request');
    advanceTo(api, '2026-11-02');
    ok(call(api, t.lena, 'POST', '/amortization-runs', { period: '2026-10' }), 'first');
    expect(call(api, t.lena, 'POST', '/amortization-runs', { period: '2026-10' }).body.code).toBe('already_exists');
  });
});
