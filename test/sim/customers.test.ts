import { advanceTo } from '../../src/api/control-app';
import '../../src/sim/behaviours/sales';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld, type World } from '../../src/sim/world';
import { call, systemCall } from '../support/erp';
import { ok } from '../support/payables-fixture';
import { order, salesCompany, shipAndBill } from '../support/sales-fixture';

/** The sales company with the order-to-cash counterparties of the given profiles. */
function simulated(customers: Record<string, unknown>, warehouse: Record<string, unknown> = {}) {
  const c = salesCompany();
  for (const box of ['sales', 'ar']) systemCall(c.api, 'POST', '/message-boxes', { box, address: `${box}@northgate.example`, name: box });
  const world: World = emptyWorld('o2c-sim', 0);
  const credentials = { 'customer.desk': c.t.cust, 'first.bank': c.t.bank, 'luis.romero': c.t.luis };
  world.users = Object.keys(credentials).sort();
  world.actors = {
    customers: { as: 'customer.desk', sales_address: 'sales@northgate.example', ar_address: 'ar@northgate.example', bank_account: 'BANK-OP', ...customers },
    bank: { customer_receipts: { as: 'first.bank' } },
    warehouse: { shipping: { as: 'luis.romero', auto_ship: true, carrier: 'XPO', freight: { base_cents: 1000, per_unit_cents: 50 }, returns: { transit_days: 2, inspect_days: 1, accept_bp: 5000 }, ...warehouse } },
  };
  return { ...c, world, advance: (to: string) => advanceTo(c.api, to, createSimulator(world, credentials)) };
}

const payments = (c: ReturnType<typeof simulated>) => c.erp.db.prepare('SELECT customer, amount, reference, behaviour, remittance FROM customer_payments ORDER BY id').all()
  .map((r: any) => ({ ...r, remittance: JSON.parse(r.remittance) }));

describe('customers ordering on their schedule', () => {
  it('email each order to the sales box as a structured purchase order, and record what they ordered', () => {
    const c = simulated({ orders: [{ date: '2026-10-06', customer: 'C-1', customer_po: 'AC-1', ship_to: 'ST2', lines: [{ item: 'VALVE-1', qty: 12, requested_days: 3, claimed_price: 60 }] }] });
    c.advance('2026-10-06');
    const msg = c.erp.db.prepare(`SELECT id, box, subject, from_address FROM messages`).get() as any;
    expect(msg).toMatchObject({ box: 'sales', subject: 'Purchase order AC-1' });
    const doc = JSON.parse(c.api.read.messages.attachment(msg.id, 1)!.content);
    expect(doc).toEqual({ kind: 'purchase_order', customer: 'C-1', customer_po: 'AC-1', ship_to: 'ST2', lines: [{ item: 'VALVE-1', qty: 12, requested_date: '2026-10-09', unit_price: 60 }] });
    expect(c.erp.db.prepare(`SELECT customer_po, lines FROM customer_orders`).get()).toEqual({ customer_po: 'AC-1', lines: JSON.stringify([{ item: 'VALVE-1', qty: 12, requested_date: '2026-10-09', claimed_price: 6000 }]) });
    c.advance('2026-10-07');
    expect(c.erp.db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 1 });
  });
});

describe('customers paying by their profiles', () => {
  /** C-1 (NET30) owes ARINV-000001 and C-2 (2/10NET30) ARINV-000002, C-3 (C-2's subsidiary) ARINV-000003, all billed 5 October. */
  function owed(profiles: Record<string, unknown>) {
    const c = simulated({ payments: profiles });
    shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', customer_po: 'AC-9', lines: [{ item: 'VALVE-1', qty: 10 }] }));
    shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] }));
    shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-3', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 4 }] }), 'WH2');
    return c;
  }

  it('pay a discount taker the day before its discount date, with the discount, and a parent pays its subsidiary\'s invoice when due', () => {
    const c = owed({ 'C-2': { behaviour: 'on_time', takes_discount: true, first_check: 700 }, 'C-3': { behaviour: 'on_time', paid_by: 'C-2' } });
    c.advance('2026-10-13');
    expect(payments(c)).toEqual([]);
    c.advance('2026-10-14');
    expect(payments(c)).toHaveLength(1);
    c.advance('2026-11-04');
    const [p1, p2] = payments(c);
    expect(p1).toMatchObject({ customer: 'C-2', amount: 63700, reference: 'CHK 700', behaviour: 'on_time', remittance: [{ invoice: 'ARINV-000002', amount: 63700, discount: 1300 }] });
    expect(p2).toMatchObject({ customer: 'C-2', reference: 'CHK 701', behaviour: 'parent', remittance: [{ invoice: 'ARINV-000003', amount: 30000, discount: 0 }] });
  });

  it('take the discount all the same when paying after the discount date, if the profile says so', () => {
    const c = owed({ 'C-2': { behaviour: 'on_time', takes_discount: true, discount_days_late: 3 } });
    c.advance('2026-10-17');
    expect(payments(c)).toEqual([]);
    c.advance('2026-10-19');
    expect(payments(c)[0].remittance).toMatchObject([{ invoice: 'ARINV-000002', amount: 63700, discount: 1300 }]);
  });

  it('pay late, short with the reason, or with their own PO number for the reference', () => {
    const late = owed({ 'C-1': { behaviour: 'late', days_after_due: 10 } });
    late.advance('2026-11-13');
    expect(payments(late)).toEqual([]);
    late.advance('2026-11-16');
    expect(payments(late)[0]).toMatchObject({ behaviour: 'late', amount: 80438 });
    const short = owed({ 'C-1': { behaviour: 'short', short: { every: 1, bp: 500, reason: 'damaged' } } });
    short.advance('2026-11-04');
    expect(payments(short)[0].remittance).toEqual([{ reference: 'ARINV-000001', invoice: 'ARINV-000001', amount: 76416, discount: 0, deduction: { amount: 4022, reason: 'damaged' } }]);
    const wrong = owed({ 'C-1': { behaviour: 'wrong_reference' } });
    wrong.advance('2026-11-04');
    expect(payments(wrong)[0].remittance[0]).toMatchObject({ reference: 'AC-9', invoice: 'ARINV-000001' });
    expect(JSON.parse(wrong.api.read.messages.attachment('MSG-000001', 1)!.content)).toMatchObject({ kind: 'remittance', customer: 'C-1', lines: [{ reference: 'AC-9', amount: 804.38 }] });
  });

  it('are shown by the bank as deposit lines the next business day, and promise to pay when dunned', () => {
    const c = owed({ 'C-1': { behaviour: 'late', days_after_due: 30, promise: { delay_days: 2, keeps: true } } });
    c.advance('2026-11-16');
    ok(call(c.api, c.t.ruth, 'POST', '/dunning-actions', { customer: 'C-1', level: 'reminder' }), 'dun');
    c.advance('2026-11-17');
    expect(c.api.read.collections.promisesOf('C-1')).toMatchObject([{ promise_date: '2026-11-19', amount: 80438, dunning: 'DUN-000001' }]);
    c.advance('2026-11-19');
    expect(payments(c)[0]).toMatchObject({ customer: 'C-1', amount: 80438 });
    c.advance('2026-11-20');
    expect(c.erp.db.prepare(`SELECT kind, amount, reference, status FROM bank_statement_lines`).all()).toEqual([{ kind: 'deposit', amount: 80438, reference: 'CHK 1001', status: 'unmatched' }]);
    expect(c.api.read.collections.unbankedPayments()).toEqual([]);
  });
});

describe('the warehouse', () => {
  it('ships every released, allocated order not on hold with the carrier\'s charge, and leaves held ones', () => {
    const c = simulated({});
    const shipped = order(c.api, c.t, { customer: 'C-1', ship_to: 'ST2', lines: [{ item: 'VALVE-1', qty: 40 }] });
    const held = order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 5 }] });
    ok(call(c.api, c.t.ben, 'POST', `/sales-orders/${held}/holds`, { reason: 'other' }), 'hold');
    c.advance('2026-10-06');
    expect(c.api.read.shipments.shipmentsOfOrder(shipped).map((s) => [s.warehouse, s.freight_charge])).toEqual([['WH1', 1500], ['WH2', 2500]]);
    expect(c.api.read.shipments.shipmentsOfOrder(held)).toEqual([]);
  });

  it('receives approved returns after their transit and inspects them, accepting the planted share', () => {
    const c = simulated({});
    const [, inv] = shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 10 }] }));
    const rma = ok(call(c.api, c.t.ben, 'POST', '/rmas', { invoice: inv, reason: 'damaged', lines: [{ invoice_line: 1, qty: 4 }] }), 'rma').id;
    ok(call(c.api, c.t.ben, 'POST', `/rmas/${rma}/approve`, {}), 'approve');
    c.advance('2026-10-06');
    expect(c.api.read.shipments.rma(rma)!.status).toBe('approved');
    c.advance('2026-10-07');
    expect(c.api.read.shipments.rma(rma)).toMatchObject({ status: 'received', warehouse: 'WH1' });
    c.advance('2026-10-08');
    expect(c.api.read.shipments.rmaLines(rma)).toMatchObject([{ accepted_qty: 2, rejected_qty: 2, result: 'damaged_in_use' }]);
  });
});
