import { firstShipmentQty, roundToUnit } from '../../src/sim/behaviours/vendor-profile';
import { ok } from '../support/books-fixture';
import { call } from '../support/erp';
import { purchaseOrder } from '../support/purchasing-fixture';
import { simulatedCompany } from '../support/sim-fixture';

const valves = (qty: number, need_by = '2026-10-08') => ({ vendor: 'V-0142', ship_to: 'WH1', lines: [{ item: 'VALVE-2', qty, unit_price: 40, need_by }] });
const deliveryLines = (api: any, po: string) => api.read.receiving.deliveriesOfPo(po).flatMap((d: any) => api.read.receiving.deliveryLines(d.id).map((l: any) => ({ ship: d.ship_date, ...l })));
const vendors = (profile: object) => ({ vendors: { user: 'sim.vendors', vendors: { 'V-0142': profile } } });

describe('a vendor whose profile ships 1.8% over', () => {
  it('ships 1.8% over whatever quantity was actually ordered, rounded to the item\'s unit', () => {
    const { api, tokens, advance } = simulatedCompany(vendors({ default: { over_ship_pct: 1.8 } }));
    purchaseOrder(api, tokens, valves(500));
    purchaseOrder(api, tokens, valves(250));
    advance('2026-10-12');
    expect(deliveryLines(api, 'PO-000001').map((l: any) => l.qty)).toEqual([509]);
    expect(deliveryLines(api, 'PO-000002').map((l: any) => l.qty)).toEqual([255]);
  });

  it('rounds counted units to whole pieces and measured ones to thousandths', () => {
    expect([firstShipmentQty(500, 'ea', { over_ship_pct: 1.8 }), firstShipmentQty(250, 'EA', { over_ship_pct: 1.8 }), firstShipmentQty(12.5, 'kg', { over_ship_pct: 1.8 })]).toEqual([509, 255, 12.725]);
    expect([roundToUnit(99.5, 'ea'), roundToUnit(0.1 + 0.2, 'kg'), firstShipmentQty(10, 'ea', { fill_rate: 0.55 })]).toEqual([100, 0.3, 6]);
  });
});

describe('a vendor with a sent purchase order', () => {
  it('acknowledges it the next business day with its lead time and a price notice, and ships on the confirmed date', () => {
    const { api, tokens, advance } = simulatedCompany(vendors({ lead_time_days: 9, price_notices: { 'VALVE-2': { unit_price: 41.5, note: 'Brass index' } } }));
    purchaseOrder(api, tokens, valves(100));
    advance('2026-10-05');
    expect(api.read.purchasing.acknowledgements('PO-000001')).toEqual([]);
    advance('2026-10-06');
    // Sent on the 5th with 9 days' lead time: the 14th, later than the 8th it was needed by.
    expect(api.read.purchasing.acknowledgements('PO-000001')).toEqual([expect.objectContaining({ line: 1, confirmed_date: '2026-10-14', price_notice: 4150, price_note: 'Brass index', acknowledged_date: '2026-10-06' })]);
    advance('2026-10-13');
    expect(deliveryLines(api, 'PO-000001')).toEqual([]);
    advance('2026-10-14');
    expect(deliveryLines(api, 'PO-000001')).toEqual([expect.objectContaining({ ship: '2026-10-14', po_line: 1, item: 'VALVE-2', qty: 100, lot: null })]);
  });

  it('does nothing with an order that was approved but never sent', () => {
    const { api, tokens, advance } = simulatedCompany(vendors({}));
    purchaseOrder(api, tokens, valves(100), 'approved');
    advance('2026-10-20');
    expect([api.read.purchasing.acknowledgements('PO-000001'), deliveryLines(api, 'PO-000001')]).toEqual([[], []]);
  });

  it('ships a substitute for a lot-controlled item with a lot and an expiry from its shelf life', () => {
    const { api, tokens, advance } = simulatedCompany(vendors({ items: { 'SEAL-1': { substitute: 'SEAL-1X', expiry_days: 200 } } }));
    purchaseOrder(api, tokens, { vendor: 'V-0142', ship_to: 'WH1', lines: [{ item: 'SEAL-1', qty: 40, unit_price: 12, need_by: '2026-10-16' }] });
    advance('2026-10-16');
    expect(deliveryLines(api, 'PO-000001')).toEqual([expect.objectContaining({ item: 'SEAL-1X', substitute_for: 'SEAL-1', qty: 40, lot: 'L000001-1-1', expiry: '2027-05-04' })]);
  });

  it('ships short by its fill rate and sends the rest after the backorder days', () => {
    const { api, tokens, advance } = simulatedCompany(vendors({ default: { fill_rate: 0.6, backorder_days: 3 } }));
    purchaseOrder(api, tokens, valves(100, '2026-10-12'));
    advance('2026-10-16');
    expect(deliveryLines(api, 'PO-000001').map((l: any) => [l.ship, l.qty])).toEqual([['2026-10-12', 60], ['2026-10-15', 40]]);
  });
});

describe('a vendor answering requests', () => {
  it('accepts an expedite no sooner than its minimum lead, then ships on the new date', () => {
    const { api, tokens, advance } = simulatedCompany(vendors({ lead_time_days: 10, expedite: { accept: true, min_lead_days: 2 } }));
    purchaseOrder(api, tokens, valves(100));
    advance('2026-10-06');
    ok(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'expedite', line: 1, date: '2026-10-07' }), 'expedite');
    advance('2026-10-07');
    expect(api.read.purchasing.vendorRequest('VRQ-000001')).toMatchObject({ status: 'accepted', answer_date: '2026-10-09', answered_date: '2026-10-07' });
    advance('2026-10-09');
    expect(deliveryLines(api, 'PO-000001').map((l: any) => l.ship)).toEqual(['2026-10-09']);
  });

  it('refuses an expedite its profile does not allow, accepts a deferral, and accepts a cancellation before shipping', () => {
    const { api, tokens, advance } = simulatedCompany(vendors({}));
    purchaseOrder(api, tokens, { vendor: 'V-0142', ship_to: 'WH1', lines: [...valves(10).lines, ...valves(20).lines, ...valves(30).lines] });
    advance('2026-10-06');
    ok(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'expedite', line: 1, date: '2026-10-09' }), 'r1');
    ok(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'defer', line: 2, date: '2026-11-02' }), 'r2');
    ok(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'cancel_line', line: 3 }), 'r3');
    advance('2026-10-07');
    expect(api.read.purchasing.vendorRequests('PO-000001').map((r) => [r.kind, r.status, r.answer_date])).toEqual([
      ['expedite', 'refused', null], ['defer', 'accepted', '2026-11-02'], ['cancel_line', 'accepted', null],
    ]);
    advance('2026-10-20');
    expect(deliveryLines(api, 'PO-000001').map((l: any) => l.po_line)).toEqual([1]);
  });
});
