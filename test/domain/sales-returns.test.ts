import { advanceTo } from '../support/books-fixture';
import { call } from '../support/erp';
import { ok } from '../support/payables-fixture';
import { order, salesCompany, shipAndBill } from '../support/sales-fixture';

type C = ReturnType<typeof salesCompany>;
const post = (c: C, token: string, path: string, body: object = {}) => call(c.api, token, 'POST', path, body);
const gl = (c: C, type: string) =>
  c.erp.db.prepare('SELECT account, debit, credit FROM gl_lines WHERE source_type = ? ORDER BY event_id, line_no').all(type).map((l: any) => [l.account, l.debit, l.credit]);

/** C-1 bought 20 valves at $75.00 (7.25% tax) shipped from WH1 at $40.00 on 5 October; returns requested on 19 October. */
function sold() {
  const c = salesCompany();
  const so = order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 20 }] });
  const [, inv] = shipAndBill(c.api, c.t, so);
  advanceTo(c.api, '2026-10-19');
  return { ...c, inv };
}

describe('a return (RMA)', () => {
  it('is requested with the days since shipment, approved, received for inspection, and its accepted units restocked at the cost they shipped at', () => {
    const c = sold();
    const rma = ok(post(c, c.t.ben, '/rmas', { invoice: c.inv, reason: 'damaged', lines: [{ invoice_line: 1, qty: 4 }] }), 'rma');
    expect(rma).toMatchObject({ id: 'RMA-000001', status: 'requested', customer: 'C-1', lines: [{ item: 'VALVE-1', qty: 4, unit_price: 75, ship_date: '2026-10-05', days_since_shipment: 14 }] });
    expect(post(c, c.t.luis, `/rmas/${rma.id}/receive`, { warehouse: 'WH1' }).body.code).toBe('invalid_state');
    ok(post(c, c.t.ben, `/rmas/${rma.id}/approve`), 'approve');
    expect(ok(post(c, c.t.luis, `/rmas/${rma.id}/receive`, { warehouse: 'WH1' }), 'receive')).toMatchObject({ status: 'received', lines: [{ received_qty: 4 }] });
    expect(c.api.read.inventory.onHand('VALVE-1', 'WH1')).toBe(80);
    expect(post(c, c.t.luis, `/rmas/${rma.id}/inspection`, { lines: [{ line: 1, accepted_qty: 3, rejected_qty: 2, result: 'x' }] }).body.code).toBe('invalid_request');
    const inspected = ok(post(c, c.t.luis, `/rmas/${rma.id}/inspection`, { lines: [{ line: 1, accepted_qty: 3, result: 'resaleable' }] }), 'inspect');
    expect(inspected).toMatchObject({ status: 'inspected', lines: [{ accepted_qty: 3, rejected_qty: 1, unit_cost: 40, returned_value: 120 }] });
    expect(gl(c, 'RmaInspected')).toEqual([['1300', 12000, 0], ['5000', 0, 12000]]);
    expect(c.api.read.inventory.stock({ item: 'VALVE-1', warehouse: 'WH1', location: 'QC' })[0]).toMatchObject({ qty: 3, value: 12000 });
  });

  it('is credited for accepted units only, with their tax, less the restocking fee', () => {
    const c = sold();
    const id = ok(post(c, c.t.ben, '/rmas', { invoice: c.inv, reason: 'ordered_wrong', lines: [{ invoice_line: 1, qty: 4 }] }), 'rma').id;
    ok(post(c, c.t.ben, `/rmas/${id}/approve`), 'approve');
    expect(post(c, c.t.ben, `/rmas/${id}/credit-memo`).body.code).toBe('invalid_state');
    ok(post(c, c.t.luis, `/rmas/${id}/receive`, { warehouse: 'WH1' }), 'receive');
    ok(post(c, c.t.luis, `/rmas/${id}/inspection`, { lines: [{ line: 1, accepted_qty: 2, result: 'resaleable' }] }), 'inspect');
    const memo = ok(post(c, c.t.ben, `/rmas/${id}/credit-memo`, { restocking_fee_bp: 1500 }), 'credit');
    expect(memo).toMatchObject({ reason: 'return', rma: id, subtotal: 150, tax: 10.88, restocking_fee: 22.5, total: 138.38, invoice: c.inv, lines: [{ item: 'VALVE-1', qty: 2, amount: 150, cost: 80 }] });
    expect(gl(c, 'ArCreditMemoIssued')).toEqual([['4500', 15000, 0], ['2200', 1088, 0], ['4120', 0, 2250], ['1200', 0, 13838]]);
    expect(c.api.read.shipments.rma(id)).toMatchObject({ status: 'credited', credit_memo: memo.id });
    expect(post(c, c.t.ben, `/rmas/${id}/credit-memo`).body.code).toBe('invalid_state');
  });

  it('is refused with a reason, and no more units come back than were billed', () => {
    const c = sold();
    expect(post(c, c.t.ben, '/rmas', { invoice: c.inv, reason: 'x', lines: [{ invoice_line: 1, qty: 21 }] }).body.code).toBe('invalid_request');
    const id = ok(post(c, c.t.ben, '/rmas', { invoice: c.inv, reason: 'changed_mind', lines: [{ invoice_line: 1, qty: 20 }] }), 'rma').id;
    expect(post(c, c.t.ben, '/rmas', { invoice: c.inv, reason: 'x', lines: [{ invoice_line: 1, qty: 1 }] }).body.code).toBe('invalid_request');
    expect(ok(post(c, c.t.ben, `/rmas/${id}/refuse`, { reason: 'outside_return_window' }), 'refuse')).toMatchObject({ status: 'refused', decision_reason: 'outside_return_window' });
    expect(ok(post(c, c.t.ben, '/rmas', { invoice: c.inv, reason: 'damaged', lines: [{ invoice_line: 1, qty: 1 }] }), 'again').status).toBe('requested');
  });
});

describe('a quote', () => {
  it('is priced like an order and converts into one at its prices until it expires', () => {
    const c = salesCompany();
    const q = ok(post(c, c.t.ben, '/quotes', { customer: 'C-1', ship_to: 'ST1', valid_until: '2026-10-09', lines: [{ item: 'VALVE-1', qty: 10 }] }), 'quote');
    expect(q).toMatchObject({ id: 'QT-000001', status: 'open', total: 750, expired: false, lines: [{ unit_price: 75, price_source: { type: 'price_list', id: 'STD' } }] });
    const so = ok(post(c, c.t.ben, `/quotes/${q.id}/convert`, { customer_po: 'PO-Q1' }), 'convert');
    expect(so).toMatchObject({ quote: q.id, customer_po: 'PO-Q1', total: 750, status: 'entered' });
    expect(call(c.api, c.t.ben, 'GET', `/quotes/${q.id}`).body).toMatchObject({ status: 'converted', sales_order: so.id });
    expect(post(c, c.t.ben, `/quotes/${q.id}/convert`).body.code).toBe('invalid_state');
    const late = ok(post(c, c.t.ben, '/quotes', { customer: 'C-1', ship_to: 'ST1', valid_until: '2026-10-06', lines: [{ item: 'VALVE-1', qty: 1 }] }), 'quote 2').id;
    advanceTo(c.api, '2026-10-07');
    expect(call(c.api, c.t.ben, 'GET', `/quotes/${late}`).body.expired).toBe(true);
    expect(post(c, c.t.ben, `/quotes/${late}/convert`).body.detail).toBe(`${late} expired on 2026-10-06.`);
    expect(ok(post(c, c.t.ben, `/quotes/${late}/cancel`, { reason: 'expired' }), 'cancel').status).toBe('cancelled');
  });
});
