import { advanceTo } from '../support/books-fixture';
import { call } from '../support/erp';
import { ok } from '../support/payables-fixture';
import { order, salesCompany, shipAndBill, stock } from '../support/sales-fixture';

type C = ReturnType<typeof salesCompany>;
const post = (c: C, token: string, path: string, body: object = {}) => call(c.api, token, 'POST', path, body);
const gl = (c: C, type: string) =>
  c.erp.db.prepare('SELECT account, debit, credit FROM gl_lines WHERE source_type = ? ORDER BY event_id, line_no').all(type).map((l: any) => [l.account, l.debit, l.credit]);

describe('a shipment of an allocated order', () => {
  it('picks lots first-expiry-first, posts COGS at the cost of what was picked, and moves the order to shipped', () => {
    const c = salesCompany();
    stock(c.api, c.t, 'SEAL-L', 'WH1', 10, '3.00', { lot: 'L-LATE', expiry: '2027-06-30' });
    stock(c.api, c.t, 'SEAL-L', 'WH1', 5, '2.50', { lot: 'L-SOON', expiry: '2027-01-31' });
    const so = order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'SEAL-L', qty: 8 }] });
    const res = ok(post(c, c.t.luis, '/shipments', { sales_order: so, warehouse: 'WH1', lines: [{ so_line: 1, qty: 8 }], freight_charge: '25.00', carrier: 'UPS' }), 'ship');
    expect(res).toMatchObject({ id: 'SHP-000001', status: 'shipped', value: 21.5, freight_charge: 25 });
    expect(res.lines.map((l: any) => [l.lot, l.qty, l.value])).toEqual([['L-SOON', 5, 12.5], ['L-LATE', 3, 9]]);
    expect(gl(c, 'ShipmentPosted')).toEqual([['1300', 0, 2150], ['5000', 2150, 0]]);
    expect(c.api.read.sales.order(so)).toMatchObject({ status: 'shipped', qty_shipped: 8, qty_allocated: 0 });
    expect(c.api.read.inventory.onHand('SEAL-L', 'WH1')).toBe(7);
  });

  it('ships part of an allocation, and refuses more than is allocated in the warehouse, an order not released, and a user who is not the warehouse', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 20 }] });
    expect(post(c, c.t.luis, '/shipments', { sales_order: so, warehouse: 'WH1', lines: [{ so_line: 1, qty: 21 }] }).body.detail).toBe('Line 1 has 20 allocated in WH1; 21 cannot ship (allocate first).');
    expect(post(c, c.t.luis, '/shipments', { sales_order: so, warehouse: 'WH2', lines: [{ so_line: 1, qty: 1 }] }).body.code).toBe('invalid_state');
    const entered = order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 1 }] }, 'entered');
    expect(post(c, c.t.luis, '/shipments', { sales_order: entered, warehouse: 'WH1', lines: [{ so_line: 1, qty: 1 }] }).body.code).toBe('invalid_state');
    expect(post(c, c.t.ben, '/shipments', { sales_order: so, warehouse: 'WH1', lines: [{ so_line: 1, qty: 1 }] }).body.code).toBe('forbidden');
    ok(post(c, c.t.luis, '/shipments', { sales_order: so, warehouse: 'WH1', lines: [{ so_line: 1, qty: 12 }] }), 'part');
    expect(c.api.read.sales.order(so)!.status).toBe('partially_shipped');
  });
});

describe('billing a shipment', () => {
  it('bills the order\'s prices with tax at the ship-to\'s rate and freight under prepay-and-add: Dr AR, Cr revenue, freight and tax', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', customer_po: 'PO-9', lines: [{ item: 'VALVE-1', qty: 20 }] });
    const [shp, inv] = shipAndBill(c.api, c.t, so, 'WH1', '30.00');
    const res = call(c.api, c.t.lena, 'GET', `/ar-invoices/${inv}`).body;
    expect(res).toMatchObject({
      id: 'ARINV-000001', customer: 'C-1', shipment: shp, sales_order: so, customer_po: 'PO-9', invoice_date: '2026-10-05', period: '2026-10', due_date: '2026-11-04',
      subtotal: 1500, tax: 108.75, freight: 30, total: 1638.75, cost: 800, status: 'open', open_amount: 1638.75,
      lines: [{ item: 'VALVE-1', qty: 20, unit_price: 75, amount: 1500, cost: 800, account: '4000' }],
    });
    expect(gl(c, 'ArInvoiceBilled')).toEqual([['4000', 0, 150000], ['4100', 0, 3000], ['2200', 0, 10875], ['1200', 163875, 0]]);
    expect(c.api.read.sales.order(so)).toMatchObject({ status: 'invoiced', open_value: 0 });
    expect(post(c, c.t.lena, `/shipments/${shp}/invoice`).body.code).toBe('invalid_state');
  });

  it('bills a discount customer\'s terms with no tax and no freight under prepaid terms', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] });
    const [, inv] = shipAndBill(c.api, c.t, so, 'WH1', '30.00');
    expect(c.api.read.receivables.invoice(inv)).toMatchObject({ subtotal: 65000, tax: 0, freight: 0, total: 65000, discount_date: '2026-10-15', discount_amount: 1300 });
  });

  it('takes an invoice date from the ship date to today, in an open period, and refuses one before the shipment', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 2 }] });
    const shp = ok(post(c, c.t.luis, '/shipments', { sales_order: so, warehouse: 'WH1', lines: [{ so_line: 1, qty: 2 }] }), 'ship').id;
    advanceTo(c.api, '2026-10-07');
    expect(post(c, c.t.lena, `/shipments/${shp}/invoice`, { invoice_date: '2026-10-04' }).body.code).toBe('invalid_request');
    expect(post(c, c.t.lena, `/shipments/${shp}/invoice`, { invoice_date: '2026-10-08' }).body.code).toBe('invalid_request');
    expect(ok(post(c, c.t.lena, `/shipments/${shp}/invoice`, { invoice_date: '2026-10-05' }), 'bill').gl_date).toBe('2026-10-05');
  });

  it('voids an invoice nothing was applied to, reversing it today, so the shipment can be billed again', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 2 }] });
    const [shp, inv] = shipAndBill(c.api, c.t, so);
    expect(ok(post(c, c.t.lena, `/ar-invoices/${inv}/void`, { reason: 'wrong_period' }), 'void')).toMatchObject({ status: 'voided', open_amount: 0 });
    expect(c.api.read.shipments.shipment(shp)).toMatchObject({ status: 'shipped', invoice: null });
    expect(c.api.read.sales.order(so)!.status).toBe('shipped');
    expect(c.api.read.receivables.customerBalance('C-1')).toBe(0);
    expect(ok(post(c, c.t.lena, `/shipments/${shp}/invoice`), 'rebill').id).toBe('ARINV-000002');
    expect(post(c, c.t.lena, `/ar-invoices/${inv}/void`, { reason: 'again' }).body.code).toBe('invalid_state');
  });

  it('enters a manual invoice coded to its accounts, posted on a later GL date for an opening balance', () => {
    const c = salesCompany();
    const res = ok(post(c, c.t.lena, '/ar-invoices', { customer: 'C-2', invoice_date: '2026-09-20', gl_date: '2026-10-05', lines: [{ description: 'Opening balance', amount: '500.00', account: '3000' }] }), 'manual');
    expect(res).toMatchObject({ kind: 'manual', total: 500, invoice_date: '2026-09-20', gl_date: '2026-10-05', due_date: '2026-10-20' });
    expect(post(c, c.t.lena, '/ar-invoices', { customer: 'C-2', invoice_date: '2026-10-05', lines: [{ description: 'x', amount: '5', account: '1200' }] }).body.code).toBe('invalid_request');
    expect(post(c, c.t.lena, '/ar-invoices', { customer: 'C-2', invoice_date: '2026-10-05', gl_date: '2026-10-01', lines: [{ description: 'x', amount: '5', account: '4000' }] }).body.code).toBe('invalid_request');
  });
});
