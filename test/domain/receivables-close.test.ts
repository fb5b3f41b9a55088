import { advanceTo } from '../support/books-fixture';
import { call } from '../support/erp';
import { ok } from '../support/payables-fixture';
import { order, salesCompany, shipAndBill } from '../support/sales-fixture';

type C = ReturnType<typeof salesCompany>;
const cutoff = (c: C, period: string) => call(c.api, c.t.grace, 'GET', `/periods/${period}/close-checklist`).body.checks.find((k: any) => k.id === 'revenue_cutoff');
const ship = (c: C, qty: number) => {
  const so = order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty }] });
  const lines = c.api.read.sales.allocationsOf(so).filter((a) => a.qty > 0).map((a) => ({ so_line: a.line, qty: a.qty }));
  return ok(call(c.api, c.t.luis, 'POST', '/shipments', { sales_order: so, warehouse: 'WH1', lines }), 'ship').id as string;
};

describe("the close checklist's revenue cutoff", () => {
  it('passes when every shipment of the month is billed by an invoice posted in the month', () => {
    const c = salesCompany();
    shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-2', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 5 }] }));
    advanceTo(c.api, '2026-11-02');
    expect(cutoff(c, '2026-10')).toMatchObject({ blocking: false, ok: true, problems: [] });
  });

  it('names a shipment of the month still unbilled at the close, without blocking it', () => {
    const c = salesCompany();
    const shp = ship(c, 4);
    advanceTo(c.api, '2026-11-02');
    expect(cutoff(c, '2026-10')).toMatchObject({ ok: false, problems: [`${shp}, shipped on 2026-10-05, is not billed.`] });
    expect(call(c.api, c.t.grace, 'GET', '/periods/2026-10/close-checklist').body.ready).toBe(true);
  });

  it('names a shipment of the month billed by an invoice posted in the next month, and passes once it is billed in the month', () => {
    const c = salesCompany();
    const shp = ship(c, 3);
    advanceTo(c.api, '2026-11-02');
    const late = ok(call(c.api, c.t.lena, 'POST', `/shipments/${shp}/invoice`, { invoice_date: '2026-11-02' }), 'bill late');
    expect(cutoff(c, '2026-10').problems).toEqual([`${shp}, shipped on 2026-10-05, is billed on ${late.id} posted 2026-11-02, in 2026-11.`]);
    ok(call(c.api, c.t.lena, 'POST', `/ar-invoices/${late.id}/void`, { reason: 'wrong_period' }), 'void');
    ok(call(c.api, c.t.lena, 'POST', `/shipments/${shp}/invoice`, { invoice_date: '2026-10-31' }), 'bill in October');
    expect(cutoff(c, '2026-10')).toMatchObject({ ok: true, problems: [] });
  });
});

describe("cash-position's expected receipts", () => {
  it('count the open customer invoices falling due within the horizon, overdue ones included', () => {
    const c = salesCompany();
    const [, inv] = shipAndBill(c.api, c.t, order(c.api, c.t, { customer: 'C-1', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 2 }] }));
    const invoice = c.api.read.receivables.invoice(inv)!;
    const horizon = (days: number) => call(c.api, c.t.grace, 'GET', '/reports/cash-position', undefined, { query: { days } }).body.horizon;
    expect(invoice.due_date).toBe('2026-11-04');
    expect(horizon(29)).toMatchObject({ expected_receipts: 0, receipts_by_source: [] });
    expect(horizon(30)).toMatchObject({ expected_receipts: invoice.open_amount / 100, receipts_by_source: [{ source: 'receivables', amount: invoice.open_amount / 100 }] });
    advanceTo(c.api, '2026-11-10');
    expect(horizon(0).expected_receipts).toBe(invoice.open_amount / 100);
  });
});
