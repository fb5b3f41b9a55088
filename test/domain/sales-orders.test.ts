import { call } from '../support/erp';
import { ok } from '../support/payables-fixture';
import { order, salesCompany } from '../support/sales-fixture';

const valves = (qty: number, extra: object = {}) => ({ customer: 'C-1', ship_to: 'ST1', customer_po: 'PO-77', lines: [{ item: 'VALVE-1', qty, ...extra }] });
type C = ReturnType<typeof salesCompany>;
const post = (c: C, token: string, path: string, body: object = {}) => call(c.api, token, 'POST', path, body);

describe('a sales order entered for a customer with a price list', () => {
  it('is priced from the list at the quantity break, credit-checked, and waits entered', () => {
    const c = salesCompany();
    const res = post(c, c.t.ben, '/sales-orders', valves(20));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'SO-000001', status: 'entered', total: 1500, open_value: 1500, tax_code: 'OH', tax_rate_bp: 725, freight_terms: 'prepay_and_add',
      credit_check: { credit_limit: 10000, open_ar: 0, open_orders: 0, order_total: 1500, exposure: 1500, result: 'ok' },
      lines: [{ line: 1, item: 'VALVE-1', qty: 20, unit_price: 75, granted_price: 75, price_source: { type: 'price_list', id: 'STD' }, backordered_qty: 20 }],
      holds: [],
    });
    expect(post(c, c.t.ben, '/sales-orders', valves(100)).body.lines[0]).toMatchObject({ unit_price: 70, amount: 7000 });
  });

  it('takes the contract price over the list for a customer with a contract', () => {
    const c = salesCompany();
    const res = post(c, c.t.ben, '/sales-orders', { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] });
    expect(res.body.lines[0]).toMatchObject({ unit_price: 65, price_source: { type: 'contract', id: 'CP-000001' } });
    expect(res.body.tax_rate_bp).toBe(0);
  });

  it('goes on a pricing hold when a line is priced below what the customer is granted', () => {
    const c = salesCompany();
    const res = post(c, c.t.ben, '/sales-orders', valves(10, { unit_price: '60.00' }));
    expect(res.body).toMatchObject({ status: 'on_hold', hold_reasons: ['pricing'], lines: [{ unit_price: 60, granted_price: 75 }] });
    expect(res.body.holds[0].note).toBe('Priced other than granted: line 1 VALVE-1 at 60.00 where the price list STD grants 75.00.');
  });

  it('goes on a credit hold when open AR plus open orders plus the order exceed the limit', () => {
    const c = salesCompany();
    order(c.api, c.t, valves(100), 'entered');
    const res = post(c, c.t.ben, '/sales-orders', valves(50));
    expect(res.body).toMatchObject({ status: 'on_hold', hold_reasons: ['credit'], credit_check: { open_orders: 7000, order_total: 3750, exposure: 10750, result: 'over_limit' } });
    expect(res.body.holds[0].note).toBe('Open AR 0.00 + open orders 7,000.00 + this order 3,750.00 = 10,750.00, over the credit limit of 10,000.00.');
  });

  it('refuses an unknown customer or item, a non-stock item, no price anywhere, and a ship-to of another customer', () => {
    const c = salesCompany();
    expect(post(c, c.t.ben, '/sales-orders', { ...valves(1), customer: 'C-9' }).body.code).toBe('not_found');
    expect(post(c, c.t.ben, '/sales-orders', { ...valves(1), lines: [{ item: 'NOPE', qty: 1 }] }).body.code).toBe('not_found');
    expect(post(c, c.t.ben, '/sales-orders', { ...valves(1), lines: [{ item: 'CAL-SVC', qty: 1 }] }).body.code).toBe('invalid_request');
    expect(post(c, c.t.ben, '/sales-orders', { ...valves(1), lines: [{ item: 'SEAL-1', qty: 1 }] }).body.detail).toBe('Line 1: nothing grants C-1 a price for SEAL-1; give the unit_price.');
    expect(post(c, c.t.ben, '/sales-orders', { ...valves(1), ship_to: 'ST9' }).body.code).toBe('not_found');
    expect(post(c, c.t.luis, '/sales-orders', valves(1)).body.code).toBe('forbidden');
  });
});

describe('holds on a sales order', () => {
  it('block release with order_on_hold; a credit hold is released only by the credit manager, a pricing hold by the sales manager', () => {
    const c = salesCompany();
    order(c.api, c.t, valves(100), 'entered');
    const so = post(c, c.t.ben, '/sales-orders', valves(60, { unit_price: '60.00' })).body;
    const credit = so.holds.find((h: any) => h.reason === 'credit').id;
    const pricing = so.holds.find((h: any) => h.reason === 'pricing').id;
    expect(post(c, c.t.ben, `/sales-orders/${so.id}/release`).body.code).toBe('order_on_hold');
    const byOrderEntry = post(c, c.t.ben, `/sales-order-holds/${credit}/release`, { note: 'Rep says they are good for it' });
    expect(byOrderEntry.body).toMatchObject({ code: 'forbidden', detail: 'Releasing a credit hold needs the credit_hold.release permission, which your roles do not grant.' });
    expect(post(c, c.t.ruth, `/sales-order-holds/${pricing}/release`, { note: 'x' }).body.code).toBe('forbidden');
    expect(ok(post(c, c.t.ruth, `/sales-order-holds/${credit}/release`, { note: 'Paid up' }), 'credit')).toMatchObject({ status: 'released', order_status: 'on_hold' });
    expect(ok(post(c, c.t.carla, `/sales-order-holds/${pricing}/release`, { note: 'Approved one-off price' }), 'pricing').order_status).toBe('entered');
    expect(post(c, c.t.ruth, `/sales-order-holds/${credit}/release`, { note: 'again' }).body.code).toBe('invalid_state');
    expect(ok(post(c, c.t.ben, `/sales-orders/${so.id}/release`), 'release').status).toBe('released');
  });

  it('can be placed by order entry once per reason, and stops allocation and shipping of a released order', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, valves(10));
    expect(ok(post(c, c.t.ben, `/sales-orders/${so}/holds`, { reason: 'other', note: 'Customer asked to wait' }), 'hold').status).toBe('on_hold');
    expect(post(c, c.t.ben, `/sales-orders/${so}/holds`, { reason: 'other' }).body.code).toBe('already_exists');
    expect(post(c, c.t.luis, '/shipments', { sales_order: so, warehouse: 'WH1', lines: [{ so_line: 1, qty: 10 }] }).body.code).toBe('order_on_hold');
    expect(post(c, c.t.ben, `/sales-orders/${so}/allocate`).body.code).toBe('order_on_hold');
  });
});

describe('allocation of a released order', () => {
  it('takes stock from the ship-to region\'s warehouse first, then the other, and backorders the rest', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, { customer: 'C-1', ship_to: 'ST2', lines: [{ item: 'VALVE-1', qty: 40 }] }, 'released');
    const res = ok(post(c, c.t.ben, `/sales-orders/${so}/allocate`), 'allocate');
    expect(res.status).toBe('allocated');
    expect(res.lines[0]).toMatchObject({ allocated_qty: 40, backordered_qty: 0, allocations: [{ warehouse: 'WH1', qty: 10 }, { warehouse: 'WH2', qty: 30 }] });
    const next = order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 100 }] }, 'released');
    expect(ok(post(c, c.t.ben, `/sales-orders/${next}/allocate`), 'allocate 2').lines[0]).toMatchObject({ allocated_qty: 90, backordered_qty: 10 });
    expect(post(c, c.t.ben, `/sales-orders/${next}/allocate`).body.detail).toBe(`No stock is free for ${next}: line 1 10 VALVE-1 stay backordered.`);
    expect(call(c.api, c.t.ben, 'GET', '/inventory/available', { item: 'VALVE-1' } as never).status).toBe(200);
  });

  it('refuses an order that is not released, and more than is free in a warehouse', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, valves(10), 'entered');
    expect(post(c, c.t.ben, `/sales-orders/${so}/allocate`).body.code).toBe('invalid_state');
    ok(post(c, c.t.ben, `/sales-orders/${so}/release`), 'release');
    expect(post(c, c.t.ben, `/sales-orders/${so}/allocate`, { lines: [{ line: 1, warehouse: 'WH2', qty: 31 }] }).body.code).toBe('invalid_request');
    const other = order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 125 }] }, 'allocated');
    expect(c.api.read.sales.line(other, 1)!.allocated_qty).toBe(125);
    expect(post(c, c.t.ben, `/sales-orders/${so}/allocate`, { lines: [{ line: 1, warehouse: 'WH2', qty: 10 }] }).body.code).toBe('invalid_state');
  });

  it('is freed by deallocating, cancelling a line or cancelling the order', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, valves(30));
    expect(ok(post(c, c.t.ben, `/sales-orders/${so}/deallocate`, { reason: 'reroute' }), 'dealloc')).toMatchObject({ status: 'released', lines: [{ allocated_qty: 0, backordered_qty: 30 }] });
    ok(post(c, c.t.ben, `/sales-orders/${so}/allocate`), 'again');
    expect(ok(post(c, c.t.ben, `/sales-orders/${so}/lines/1/cancel`, { qty: 10, reason: 'customer_reduced' }), 'cancel line').lines[0]).toMatchObject({ cancelled_qty: 10, allocated_qty: 20 });
    expect(ok(post(c, c.t.ben, `/sales-orders/${so}/cancel`, { reason: 'customer_cancelled' }), 'cancel')).toMatchObject({ status: 'cancelled', open_value: 0, lines: [{ allocated_qty: 0 }] });
    expect(c.api.read.sales.allocatedQty('VALVE-1', 'WH1')).toBe(0);
  });
});

describe('a line revised before it ships', () => {
  it('keeps the old values beside the new, and goes on a pricing hold when the price is no longer granted', () => {
    const c = salesCompany();
    const so = order(c.api, c.t, valves(20), 'entered');
    const res = ok(post(c, c.t.ben, `/sales-orders/${so}/lines/1/revise`, { qty: 100 }), 'revise');
    expect(res.lines[0]).toMatchObject({ qty: 100, unit_price: 70 });
    expect(ok(post(c, c.t.ben, `/sales-orders/${so}/lines/1/revise`, { unit_price: '65.00' }), 'price')).toMatchObject({ status: 'on_hold', hold_reasons: ['pricing'] });
    expect(c.erp.db.prepare(`SELECT data FROM events WHERE type = 'SalesOrderLineRevised' ORDER BY seq`).all().map((r: any) => JSON.parse(r.data).previous)).toEqual([{ qty: 20, unit_price: 7500 }, { qty: 100, unit_price: 7000 }]);
  });
});

describe("a customer's sales terms", () => {
  it('move its orders to another price list, and refuse a parent that is itself a subsidiary or the customer itself', () => {
    const c = salesCompany();
    ok(post(c, c.t.carla, '/price-lists', { id: 'DIST', name: 'Distributors' }), 'list');
    ok(post(c, c.t.carla, '/price-lists/DIST/prices', { item: 'VALVE-1', unit_price: '68.00', valid_from: '2026-01-01' }), 'price');
    const res = ok(call(c.api, null, 'POST', '/customers/C-1/sales-terms', { price_list: 'DIST' }, { asSystem: true }), 'terms');
    expect(res).toMatchObject({ price_list: 'DIST', parent: null, freight_terms: 'prepay_and_add' });
    expect(post(c, c.t.ben, '/sales-orders', valves(1)).body.lines[0]).toMatchObject({ unit_price: 68, price_source: { type: 'price_list', id: 'DIST' } });
    const refused = (body: object) => call(c.api, null, 'POST', '/customers/C-1/sales-terms', body, { asSystem: true }).body.code;
    expect(refused({ parent: 'C-1' })).toBe('invalid_request');
    expect(refused({ parent: 'C-3' })).toBe('invalid_request');
    expect(refused({ price_list: 'NONE' })).toBe('not_found');
    expect(call(c.api, null, 'POST', '/customers/C-2/sales-terms', { parent: 'C-1' }, { asSystem: true }).body.detail).toBe('C-2 is the parent of others; it cannot become a subsidiary.');
  });
});
