import { call } from '../support/erp';
import { DIRECT_PO, purchaseOrder, purchasingCompany } from '../support/purchasing-fixture';

const ACK = { lines: [{ line: 1, confirmed_date: '2026-10-19' }, { line: 2, confirmed_date: '2026-10-23', confirmed_qty: 180 }], price_notices: [{ line: 2, unit_price: '12.40', note: 'Resin surcharge' }] };

describe('a sent purchase order acknowledged by its vendor', () => {
  it('records a confirmed date and quantity per line and the price notice', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    const res = call(api, tokens.vendor, 'POST', '/purchase-orders/PO-000001/acknowledgements', ACK);
    expect(res.status).toBe(201);
    expect(res.body.lines.map((l: any) => [l.line, l.confirmed_date, l.confirmed_qty])).toEqual([[1, '2026-10-19', 50], [2, '2026-10-23', 180]]);
    expect(res.body.acknowledgements).toEqual([
      expect.objectContaining({ id: 'ACK-000001', line: 1, confirmed_date: '2026-10-19', price_notice: null, acknowledged_by: 'sim.vendors' }),
      expect.objectContaining({ id: 'ACK-000001', line: 2, confirmed_qty: 180, price_notice: 12.4, price_note: 'Resin surcharge' }),
    ]);
    expect(api.read.purchasing.poLine('PO-000001', 2)!.unit_price).toBe(1200);
  });

  it('is refused for a PO not yet sent, a line it does not have, and a user who is not the vendor desk', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens, DIRECT_PO, 'approved');
    expect(call(api, tokens.vendor, 'POST', '/purchase-orders/PO-000001/acknowledgements', ACK).body.code).toBe('invalid_state');
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/send', {});
    expect(call(api, tokens.vendor, 'POST', '/purchase-orders/PO-000001/acknowledgements', { lines: [{ line: 7, confirmed_date: '2026-10-19' }] }).body.code).toBe('not_found');
    expect(call(api, tokens.vendor, 'POST', '/purchase-orders/PO-000001/acknowledgements', { lines: [{ line: 1, confirmed_date: '2026-10-19' }], price_notices: [{ line: 5, unit_price: 1 }] }).body.code).toBe('not_found');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/acknowledgements', ACK).body.code).toBe('forbidden');
  });
});

describe('a buyer\'s request to the vendor of a sent PO', () => {
  it('expedites a line to the date the vendor accepts', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    call(api, tokens.vendor, 'POST', '/purchase-orders/PO-000001/acknowledgements', ACK);
    const raised = call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'expedite', line: 1, date: '2026-10-12', note: 'Line down' });
    expect(raised.body).toMatchObject({ id: 'VRQ-000001', po: 'PO-000001', line: 1, kind: 'expedite', date: '2026-10-12', status: 'pending', raised_by: 'sam.ortiz' });
    const answered = call(api, tokens.vendor, 'POST', '/vendor-requests/VRQ-000001/answer', { decision: 'accepted', date: '2026-10-14' });
    expect(answered.body).toMatchObject({ status: 'accepted', answer_date: '2026-10-14', answered_by: 'sim.vendors' });
    expect(api.read.purchasing.poLine('PO-000001', 1)!.confirmed_date).toBe('2026-10-14');
    expect(call(api, tokens.vendor, 'POST', '/vendor-requests/VRQ-000001/answer', { decision: 'refused' }).body.code).toBe('invalid_state');
  });

  it('leaves the date alone when the vendor refuses a deferral', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    call(api, tokens.vendor, 'POST', '/purchase-orders/PO-000001/acknowledgements', ACK);
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'defer', line: 2, date: '2026-11-30' });
    call(api, tokens.vendor, 'POST', '/vendor-requests/VRQ-000001/answer', { decision: 'refused', note: 'Already in production' });
    expect(api.read.purchasing.poLine('PO-000001', 2)!.confirmed_date).toBe('2026-10-23');
    expect(call(api, tokens.ava, 'GET', '/vendor-requests', undefined, { query: { po: 'PO-000001', status: 'refused' } }).body.items.map((r: any) => r.id)).toEqual(['VRQ-000001']);
  });

  it('cancels a line when the vendor accepts cancel_line, which can complete the order', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 50 }] });
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'cancel_line', line: 2 });
    call(api, tokens.vendor, 'POST', '/vendor-requests/VRQ-000001/answer', { decision: 'accepted' });
    expect(api.read.purchasing.poLine('PO-000001', 2)).toMatchObject({ status: 'cancelled', closed_qty: 200, closed_reason: 'vendor_cancelled' });
    expect(api.read.purchasing.po('PO-000001')!.status).toBe('received');
  });

  it('is refused without a date for expedite, on a closed line, on an unsent PO, and an answer to a line no longer open', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'expedite', line: 1 }).status).toBe(422);
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'defer', line: 9, date: '2026-11-01' }).body.code).toBe('not_found');
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'cancel_line', line: 1 });
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/lines/1/short-close', { reason: 'not_needed' });
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/requests', { kind: 'cancel_line', line: 1 }).body.code).toBe('invalid_state');
    expect(call(api, tokens.vendor, 'POST', '/vendor-requests/VRQ-000001/answer', { decision: 'accepted' }).body.code).toBe('invalid_state');
    expect(call(api, tokens.vendor, 'POST', '/vendor-requests/VRQ-000404/answer', { decision: 'accepted' }).body.code).toBe('not_found');
    purchaseOrder(api, tokens, DIRECT_PO, 'approved');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000002/requests', { kind: 'cancel_line', line: 1 }).body.code).toBe('invalid_state');
    expect(call(api, tokens.sam, 'POST', '/vendor-requests/VRQ-000001/answer', { decision: 'refused' }).body.code).toBe('forbidden');
  });
});
