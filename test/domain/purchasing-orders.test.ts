import { call } from '../support/erp';
import { approvedRequisition, DIRECT_PO, purchaseOrder, purchasingCompany, SEALS, submittedRequisition } from '../support/purchasing-fixture';

const fromReq = (requisition: string, line = 1, extra: object = {}) => ({ vendor: 'V-0142', ship_to: 'WH1', lines: [{ requisition_lines: [{ requisition, line }], ...extra }] });

describe('a buyer creating a purchase order', () => {
  it('drafts a direct order with stock lines on the inventory account and the total in cents', () => {
    const { api, tokens } = purchasingCompany();
    const res = call(api, tokens.sam, 'POST', '/purchase-orders', { ...DIRECT_PO, lines: [...DIRECT_PO.lines, { item: 'CAL-SVC', qty: 1, unit_price: 350, need_by: '2026-10-15' }] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'PO-000001', vendor: 'V-0142', buyer: 'sam.ortiz', ship_to: 'WH1', department: 'PUR', status: 'draft', total: 4750 });
    expect(res.body.lines.map((l: any) => [l.line, l.item, l.account, l.amount, l.open_qty, l.status])).toEqual([
      [1, 'VALVE-2', '1300', 2000, 50, 'open'], [2, 'SEAL-1', '1300', 2400, 200, 'open'], [3, 'CAL-SVC', '6500', 350, 1, 'open'],
    ]);
    expect(api.read.purchasing.po('PO-000001')!.total).toBe(475000);
  });

  it('converts approved requisition lines, taking quantity, price and need-by date from them', () => {
    const { api, tokens } = purchasingCompany();
    approvedRequisition(api, tokens);
    const res = call(api, tokens.sam, 'POST', '/purchase-orders', fromReq('REQ-000001', 1, { unit_price: '11.90' }));
    expect(res.body.lines[0]).toMatchObject({ item: 'SEAL-1', qty: 100, unit_price: 11.9, amount: 1190, need_by: '2026-10-30', requisition_lines: [{ requisition: 'REQ-000001', line: 1 }] });
    expect(res.body.links).toContainEqual({ rel: 'requisition', type: 'requisition', id: 'REQ-000001' });
    const req = call(api, tokens.tom, 'GET', '/requisitions/REQ-000001').body;
    expect([req.status, req.lines[0].converted_po, req.lines[0].converted_po_line]).toEqual(['converted', 'PO-000001', 1]);
    expect(req.links).toContainEqual({ rel: 'purchase_order', type: 'purchase_order', id: 'PO-000001' });
  });

  it('consolidates requisition lines of one item into one line with their summed quantity and the earliest need-by date', () => {
    const { api, tokens } = purchasingCompany();
    approvedRequisition(api, tokens);
    approvedRequisition(api, tokens, { ...SEALS, need_by: '2026-10-25', lines: [{ item: 'SEAL-1', qty: 40, unit_price: 12.5 }] });
    const res = call(api, tokens.sam, 'POST', '/purchase-orders', { vendor: 'V-0142', ship_to: 'WH1', lines: [{ requisition_lines: [{ requisition: 'REQ-000001', line: 1 }, { requisition: 'REQ-000002', line: 1 }] }] });
    expect(res.body.lines[0]).toMatchObject({ qty: 140, need_by: '2026-10-25', amount: 1750 });
    expect(['REQ-000001', 'REQ-000002'].map((id) => api.read.requisitions.requisition(id)!.status)).toEqual(['converted', 'converted']);
  });

  it('refuses to consolidate different items without naming the item ordered', () => {
    const { api, tokens } = purchasingCompany();
    approvedRequisition(api, tokens, { ...SEALS, lines: [{ item: 'SEAL-1', qty: 1, unit_price: 1 }, { item: 'VALVE-2', qty: 1, unit_price: 1 }] });
    const res = call(api, tokens.sam, 'POST', '/purchase-orders', { vendor: 'V-0142', ship_to: 'WH1', lines: [{ requisition_lines: [{ requisition: 'REQ-000001', line: 1 }, { requisition: 'REQ-000001', line: 2 }] }] });
    expect([res.status, res.body.code]).toEqual([422, 'invalid_request']);
  });

  it('refuses requisition lines that are not approved, not there, named twice or already ordered', () => {
    const { api, tokens } = purchasingCompany();
    submittedRequisition(api, tokens.tom);
    expect(call(api, tokens.sam, 'POST', '/purchase-orders', fromReq('REQ-000001')).body.code).toBe('invalid_state');
    call(api, tokens.maya, 'POST', '/requisitions/REQ-000001/approve', {});
    expect(call(api, tokens.sam, 'POST', '/purchase-orders', fromReq('REQ-000404')).body.code).toBe('not_found');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders', fromReq('REQ-000001', 2)).body.code).toBe('not_found');
    const twice = { vendor: 'V-0142', ship_to: 'WH1', lines: [{ requisition_lines: [{ requisition: 'REQ-000001', line: 1 }] }, { requisition_lines: [{ requisition: 'REQ-000001', line: 1 }] }] };
    expect(call(api, tokens.sam, 'POST', '/purchase-orders', twice).body.code).toBe('invalid_request');
    call(api, tokens.sam, 'POST', '/purchase-orders', fromReq('REQ-000001'));
    expect(call(api, tokens.sam, 'POST', '/purchase-orders', fromReq('REQ-000001')).body.detail).toBe('Line 1: REQ-000001 line 1 is already on PO-000001.');
    expect(call(api, tokens.tom, 'POST', '/requisitions/REQ-000001/cancel', { reason: 'not_needed' }).body.code).toBe('invalid_state');
  });

  it('refuses a new order for an inactive vendor (vendor_inactive) and records the probe', () => {
    const { erp, api, tokens } = purchasingCompany();
    const res = call(api, tokens.sam, 'POST', '/purchase-orders', { ...DIRECT_PO, vendor: 'V-0200' });
    expect([res.status, res.body.code]).toEqual([409, 'vendor_inactive']);
    expect(erp.db.prepare(`SELECT actor, action FROM events WHERE error_code = 'vendor_inactive'`).all()).toEqual([{ actor: 'sam.ortiz', action: 'purchase_order.create' }]);
  });

  it('accepts an order from a vendor on quality hold: a soft control for the grader', () => {
    const { api, tokens } = purchasingCompany();
    call(api, tokens.hannah, 'POST', '/vendors/V-0142/quality-hold', { reason: 'failed_inspection' });
    expect(call(api, tokens.sam, 'POST', '/purchase-orders', DIRECT_PO).status).toBe(201);
  });

  it('refuses an unknown vendor, warehouse, department or item, and lines missing price, quantity, date or account', () => {
    const { api, tokens } = purchasingCompany();
    const post = (body: object) => call(api, tokens.sam, 'POST', '/purchase-orders', { ...DIRECT_PO, ...body }).body.code;
    expect([post({ vendor: 'V-0999' }), post({ ship_to: 'WH9' }), post({ department: 'XX' }), post({ lines: [{ item: 'NOPE', qty: 1, unit_price: 1, need_by: '2026-10-20' }] })])
      .toEqual(['not_found', 'not_found', 'not_found', 'not_found']);
    const line = { item: 'VALVE-2', qty: 1, unit_price: 1, need_by: '2026-10-20' };
    for (const missing of ['qty', 'unit_price', 'need_by'] as const) {
      const { [missing]: _, ...rest } = line;
      expect([missing, post({ lines: [rest] })]).toEqual([missing, 'invalid_request']);
    }
    expect(post({ lines: [{ description: 'Consulting', qty: 1, unit_price: 1, need_by: '2026-10-20' }] })).toBe('invalid_request');
    expect(post({ buyer: 'maya.chen' })).toBe('forbidden');
  });
});

describe('a draft purchase order', () => {
  it('is revised as a whole, freeing the requisition lines it drops', () => {
    const { api, tokens } = purchasingCompany();
    approvedRequisition(api, tokens);
    call(api, tokens.sam, 'POST', '/purchase-orders', fromReq('REQ-000001'));
    const res = call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/revise', { ship_to: 'WH2', lines: DIRECT_PO.lines });
    expect(res.body).toMatchObject({ ship_to: 'WH2', total: 4400 });
    const req = api.read.requisitions.requisition('REQ-000001')!;
    expect([req.status, req.status_history.at(-1)!.reason]).toEqual(['approved', 'po_line_removed']);
    call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/revise', { lines: fromReq('REQ-000001', 1, { qty: 120 }).lines });
    expect(api.read.requisitions.requisition('REQ-000001')!.status).toBe('converted');
  });

  it('is approved by its own buyer within the purchase_order limit', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens, DIRECT_PO, 'draft');
    const res = call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/approve', {});
    expect(res.body).toMatchObject({ status: 'approved', approved_by: 'sam.ortiz', approved_date: '2026-10-05' });
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/revise', { lines: DIRECT_PO.lines }).body.code).toBe('invalid_state');
  });

  it('refuses approval above the limit (over_limit) and to a user without the permission', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens, { ...DIRECT_PO, lines: [{ item: 'VALVE-2', qty: 1000, unit_price: 40, need_by: '2026-10-20' }] }, 'draft');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/approve', {}).body.code).toBe('over_limit');
    expect(call(api, tokens.maya, 'POST', '/purchase-orders/PO-000001/approve', {}).body.code).toBe('forbidden');
  });

  it('cannot be sent before it is approved', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens, DIRECT_PO, 'draft');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/send', {}).body.code).toBe('invalid_state');
  });
});

describe('an approved purchase order', () => {
  it('is sent to its vendor', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens, DIRECT_PO, 'approved');
    const res = call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/send', {});
    expect(res.body).toMatchObject({ status: 'sent', sent_by: 'sam.ortiz', sent_date: '2026-10-05' });
    expect(res.body.status_history.map((s: any) => s.status)).toEqual(['draft', 'approved', 'sent']);
  });

  it('is not sent once its vendor has been made inactive (vendor_inactive)', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens, DIRECT_PO, 'approved');
    call(api, tokens.hannah, 'POST', '/vendors/V-0142/deactivate', { reason: 'vendor_closed' });
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/send', {}).body.code).toBe('vendor_inactive');
  });
});

describe('a sent purchase order', () => {
  it('is cancelled with a reason while nothing is received, freeing its requisition lines', () => {
    const { api, tokens } = purchasingCompany();
    approvedRequisition(api, tokens);
    purchaseOrder(api, tokens, fromReq('REQ-000001'));
    const res = call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/cancel', { reason: 'duplicate_order' });
    expect(res.body.status_history.at(-1)).toMatchObject({ status: 'cancelled', reason: 'duplicate_order' });
    expect(api.read.requisitions.requisition('REQ-000001')!.status).toBe('approved');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/cancel', { reason: 'again' }).body.code).toBe('invalid_state');
  });

  it('is not cancelled once something was received; its open lines are short-closed and it is closed instead', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 50 }] });
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/cancel', { reason: 'late' }).body.code).toBe('invalid_state');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/close', { reason: 'x' }).body.status).toBe('closed');
  });

  it('short-closes a line, giving up its open quantity, which completes the order', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 50 }, { po_line: 2, qty_received: 150, lot: 'L1', expiry: '2027-09-30' }] });
    expect(api.read.purchasing.po('PO-000001')!.status).toBe('partially_received');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/lines/9/short-close', { reason: 'x' }).body.code).toBe('not_found');
    const res = call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/lines/2/short-close', { reason: 'vendor_short' });
    expect(res.body.lines[1]).toMatchObject({ status: 'short_closed', received_qty: 150, closed_qty: 50, closed_reason: 'vendor_short', open_qty: 0 });
    expect(res.body.status).toBe('received');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/lines/2/short-close', { reason: 'x' }).body.code).toBe('invalid_state');
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/lines/x/short-close', { reason: 'x' }).status).toBe(400);
  });

  it('cannot be closed while nothing was received', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    expect(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/close', { reason: 'x' }).body.code).toBe('invalid_state');
  });

  it('shows ordered, received and open quantities, receipts and links', () => {
    const { api, tokens } = purchasingCompany();
    purchaseOrder(api, tokens);
    call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 20 }] });
    const po = call(api, tokens.ava, 'GET', '/purchase-orders/PO-000001').body;
    expect(po.lines[0]).toMatchObject({ ordered_qty: 50, received_qty: 20, open_qty: 30, open_value: 1200 });
    expect(po.receipts).toEqual([{ id: 'RCV-000001', date: '2026-10-05', status: 'posted', total: 800 }]);
    expect(po.links).toEqual([
      { rel: 'vendor', type: 'vendor', id: 'V-0142' }, { rel: 'ship_to', type: 'warehouse', id: 'WH1' }, { rel: 'receipt', type: 'receipt', id: 'RCV-000001' },
    ]);
    expect(call(api, tokens.ava, 'GET', '/purchase-orders', undefined, { query: { status: 'partially_received', vendor: 'V-0142' } }).body.items.map((p: any) => p.id)).toEqual(['PO-000001']);
    expect(call(api, tokens.ava, 'GET', '/purchase-orders/PO-000404').status).toBe(404);
  });
});
