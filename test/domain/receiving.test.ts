import { call, eventCount } from '../support/erp';
import { approvedRequisition, DIRECT_PO, purchaseOrder, purchasingCompany } from '../support/purchasing-fixture';

const LOT = { lot: 'L-2210', expiry: '2027-09-30' };
const gl = (api: any, doc: string) => api.read.ledger.glLinesOf(doc).map((l: any) => [l.account, l.debit, l.credit, l.party_id, l.department]);

function sentPo() {
  const company = purchasingCompany();
  purchaseOrder(company.api, company.tokens);
  return company;
}

describe('a receipt against a sent purchase order', () => {
  it('posts Dr inventory / Cr GRNI at PO price, records stock and marks the PO partially received', () => {
    const { api, tokens } = sentPo();
    const res = call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', packing_slip: 'PS-881', lines: [{ po_line: 1, qty_received: 20 }, { po_line: 2, qty_received: 200, ...LOT, location: 'B1' }] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'RCV-000001', po: 'PO-000001', vendor: 'V-0142', warehouse: 'WH1', date: '2026-10-05', status: 'posted', total: 3200, packing_slip: 'PS-881' });
    expect(res.body.lines.map((l: any) => [l.po_line, l.item, l.qty_received, l.location, l.lot, l.amount, l.account])).toEqual([
      [1, 'VALVE-2', 20, 'A1', null, 800, '1300'], [2, 'SEAL-1', 200, 'B1', 'L-2210', 2400, '1300'],
    ]);
    expect(gl(api, 'RCV-000001')).toEqual([['1300', 80000, 0, null, null], ['1300', 240000, 0, null, null]]);
    expect(gl(api, 'PO-000001')).toEqual([['2100', 0, 320000, 'V-0142', null]]);
    expect(res.body.inventory_transactions.map((t: any) => [t.type, t.item, t.qty, t.value])).toEqual([['receipt', 'VALVE-2', 20, 800], ['receipt', 'SEAL-1', 200, 2400]]);
    expect(api.read.purchasing.po('PO-000001')!.status).toBe('partially_received');
    expect(api.read.inventory.onHand('SEAL-1', 'WH1')).toBe(200);
  });

  it('charges a service line to its expense account for the department of the requisition it came from', () => {
    const { api, tokens } = purchasingCompany();
    approvedRequisition(api, tokens, { need_by: '2026-10-30', lines: [{ item: 'CAL-SVC', qty: 1, unit_price: 350 }] });
    purchaseOrder(api, tokens, { vendor: 'V-0142', ship_to: 'WH1', lines: [{ requisition_lines: [{ requisition: 'REQ-000001', line: 1 }] }] });
    call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 1 }] });
    expect(gl(api, 'RCV-000001')).toEqual([['6500', 35000, 0, null, 'OPS']]);
    expect(api.read.inventory.transactionsOf('RCV-000001')).toEqual([]);
  });

  it('records a refused quantity with its reason and an over-receipt as given (a soft control)', () => {
    const { api, tokens } = sentPo();
    const res = call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 55, qty_refused: 3, refusal_reason: 'damaged' }] });
    expect(res.body.lines[0]).toMatchObject({ qty_received: 55, qty_refused: 3, refusal_reason: 'damaged', amount: 2200 });
    expect(api.read.purchasing.poLine('PO-000001', 1)).toMatchObject({ received_qty: 55, status: 'received' });
    expect(api.read.purchasing.openQty('PO-000001', 1)).toBe(0);
  });

  it('records a different item as a substitution for the PO line, and stocks the item that came', () => {
    const { api, tokens } = sentPo();
    const res = call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 2, item: 'SEAL-1X', qty_received: 200, ...LOT }] });
    expect(res.body.lines[0]).toMatchObject({ item: 'SEAL-1X', substitute_for: 'SEAL-1', description: 'Pump seal, alternate', unit_price: 12 });
    expect([api.read.inventory.onHand('SEAL-1X'), api.read.inventory.onHand('SEAL-1')]).toEqual([200, 0]);
    expect(api.read.receiving.receivedQty('PO-000001', 2)).toBe(200);
  });

  it('is refused against a PO that was not sent (po_not_sent), recorded as a probe that changes nothing', () => {
    const { erp, api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens, DIRECT_PO, 'approved');
    const before = eventCount(erp);
    const res = call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 5 }] });
    expect([res.status, res.body.code]).toEqual([409, 'po_not_sent']);
    expect(erp.db.prepare('SELECT actor, outcome, error_code, action, type FROM events WHERE seq > ?').all(before)).toEqual([
      { actor: 'rita.vance', outcome: 'refused', error_code: 'po_not_sent', action: 'receipt.post', type: null },
    ]);
    expect(api.read.receiving.receiptsOfPo('PO-000001')).toEqual([]);
    expect(api.read.inventory.onHand('VALVE-2')).toBe(0);
  });

  it('is refused against a PO cancelled after it was sent (invalid_state), one cancelled unsent (po_not_sent), or one that does not exist', () => {
    const { api, tokens } = sentPo();
    purchaseOrder(api, tokens, DIRECT_PO, 'approved');
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/cancel', { reason: 'duplicate_order' });
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000002/cancel', { reason: 'duplicate_order' });
    const receive = (po: string) => call(api, tokens.rita, 'POST', '/receipts', { po, lines: [{ po_line: 1, qty_received: 5 }] }).body.code;
    expect([receive('PO-000001'), receive('PO-000002'), receive('PO-000404')]).toEqual(['invalid_state', 'po_not_sent', 'not_found']);
  });

  it('is refused when dated in a closed or unopened period (period_closed), or in the future', () => {
    const { api, tokens } = sentPo();
    expect(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', date: '2026-09-30', lines: [{ po_line: 1, qty_received: 5 }] }).body.code).toBe('period_closed');
    expect(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', date: '2026-10-06', lines: [{ po_line: 1, qty_received: 5 }] }).status).toBe(422);
  });

  it('refuses a lot-controlled item without lot and expiry, a refusal without a reason, and a line that receives nothing', () => {
    const { api, tokens } = sentPo();
    const post = (line: object) => call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [line] });
    expect(post({ po_line: 2, qty_received: 10, lot: 'L1' }).body.detail).toBe('Line 1: SEAL-1 is lot-controlled; give its lot and expiry.');
    expect(post({ po_line: 1, qty_received: 1, qty_refused: 1 }).status).toBe(422);
    expect(post({ po_line: 1, qty_received: 0 }).status).toBe(422);
  });

  it('refuses an unknown PO line, item, warehouse or location', () => {
    const { api, tokens } = sentPo();
    const post = (body: object, line: object = {}) => call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 1, ...line }], ...body }).body.code;
    expect([post({}, { po_line: 9 }), post({}, { item: 'NOPE' }), post({ warehouse: 'WH9' }), post({}, { location: 'Z9' })]).toEqual(['not_found', 'not_found', 'not_found', 'not_found']);
  });
});

describe('a delivery announced by the vendor', () => {
  it('is taken in by the receipt that names it, once', () => {
    const { api, tokens } = sentPo();
    const announced = call(api, tokens.vendor, 'POST', '/deliveries', { po: 'PO-000001', expected_date: '2026-10-07', lines: [{ po_line: 2, item: 'SEAL-1X', qty: 204, ...LOT }] });
    expect(announced.body).toMatchObject({ id: 'DLV-000001', status: 'announced', ship_date: '2026-10-05', expected_date: '2026-10-07', warehouse: 'WH1' });
    expect(announced.body.lines).toEqual([{ delivery: 'DLV-000001', line: 1, po: 'PO-000001', po_line: 2, item: 'SEAL-1X', substitute_for: 'SEAL-1', qty: 204, ...LOT }]);
    expect(api.read.receiving.shippedQty('PO-000001', 2)).toBe(204);
    const receipt = { po: 'PO-000001', delivery: 'DLV-000001', lines: [{ po_line: 2, item: 'SEAL-1X', qty_received: 204, ...LOT }] };
    expect(call(api, tokens.rita, 'POST', '/receipts', receipt).status).toBe(201);
    expect(api.read.receiving.delivery('DLV-000001')).toMatchObject({ status: 'received', receipt: 'RCV-000001' });
    expect(call(api, tokens.rita, 'POST', '/receipts', receipt).body.code).toBe('invalid_state');
  });

  it('is refused against a PO not sent, and for a line or item that does not exist', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens, DIRECT_PO, 'approved');
    expect(call(api, tokens.vendor, 'POST', '/deliveries', { po: 'PO-000001', lines: [{ po_line: 1, qty: 5 }] }).body.code).toBe('po_not_sent');
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/send', {});
    expect(call(api, tokens.vendor, 'POST', '/deliveries', { po: 'PO-000001', lines: [{ po_line: 4, qty: 5 }] }).body.code).toBe('not_found');
    expect(call(api, tokens.vendor, 'POST', '/deliveries', { po: 'PO-000001', lines: [{ po_line: 1, qty: 5, item: 'NOPE' }] }).body.code).toBe('not_found');
    expect(call(api, tokens.vendor, 'POST', '/deliveries', { po: 'PO-000001', ship_date: '2026-10-09', expected_date: '2026-10-08', lines: [{ po_line: 1, qty: 5 }] }).status).toBe(422);
  });

  it('is freed by the reversal of the receipt that took it in, and taken in again by a new receipt', () => {
    const { api, tokens } = sentPo();
    call(api, tokens.vendor, 'POST', '/deliveries', { po: 'PO-000001', lines: [{ po_line: 1, qty: 20 }] });
    call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', delivery: 'DLV-000001', lines: [{ po_line: 1, qty_received: 2 }] });
    expect(call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'wrong_quantity' }).status).toBe(200);
    expect(api.read.receiving.delivery('DLV-000001')).toMatchObject({ status: 'announced', receipt: null });
    expect(api.read.receiving.delivery('DLV-000001')!.status_history.map((h) => [h.status, h.reason])).toEqual([
      ['announced', null], ['received', null], ['announced', 'receipt RCV-000001 reversed: wrong_quantity'],
    ]);
    const again = call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', delivery: 'DLV-000001', lines: [{ po_line: 1, qty_received: 20 }] });
    expect(again.status).toBe(201);
    expect(api.read.receiving.delivery('DLV-000001')).toMatchObject({ status: 'received', receipt: 'RCV-000002' });
    expect(api.read.receiving.receivedQty('PO-000001', 1)).toBe(20);
  });

  it('stays with its new receipt when an older, reversed receipt is reversed again (refused)', () => {
    const { api, tokens } = sentPo();
    call(api, tokens.vendor, 'POST', '/deliveries', { po: 'PO-000001', lines: [{ po_line: 1, qty: 20 }] });
    call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', delivery: 'DLV-000001', lines: [{ po_line: 1, qty_received: 2 }] });
    call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'wrong_quantity' });
    call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', delivery: 'DLV-000001', lines: [{ po_line: 1, qty_received: 20 }] });
    expect(call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'wrong_quantity' }).body.code).toBe('invalid_state');
    expect(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', delivery: 'DLV-000001', lines: [{ po_line: 1, qty_received: 20 }] }).body.code).toBe('invalid_state');
    expect(api.read.receiving.delivery('DLV-000001')).toMatchObject({ status: 'received', receipt: 'RCV-000002' });
  });

  it('cannot be received on another PO\'s receipt', () => {
    const { api, tokens } = sentPo();
    purchaseOrder(api, tokens);
    call(api, tokens.vendor, 'POST', '/deliveries', { po: 'PO-000001', lines: [{ po_line: 1, qty: 5 }] });
    expect(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000002', delivery: 'DLV-000001', lines: [{ po_line: 1, qty_received: 5 }] }).status).toBe(422);
    expect(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000002', delivery: 'DLV-000404', lines: [{ po_line: 1, qty_received: 5 }] }).body.code).toBe('not_found');
  });
});

describe('a posted receipt reversed', () => {
  function received() {
    const company = sentPo();
    call(company.api, company.tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 50 }, { po_line: 2, qty_received: 120, ...LOT }] });
    return company;
  }

  it('posts the reverse, takes the stock back and reopens the PO lines', () => {
    const { api, tokens } = received();
    const res = call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'wrong_po', note: 'Belonged to PO-000002' });
    expect(res.body).toMatchObject({ status: 'reversed', reversal_date: '2026-10-05', reversal_reason: 'wrong_po' });
    expect(gl(api, 'RCV-000001')).toEqual([['1300', 200000, 0, null, null], ['1300', 144000, 0, null, null], ['1300', 0, 200000, null, null], ['1300', 0, 144000, null, null]]);
    expect(gl(api, 'PO-000001')).toEqual([['2100', 0, 344000, 'V-0142', null], ['2100', 344000, 0, 'V-0142', null]]);
    expect(api.read.inventory.stock({})).toEqual([]);
    expect(api.read.purchasing.po('PO-000001')!.status).toBe('sent');
    expect(api.read.receiving.receivedQty('PO-000001', 1)).toBe(0);
  });

  it('is refused a second time, before the receipt date, or once the stock was issued', () => {
    const { api, tokens } = received();
    expect(call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'x', date: '2026-10-04' }).status).toBe(422);
    call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'SEAL-1', warehouse: 'WH1', qty: 1, destination: { type: 'cost_center', ref: 'OPS' } });
    const res = call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'wrong_po' });
    expect([res.body.code, res.body.detail]).toEqual(['invalid_state', 'RCV-000001: only 119 of SEAL-1 lot L-2210 is still at WH1/A1; the rest was issued or moved.']);
    call(api, tokens.rita, 'POST', '/inventory/adjustments', { item: 'SEAL-1', warehouse: 'WH1', qty: 1, lot: 'L-2210', reason: 'found' });
    expect(call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'wrong_po' }).status).toBe(200);
    expect(call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'wrong_po' }).body.code).toBe('invalid_state');
    expect(call(api, tokens.rita, 'POST', '/receipts/RCV-000404/reverse', { reason: 'wrong_po' }).body.code).toBe('not_found');
  });

  it('lists receipts by PO and status', () => {
    const { api, tokens } = received();
    call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'wrong_po' });
    expect(call(api, tokens.ava, 'GET', '/receipts', undefined, { query: { po: 'PO-000001', status: 'reversed' } }).body.items.map((r: any) => [r.id, r.total])).toEqual([['RCV-000001', 3440]]);
    expect(call(api, tokens.ava, 'GET', '/receipts/RCV-000001').body.links.map((l: any) => l.rel)).toEqual(['purchase_order', 'vendor', 'posting', 'reversal']);
  });
});
