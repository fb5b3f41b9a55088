import { appendGiven, openTestErp, type GivenEvent } from '../support/erp';

const reqLine = { line: 1, item: null, description: 'Pump seals', qty: 10, unit: 'ea', unit_price: 1250, amount: 12500, account: '6500', suggested_vendor: null };
const requisition: GivenEvent = {
  type: 'RequisitionCreated',
  data: { id: 'REQ-000001', requester: 'sam.ortiz', department: 'OPS', purpose: 'Spare seals', need_by: '2026-10-20', lines: [reqLine], total: 12500 },
  allocated: { REQ: 1 },
};
const submitted: GivenEvent = { type: 'RequisitionSubmitted', data: { id: 'REQ-000001', approval_request: 'APR-000001', assigned_to: 'maya.chen', amount: 12500, note: '' } };
const routed: GivenEvent = {
  type: 'RequisitionRouted',
  data: { id: 'REQ-000001', approval_request: 'APR-000001', new_request: 'APR-000002', to: 'grace.lin', reason: 'over_limit', note: 'Above my limit.' },
  businessDate: '2026-10-06',
};
const approved: GivenEvent = { type: 'RequisitionApproved', data: { id: 'REQ-000001', approval_request: 'APR-000002', amount: 12500, note: '' }, businessDate: '2026-10-07' };

const approvedDirect: GivenEvent = { ...approved, data: { ...(approved.data as object), approval_request: 'APR-000001' } };

const poLine = {
  line: 1, item: 'SEAL-1', description: 'Pump seal', qty: 10, unit: 'ea', unit_price: 1200, amount: 12000, need_by: '2026-10-20', account: '1300',
  requisition_lines: [{ requisition: 'REQ-000001', line: 1 }],
};
const item: GivenEvent = {
  type: 'ItemCreated',
  data: {
    id: 'SEAL-1', description: 'Pump seal', type: 'stock', unit: 'ea', category: 'seals', lot_controlled: true, shelf_life_days: 365, standard_cost: 1200,
    inventory_account: '1300', expense_account: '6500', preferred_vendor: null, lead_time_days: 5, order_multiple: 1, moq: 0, safety_stock: 0,
  },
};
const poCreated: GivenEvent = {
  type: 'PurchaseOrderCreated',
  data: { id: 'PO-000001', vendor: 'V-0142', buyer: 'sam.ortiz', ship_to: 'WH1', department: 'OPS', lines: [poLine], total: 12000, note: '' },
  businessDate: '2026-10-08',
};
const movement = (type: string, qty: number, value: number, doc: string) => ({
  type, date: '2026-10-12', item: 'SEAL-1', warehouse: 'WH1', location: 'A1', lot: 'L7', expiry: '2027-10-01', qty, unit_cost: 1200, value,
  document_type: 'receipt', document_id: doc, document_line: 1,
});
const receiptLine = {
  line: 1, po_line: 1, item: 'SEAL-1', substitute_for: null, description: 'Pump seal', qty_received: 6, qty_refused: 1, refusal_reason: 'damaged',
  lot: 'L7', expiry: '2027-10-01', location: 'A1', unit_price: 1200, amount: 7200, account: '1300', stock: true,
};
const emptyJournal = (date: string) => ({ date, memo: 'test', lines: [] });
const receipt: GivenEvent = {
  type: 'ReceiptPosted',
  data: {
    id: 'RCV-000001', po: 'PO-000001', vendor: 'V-0142', warehouse: 'WH1', date: '2026-10-12', delivery: null, packing_slip: 'PS-9', lines: [receiptLine],
    total: 7200, note: '', journal: emptyJournal('2026-10-12'), inventory: [movement('receipt', 6, 7200, 'RCV-000001')],
  },
  businessDate: '2026-10-12',
};
const reversal: GivenEvent = {
  type: 'ReceiptReversed',
  data: {
    id: 'RCV-000001', po: 'PO-000001', date: '2026-10-14', reason: 'wrong_po', note: '', lines: [{ line: 1, po_line: 1, qty_received: 6, amount: 7200 }],
    total: 7200, journal: emptyJournal('2026-10-14'), inventory: [{ ...movement('receipt_reversal', -6, -7200, 'RCV-000001'), date: '2026-10-14' }],
  },
  businessDate: '2026-10-14',
};

function rows(erp: ReturnType<typeof openTestErp>['erp'], sql: string) {
  return erp.db.prepare(sql).all();
}

describe('a requisition submitted, routed on and approved', () => {
  it('is approved with each approval request closed in turn and the routing kept', () => {
    const { erp, api } = openTestErp();
    appendGiven(erp, [requisition, submitted, routed, approved]);
    expect(rows(erp, 'SELECT id, status, approval_request, assigned_to, approved_by, approved_date FROM requisitions')).toEqual([
      { id: 'REQ-000001', status: 'approved', approval_request: null, assigned_to: null, approved_by: 'system', approved_date: '2026-10-07' },
    ]);
    expect(rows(erp, 'SELECT id, assigned_to, assigned_reason, previous_request, status, reason, routed_to, next_request, created_date FROM approval_requests ORDER BY id')).toEqual([
      { id: 'APR-000001', assigned_to: 'maya.chen', assigned_reason: 'submitted', previous_request: null, status: 'routed', reason: 'over_limit', routed_to: 'grace.lin', next_request: 'APR-000002', created_date: '2026-10-05' },
      { id: 'APR-000002', assigned_to: 'grace.lin', assigned_reason: 'over_limit', previous_request: 'APR-000001', status: 'approved', reason: null, routed_to: null, next_request: null, created_date: '2026-10-06' },
    ]);
    expect(api.read.requisitions.requisition('REQ-000001')!.status_history.map((s) => s.status)).toEqual(['draft', 'submitted', 'approved']);
    expect(api.read.requisitions.approvedUnconverted()).toMatchObject([{ requisition: 'REQ-000001', line: 1, amount: 12500, department: 'OPS' }]);
  });
});

describe('an approved requisition converted to a purchase order', () => {
  it('is converted, and approved again with a reason when the PO is cancelled', () => {
    const { erp, api } = openTestErp();
    appendGiven(erp, [requisition, submitted, approvedDirect, item, poCreated]);
    expect(api.read.requisitions.requisition('REQ-000001')!.status).toBe('converted');
    expect(api.read.requisitions.line('REQ-000001', 1)).toMatchObject({ converted_po: 'PO-000001', converted_po_line: 1 });
    expect(api.read.requisitions.approvedUnconverted()).toEqual([]);
    appendGiven(erp, [{ type: 'PurchaseOrderCancelled', data: { id: 'PO-000001', reason: 'vendor_inactive', note: '' } }]);
    const req = api.read.requisitions.requisition('REQ-000001')!;
    expect([req.status, req.status_history.at(-1)!.reason]).toEqual(['approved', 'po_cancelled']);
    expect(api.read.requisitions.line('REQ-000001', 1)!.converted_po).toBeNull();
  });
});

describe('a sent PO received in part and the receipt reversed', () => {
  const given = () => {
    const { erp, api } = openTestErp();
    appendGiven(erp, [requisition, submitted, approvedDirect, item, poCreated,
      { type: 'PurchaseOrderApproved', data: { id: 'PO-000001', amount: 12000, note: '' } },
      { type: 'PurchaseOrderSent', data: { id: 'PO-000001', vendor: 'V-0142', note: '' } },
      receipt]);
    return { erp, api };
  };

  it('counts the received quantity on the PO line and marks the PO partially received', () => {
    const { erp, api } = given();
    expect(rows(erp, 'SELECT status FROM purchase_orders')).toEqual([{ status: 'partially_received' }]);
    expect(rows(erp, 'SELECT status, received_qty FROM po_lines')).toEqual([{ status: 'open', received_qty: 6 }]);
    expect(api.read.receiving.receivedQty('PO-000001', 1)).toBe(6);
    expect(api.read.purchasing.openQty('PO-000001', 1)).toBe(4);
    expect(api.read.receiving.receiptsOfPo('PO-000001').map((r) => r.id)).toEqual(['RCV-000001']);
    expect(rows(erp, 'SELECT receipt, qty_received, qty_refused, refusal_reason, lot, status FROM receipt_lines')).toEqual([
      { receipt: 'RCV-000001', qty_received: 6, qty_refused: 1, refusal_reason: 'damaged', lot: 'L7', status: 'posted' },
    ]);
  });

  it('derives on-hand and its value from the inventory transactions', () => {
    const { erp, api } = given();
    expect(rows(erp, 'SELECT id, type, qty, value, document_id FROM inventory_transactions')).toEqual([
      { id: 'IT-8-1', type: 'receipt', qty: 6, value: 7200, document_id: 'RCV-000001' },
    ]);
    expect(api.read.inventory.onHand('SEAL-1')).toBe(6);
    expect(api.read.inventory.onHand('SEAL-1', 'WH2')).toBe(0);
    expect(api.read.inventory.stock({ item: 'SEAL-1' })).toEqual([
      { item: 'SEAL-1', warehouse: 'WH1', location: 'A1', lot: 'L7', expiry: '2027-10-01', qty: 6, value: 7200 },
    ]);
  });

  it('takes the quantity back on reversal, net and as of each date', () => {
    const { erp, api } = given();
    appendGiven(erp, [reversal]);
    expect(rows(erp, 'SELECT status, reversal_date, reversal_reason FROM receipts')).toEqual([{ status: 'reversed', reversal_date: '2026-10-14', reversal_reason: 'wrong_po' }]);
    expect(rows(erp, 'SELECT status FROM purchase_orders')).toEqual([{ status: 'sent' }]);
    expect(api.read.receiving.receivedQty('PO-000001', 1)).toBe(0);
    expect(api.read.receiving.receivedAsOf('PO-000001', 1, '2026-10-13')).toEqual({ qty: 6, value: 7200 });
    expect(api.read.receiving.receivedAsOf('PO-000001', 1, '2026-10-14')).toEqual({ qty: 0, value: 0 });
    expect(api.read.inventory.onHand('SEAL-1')).toBe(0);
    expect(api.read.inventory.valueAsOf('2026-10-13')).toBe(7200);
    expect(api.read.inventory.valueAsOf('2026-10-14')).toBe(0);
  });
});
