import { advanceTo } from '../support/books-fixture';
import { call } from '../support/erp';
import { ok } from '../support/payables-fixture';
import { order, salesCompany, shipAndBill } from '../support/sales-fixture';

type C = ReturnType<typeof salesCompany>;
const post = (c: C, token: string, path: string, body: object = {}) => call(c.api, token, 'POST', path, body);
const get = (c: C, path: string, query: object = {}) => call(c.api, c.t.ruth, 'GET', path, undefined, { query: query as Record<string, unknown> }).body;

/** C-1 owes ARINV-000001 ($804.38, due 4 November) and it is now 20 November: 16 days past due. */
function overdue() {
  const c = salesCompany();
  shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] }));
  advanceTo(c.api, '2026-11-20');
  return c;
}

describe('collections', () => {
  it('duns a customer\'s past-due invoices by bucket and records its promise to pay, which is kept when the cash comes by the date', () => {
    const c = overdue();
    const dun = ok(post(c, c.t.ruth, '/dunning-actions', { customer: 'C-1', level: 'reminder' }), 'dun');
    expect(dun).toMatchObject({ id: 'DUN-000001', bucket: '1_30', total_overdue: 804.38, invoices: [{ invoice: 'ARINV-000001', days_past_due: 16, bucket: '1_30' }] });
    expect(post(c, c.t.ben, '/dunning-actions', { customer: 'C-1', level: 'reminder' }).body.code).toBe('forbidden');
    const promise = ok(post(c, c.t.cust, '/promises-to-pay', { customer: 'C-1', promise_date: '2026-11-27', amount: '804.38', dunning: dun.id }), 'promise');
    expect(promise).toMatchObject({ status: 'open', dunning: dun.id });
    expect(get(c, `/dunning-actions/${dun.id}`).promise).toBe(promise.id);
    advanceTo(c.api, '2026-11-25');
    ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-1', bank_account: 'BANK-OP', amount: '804.38', reference: 'CHK 4', applications: [{ invoice: 'ARINV-000001', amount: '804.38' }] }), 'paid');
    expect(get(c, `/promises-to-pay`).items[0].status).toBe('kept');
    expect(post(c, c.t.ruth, '/dunning-actions', { customer: 'C-1', level: 'reminder' }).body.code).toBe('invalid_state');
  });

  it('marks a promise broken once its date passes unpaid, and refuses a promise in the past or an invoice not past due', () => {
    const c = overdue();
    ok(post(c, c.t.cust, '/promises-to-pay', { customer: 'C-1', promise_date: '2026-11-23', amount: '804.38' }), 'promise');
    expect(post(c, c.t.cust, '/promises-to-pay', { customer: 'C-1', promise_date: '2026-11-19', amount: '1' }).body.code).toBe('invalid_request');
    advanceTo(c.api, '2026-11-24');
    expect(get(c, '/promises-to-pay', { customer: 'C-1' }).items[0].status).toBe('broken');
    shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 1 }] }));
    expect(post(c, c.t.ruth, '/dunning-actions', { customer: 'C-1', level: 'second_notice', invoices: ['ARINV-000002'] }).body.code).toBe('invalid_request');
  });

  it('holds a customer\'s account so its new orders go on credit hold, and only the credit manager releases it', () => {
    const c = overdue();
    const hold = ok(post(c, c.t.ruth, '/customers/C-1/credit-hold', { reason: 'past_due' }), 'hold');
    expect(hold.credit_hold).toMatchObject({ id: 'CH-000001', reason: 'past_due' });
    expect(post(c, c.t.ruth, '/customers/C-1/credit-hold', { reason: 'again' }).body.code).toBe('already_exists');
    const so = ok(post(c, c.t.ben, '/sales-orders', { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 1 }] }), 'order');
    expect(so).toMatchObject({ status: 'on_hold', hold_reasons: ['credit'], credit_check: { result: 'customer_on_hold', customer_on_hold: true } });
    expect(post(c, c.t.ben, '/credit-holds/CH-000001/release', { note: 'please' }).body.code).toBe('forbidden');
    expect(ok(post(c, c.t.ruth, '/credit-holds/CH-000001/release', { note: 'Paid' }), 'release').status).toBe('released');
    expect(get(c, '/customers/C-1/account')).toMatchObject({ credit_hold: null, balance: 804.38, open_orders: 75, orders_on_hold: [so.id], open_invoices: [{ id: 'ARINV-000001', bucket: '1_30' }] });
  });

  it('changes a credit limit with a reason, which the next order\'s credit check uses', () => {
    const c = overdue();
    expect(ok(post(c, c.t.ruth, '/customers/C-1/credit-limit', { credit_limit: '500.00', reason: 'slow_payer' }), 'limit').credit_limit).toBe(500);
    expect(post(c, c.t.ruth, '/customers/C-1/credit-limit', { credit_limit: '500.00', reason: 'same' }).body.code).toBe('invalid_state');
    expect(ok(post(c, c.t.ben, '/sales-orders', { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 1 }] }), 'order').hold_reasons).toEqual(['credit']);
  });
});

describe('the AR aging and sales margin reports', () => {
  it('age open AR by customer and bucket, on account beside, to the AR subledger', () => {
    const c = overdue();
    ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '25.00', reference: 'ADV' }), 'on account');
    const aging = get(c, '/reports/ar-aging');
    expect(aging.customers.map((r: any) => [r.customer, r['1_30'], r.on_account, r.total])).toEqual([['C-1', 804.38, 0, 804.38], ['C-2', 0, -25, -25]]);
    expect(aging.totals).toMatchObject({ total: 779.38, '1_30': 804.38, on_account: -25 });
    expect(get(c, '/reports/ar-aging', { as_of: '2026-10-20' }).customers[0]).toMatchObject({ current: 804.38 });
    expect(get(c, '/reports/ar-aging', { customer: 'C-2' }).customers).toHaveLength(1);
  });

  it('show revenue, returns and cost of what was billed by month, customer or item', () => {
    const c = salesCompany();
    shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] }));
    shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] }));
    ok(post(c, c.t.lena, '/ar-credit-memos', { customer: 'C-2', reason: 'price_adjustment', amount: '50.00' }), 'allowance');
    const byCustomer = get(c, '/reports/sales-margin', { by: 'customer', from: '2026-10', to: '2026-10' });
    expect(byCustomer.rows.map((r: any) => [r.customer, r.revenue, r.allowances, r.cost, r.margin, r.margin_pct])).toEqual([['C-1', 750, 0, 400, 350, 46.67], ['C-2', 650, 50, 400, 200, 33.33]]);
    expect(byCustomer.totals).toMatchObject({ revenue: 1400, net_revenue: 1350, cost: 800, margin: 550 });
    expect(get(c, '/reports/sales-margin', { by: 'item' }).rows.map((r: any) => [r.item, r.net_revenue, r.margin_pct])).toEqual([[null, -50, null], ['VALVE-1', 1400, 42.86]]);
    expect(get(c, '/reports/sales-margin').rows).toEqual([expect.objectContaining({ month: '2026-10', qty: 20 })]);
    expect(call(c.api, c.t.ruth, 'GET', '/reports/sales-margin', undefined, { query: { by: 'vendor' } }).status).toBe(400);
  });
});
