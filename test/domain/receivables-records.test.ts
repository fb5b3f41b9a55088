import { call } from '../support/erp';
import { ok } from '../support/payables-fixture';
import { order, salesCompany, shipAndBill } from '../support/sales-fixture';

type C = ReturnType<typeof salesCompany>;
const post = (c: C, token: string, path: string, body: object = {}) => call(c.api, token, 'POST', path, body);

describe('the sales policy', () => {
  it('keeps fields left out, and refuses a control account, an unknown account or list, and a user without the permission', () => {
    const c = salesCompany();
    expect(ok(post(c, c.t.carla, '/sales/policy', { allowance_account: '4600' }), 'policy')).toMatchObject({ default_price_list: 'STD', allowance_account: '4600', returns_account: '4500' });
    expect(post(c, c.t.carla, '/sales/policy', { revenue_account: '1200' }).body.code).toBe('invalid_request');
    expect(post(c, c.t.carla, '/sales/policy', { freight_account: '4999' }).body.code).toBe('not_found');
    expect(post(c, c.t.carla, '/sales/policy', { default_price_list: 'NOPE' }).body.code).toBe('not_found');
    expect(post(c, c.t.ben, '/sales/policy', {}).body.code).toBe('forbidden');
    expect(call(c.api, c.t.ben, 'GET', '/sales/policy').body.allowance_account).toBe('4600');
  });
});

describe('the counterparties\' confidential records', () => {
  it('are written by the simulator\'s users only, and their data is not shown on the audit trail', () => {
    const c = salesCompany();
    const msg = ok(post(c, c.t.cust, '/messages/inbound', { box: 'personal', owner: 'ben.foster', from: 'a@b.example', to: ['ben.foster'], subject: 'PO', body: 'x' }), 'mail').id;
    const placed = post(c, c.t.cust, '/sim/customer-orders', { customer: 'C-1', customer_po: 'X-1', ship_to: 'ST1', message: msg, lines: [{ item: 'VALVE-1', qty: 2, requested_date: '2026-10-09' }] });
    expect(placed.status).toBe(201);
    expect(post(c, c.t.ben, '/sim/customer-orders', { customer: 'C-1', customer_po: 'X-1', ship_to: 'ST1', message: msg, lines: [{ item: 'VALVE-1', qty: 2, requested_date: '2026-10-09' }] }).body.code).toBe('forbidden');
    expect(post(c, c.t.cust, '/sim/customer-orders', { customer: 'C-9', customer_po: 'X-1', ship_to: 'ST1', message: msg, lines: [{ item: 'VALVE-1', qty: 2, requested_date: '2026-10-09' }] }).body.code).toBe('not_found');
    const paid = ok(post(c, c.t.cust, '/sim/customer-payments', { customer: 'C-1', bank_account: 'BANK-OP', amount: '10.00', reference: 'CHK 1', behaviour: 'on_time', remittance: [{ reference: 'ARINV-1', invoice: 'ARINV-1', amount: '10.00' }] }), 'paid').id;
    expect(post(c, c.t.cust, '/sim/customer-payments', { customer: 'C-1', bank_account: 'BANK-ZZ', amount: '10.00', reference: 'CHK 1', behaviour: 'on_time', remittance: [{ reference: 'A', invoice: 'A', amount: '1' }] }).body.code).toBe('not_found');
    const line = ok(post(c, c.t.bank, '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-05', amount: 10, kind: 'deposit', reference: 'CHK 1' }), 'line').id;
    ok(post(c, c.t.bank, `/sim/customer-payments/${paid}/banked`, { statement_line: line }), 'banked');
    expect(post(c, c.t.bank, `/sim/customer-payments/${paid}/banked`, { statement_line: line }).body.code).toBe('invalid_state');
    const audit = call(c.api, c.t.grace, 'GET', '/audit', undefined, { query: { action: 'customer_payment.send', outcome: 'ok' } }).body;
    expect(audit.items.map((r: any) => r.data)).toEqual([{ confidential: true }]);
  });
});

describe('refusals that protect what was resolved', () => {
  it('refuse reversing a receipt whose deduction was resolved, and holding an order that is invoiced', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] });
    const [, inv] = shipAndBill(c.api, c.t, so);
    ok(post(c, c.t.lena, '/cash-receipts', { customer: 'C-2', bank_account: 'BANK-OP', amount: '600.00', reference: 'R', applications: [{ invoice: inv, amount: '600.00', deduction: { amount: '50.00', reason: 'damaged' } }] }), 'receipt');
    ok(post(c, c.t.ruth, '/deductions/DED-000001/resolve', { resolution: 'rejected', note: 'no' }), 'reject');
    expect(post(c, c.t.lena, '/cash-receipts/CR-000001/reverse', { reason: 'nsf' }).body.detail).toBe('Deduction DED-000001 of CR-000001 is rejected; reverse nothing a resolution rests on.');
    expect(post(c, c.t.ben, `/sales-orders/${so}/holds`, { reason: 'other' }).body.code).toBe('invalid_state');
    expect(post(c, c.t.ben, `/sales-orders/${so}/cancel`, { reason: 'x' }).body.code).toBe('invalid_state');
  });
});
