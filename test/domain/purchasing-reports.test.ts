import { advanceTo, ok } from '../support/books-fixture';
import { call } from '../support/erp';
import { DIRECT_PO, purchaseOrder, purchasingCompany } from '../support/purchasing-fixture';

const report = (api: any, token: string, id: string, query: Record<string, unknown> = {}) => call(api, token, 'GET', `/reports/${id}`, undefined, { query }).body;

/** PO-000001 sent with 20 of 50 valves received and the seals not yet; PO-000002 still a draft. */
function company() {
  const c = purchasingCompany();
  purchaseOrder(c.api, c.tokens);
  purchaseOrder(c.api, c.tokens, DIRECT_PO, 'draft');
  ok(call(c.api, c.tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 20 }] }), 'receipt');
  return c;
}

describe('the open-purchase-orders report', () => {
  it('lists each line still expecting goods with its open quantity and value, and how late it is', () => {
    const { api, tokens } = company();
    call(api, tokens.vendor, 'POST', '/purchase-orders/PO-000001/acknowledgements', { lines: [{ line: 2, confirmed_date: '2026-10-23' }] });
    advanceTo(api, '2026-10-22');
    const res = report(api, tokens.ava, 'open-purchase-orders');
    expect(res.rows).toEqual([
      {
        po: 'PO-000001', status: 'partially_received', vendor: 'V-0142', vendor_name: 'Mid-State Brass Supply', buyer: 'sam.ortiz', ship_to: 'WH1', line: 1,
        item: 'VALVE-2', description: 'Ball valve 2in', unit: 'ea', ordered: 50, received: 20, open_qty: 30, unit_price: 40, open_value: 1200,
        need_by: '2026-10-20', confirmed_date: null, days_late: 2,
      },
      expect.objectContaining({ line: 2, item: 'SEAL-1', open_qty: 200, open_value: 2400, need_by: '2026-10-22', confirmed_date: '2026-10-23', days_late: 0 }),
    ]);
    expect(res.totals).toEqual({ lines: 2, open_value: 3600 });
    expect(report(api, tokens.ava, 'open-purchase-orders', { item: 'SEAL-1' }).rows).toHaveLength(1);
    expect(report(api, tokens.ava, 'open-purchase-orders', { vendor: 'V-0200' }).rows).toEqual([]);
  });
});

describe('the on-hand report', () => {
  it('shows stock per place with its value and unit cost, as of a date', () => {
    const { api, tokens } = company();
    advanceTo(api, '2026-10-06');
    ok(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 2, qty_received: 10, lot: 'L9', expiry: '2027-05-01' }] }), 'receipt');
    const res = report(api, tokens.ava, 'on-hand');
    expect(res.rows).toEqual([
      { item: 'SEAL-1', description: 'Pump seal', unit: 'ea', warehouse: 'WH1', location: 'A1', lot: 'L9', expiry: '2027-05-01', qty: 10, value: 120, unit_cost: 12 },
      { item: 'VALVE-2', description: 'Ball valve 2in', unit: 'ea', warehouse: 'WH1', location: 'A1', lot: null, expiry: null, qty: 20, value: 800, unit_cost: 40 },
    ]);
    expect(res.totals).toEqual({ rows: 2, value: 920 });
    expect(report(api, tokens.ava, 'on-hand', { as_of: '2026-10-05' }).rows.map((r: any) => r.item)).toEqual(['VALVE-2']);
  });
});

describe('the item-usage report', () => {
  it('sums issues per item and month, averaging over every month of the range', () => {
    const { api, tokens } = company();
    const issue = (qty: number) => ok(call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'VALVE-2', warehouse: 'WH1', qty, destination: { type: 'production', ref: 'WO-1' } }), 'issue');
    issue(4);
    issue(2);
    advanceTo(api, '2026-11-03');
    issue(3);
    const res = report(api, tokens.ava, 'item-usage', { from: '2026-09', to: '2026-11' });
    expect(res).toMatchObject({ from: '2026-09', to: '2026-11', months: 3 });
    expect(res.rows).toEqual([{
      item: 'VALVE-2', description: 'Ball valve 2in', unit: 'ea',
      months: [{ month: '2026-09', qty: 0, value: 0 }, { month: '2026-10', qty: 6, value: 240 }, { month: '2026-11', qty: 3, value: 120 }],
      total_qty: 9, total_value: 360, average_monthly_qty: 3, average_monthly_value: 120,
    }]);
    expect(report(api, tokens.ava, 'item-usage').from).toBe('2025-12');
  });
});
