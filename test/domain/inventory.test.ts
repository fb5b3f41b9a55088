import { call } from '../support/erp';
import { purchaseOrder, purchasingCompany } from '../support/purchasing-fixture';

const gl = (api: any, doc: string) => api.read.ledger.glLinesOf(doc).map((l: any) => [l.account, l.debit, l.credit, l.department]);
const onHand = (api: any, token: string, query: Record<string, unknown> = {}) => call(api, token, 'GET', '/inventory/on-hand', undefined, { query }).body;

/** Two lots of seals received at different prices and expiries: 100 of L-OLD at $12, 100 of L-NEW at $13. */
function stocked() {
  const company = purchasingCompany();
  const { api, tokens } = company;
  purchaseOrder(api, tokens, { vendor: 'V-0142', ship_to: 'WH1', lines: [
    { item: 'SEAL-1', qty: 100, unit_price: 13, need_by: '2026-10-20' },
    { item: 'SEAL-1', qty: 100, unit_price: 12, need_by: '2026-10-20' },
  ] });
  call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [
    { po_line: 1, qty_received: 100, lot: 'L-NEW', expiry: '2027-12-31' },
    { po_line: 2, qty_received: 100, lot: 'L-OLD', expiry: '2027-03-31' },
  ] });
  return company;
}

describe('stock issued to a cost center', () => {
  it('takes the first-expiring lot first, at each lot\'s cost: Dr the item\'s expense account, Cr inventory', () => {
    const { api, tokens } = stocked();
    const res = call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'SEAL-1', warehouse: 'WH1', qty: 150, destination: { type: 'cost_center', ref: 'MAINT' }, department: 'OPS' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'ISS-000001', qty: 150, value: 1850, account: '5000', destination_type: 'cost_center', destination_ref: 'MAINT' });
    expect(res.body.transactions.map((t: any) => [t.type, t.lot, t.qty, t.value, t.unit_cost])).toEqual([['issue', 'L-OLD', -100, -1200, 12], ['issue', 'L-NEW', -50, -650, 13]]);
    expect(gl(api, 'ISS-000001')).toEqual([['5000', 185000, 0, 'OPS'], ['1300', 0, 185000, null]]);
    expect(onHand(api, tokens.ava).items).toEqual([{ item: 'SEAL-1', warehouse: 'WH1', location: 'A1', lot: 'L-NEW', expiry: '2027-12-31', qty: 50, value: 650, unit: 'ea' }]);
  });

  it('takes a named lot to a production order, charged to the account given', () => {
    const { api, tokens } = stocked();
    const res = call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'SEAL-1', warehouse: 'WH1', lot: 'L-NEW', qty: 10, account: '6500', destination: { type: 'production', ref: 'WO-7' } });
    expect(res.body.transactions.map((t: any) => t.lot)).toEqual(['L-NEW']);
    expect(gl(api, 'ISS-000001')).toEqual([['6500', 13000, 0, null], ['1300', 0, 13000, null]]);
  });

  it('is refused beyond what is on hand, for a non-stock item, an unknown place or department, and in a closed period', () => {
    const { api, tokens } = stocked();
    const issue = (body: object) => call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'SEAL-1', warehouse: 'WH1', qty: 1, destination: { type: 'cost_center', ref: 'OPS' }, ...body });
    expect(issue({ qty: 201 }).body.detail).toBe('Only 200 of SEAL-1 is on hand at WH1; 201 was asked for.');
    expect(issue({ item: 'CAL-SVC' }).status).toBe(422);
    expect([issue({ warehouse: 'WH9' }).body.code, issue({ location: 'Z1' }).body.code, issue({ department: 'XX' }).body.code]).toEqual(['not_found', 'not_found', 'not_found']);
    expect(issue({ date: '2026-09-30' }).body.code).toBe('period_closed');
    expect(issue({ date: '2026-10-06' }).status).toBe(422);
    expect(call(api, tokens.sam, 'POST', '/inventory/issues', { item: 'SEAL-1', warehouse: 'WH1', qty: 1, destination: { type: 'cost_center', ref: 'OPS' } }).body.code).toBe('forbidden');
  });
});

describe('an inventory adjustment', () => {
  it('writes stock off against the adjustment account with its reason', () => {
    const { api, tokens } = stocked();
    const res = call(api, tokens.rita, 'POST', '/inventory/adjustments', { item: 'SEAL-1', warehouse: 'WH1', lot: 'L-OLD', qty: -4, reason: 'damaged', account: '5200' });
    expect(res.body).toMatchObject({ id: 'ADJ-000001', qty: -4, value: -48, reason: 'damaged', account: '5200' });
    expect(gl(api, 'ADJ-000001')).toEqual([['1300', 0, 4800, null], ['5200', 4800, 0, null]]);
    expect(api.read.inventory.onHand('SEAL-1')).toBe(196);
  });

  it('adds found stock at the place\'s average cost, or the standard cost where there is none', () => {
    const { api, tokens } = stocked();
    call(api, tokens.rita, 'POST', '/inventory/adjustments', { item: 'SEAL-1', warehouse: 'WH1', lot: 'L-NEW', qty: 2, reason: 'count' });
    expect(gl(api, 'ADJ-000001')).toEqual([['1300', 2600, 0, null], ['5000', 0, 2600, null]]);
    call(api, tokens.rita, 'POST', '/inventory/adjustments', { item: 'VALVE-2', warehouse: 'WH2', qty: 3, reason: 'count' });
    expect(gl(api, 'ADJ-000002')).toEqual([['1300', 12000, 0, null], ['5000', 0, 12000, null]]);
    call(api, tokens.rita, 'POST', '/inventory/adjustments', { item: 'SEAL-1', warehouse: 'WH2', lot: 'L-X', expiry: '2027-01-01', qty: 1, unit_cost: '9.99', reason: 'count' });
    expect(api.read.inventory.stock({ warehouse: 'WH2', item: 'SEAL-1' })).toEqual([{ item: 'SEAL-1', warehouse: 'WH2', location: 'R1', lot: 'L-X', expiry: '2027-01-01', qty: 1, value: 999 }]);
  });

  it('is refused for zero, for a lot-controlled item without its lot, and beyond what is on hand', () => {
    const { api, tokens } = stocked();
    const adjust = (body: object) => call(api, tokens.rita, 'POST', '/inventory/adjustments', { item: 'SEAL-1', warehouse: 'WH1', reason: 'count', ...body });
    expect([adjust({ qty: 0 }).status, adjust({ qty: 5 }).status]).toEqual([422, 422]);
    expect(adjust({ qty: -500 }).body.code).toBe('invalid_state');
  });
});

describe('a stock transfer', () => {
  it('moves quantity and value between warehouses without posting', () => {
    const { api, tokens } = stocked();
    const res = call(api, tokens.rita, 'POST', '/inventory/transfers', { item: 'SEAL-1', from_warehouse: 'WH1', lot: 'L-NEW', to_warehouse: 'WH2', qty: 30, reason: 'rebalance' });
    expect(res.body).toMatchObject({ id: 'TRF-000001', to_location: 'R1', qty: 30 });
    expect(res.body.transactions.map((t: any) => [t.type, t.warehouse, t.location, t.qty, t.value])).toEqual([['transfer_out', 'WH1', 'A1', -30, -390], ['transfer_in', 'WH2', 'R1', 30, 390]]);
    expect(api.read.ledger.glLinesOf('TRF-000001')).toEqual([]);
    expect(onHand(api, tokens.ava, { warehouse: 'WH2' })).toMatchObject({ items: [{ lot: 'L-NEW', qty: 30, value: 390 }], total_value: 390 });
    expect(api.read.inventory.valueAsOf('2026-10-05')).toBe(250000);
  });

  it('moves stock between locations of one warehouse, and is refused when it would not move', () => {
    const { api, tokens } = stocked();
    expect(call(api, tokens.rita, 'POST', '/inventory/transfers', { item: 'SEAL-1', from_warehouse: 'WH1', to_location: 'B1', qty: 200 }).status).toBe(201);
    expect(api.read.inventory.stock({ item: 'SEAL-1' }).map((r) => [r.location, r.lot, r.qty])).toEqual([['B1', 'L-NEW', 100], ['B1', 'L-OLD', 100]]);
    expect(call(api, tokens.rita, 'POST', '/inventory/transfers', { item: 'SEAL-1', from_warehouse: 'WH1', to_location: 'B1', qty: 1 }).status).toBe(422);
    expect(call(api, tokens.rita, 'POST', '/inventory/transfers', { item: 'SEAL-1', from_warehouse: 'WH1', to_location: 'ZZ', qty: 1 }).body.code).toBe('not_found');
  });
});

describe('inventory transactions', () => {
  it('are listed by item, type and document, in the order they happened', () => {
    const { api, tokens } = stocked();
    call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'SEAL-1', warehouse: 'WH1', qty: 1, destination: { type: 'cost_center', ref: 'OPS' } });
    const list = (query: Record<string, unknown>) => call(api, tokens.ava, 'GET', '/inventory/transactions', undefined, { query }).body;
    expect(list({ item: 'SEAL-1' }).items.map((t: any) => [t.type, t.qty])).toEqual([['receipt', 100], ['receipt', 100], ['issue', -1]]);
    expect(list({ type: 'issue' }).items.map((t: any) => t.document_id)).toEqual(['ISS-000001']);
    expect(list({ document_id: 'RCV-000001' }).total).toBe(2);
    expect(call(api, tokens.ava, 'GET', '/inventory/issues/ISS-000001').body.transactions).toHaveLength(1);
    expect(call(api, tokens.ava, 'GET', '/inventory/issues', undefined, { query: { item: 'SEAL-1' } }).body.items.map((i: any) => [i.id, i.value])).toEqual([['ISS-000001', 12]]);
    expect(call(api, tokens.ava, 'GET', '/inventory/adjustments/ADJ-000404').status).toBe(404);
  });
});
