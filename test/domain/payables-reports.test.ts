import { agingBucket } from '../../src/domain/reports/ap-aging';
import { call, openTestErp, systemCall } from '../support/erp';
import { advanceTo } from '../support/books-fixture';
import { givenReceivedSeals, ok, sealsInvoice, seedPayables } from '../support/payables-fixture';

function books() {
  const { erp, api } = openTestErp();
  const t = seedPayables(api);
  givenReceivedSeals(erp);
  systemCall(api, 'POST', '/vendors', { id: 'V-0300', name: 'Allied Rent', terms: 'NET30', tin: '2', email: 'ar@allied.example', phone: '2', address: 'y' });
  return { erp, api, t };
}
type C = ReturnType<typeof books>;

function postedNonPo(c: C, vendor: string, number: string, invoiceDate: string, total: number) {
  const inv = ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', { vendor, vendor_invoice_number: number, invoice_date: invoiceDate, lines: [{ qty: 1, unit_price: total, amount: total, account: '6100', department: 'OPS' }], total }), number);
  ok(call(c.api, c.t.omar, 'POST', `/ap-invoices/${inv.id}/validate`, {}), number);
  return inv.id as string;
}

describe('days past due', () => {
  it('fall in current, 1-30, 31-60, 61-90 and over 90', () => {
    expect([-5, 0, 1, 30, 31, 60, 61, 90, 91].map(agingBucket)).toEqual(['current', 'current', '1_30', '1_30', '31_60', '31_60', '61_90', '61_90', 'over_90']);
  });
});

describe('open AP of two vendors, one with credit on account', () => {
  function aged() {
    const c = books();
    postedNonPo(c, 'V-0142', 'A-1', '2026-06-01', 100);
    postedNonPo(c, 'V-0142', 'A-2', '2026-07-01', 200);
    postedNonPo(c, 'V-0142', 'A-3', '2026-08-01', 300);
    postedNonPo(c, 'V-0142', 'A-4', '2026-09-01', 400);
    postedNonPo(c, 'V-0300', 'R-10', '2026-10-01', 2000);
    ok(call(c.api, c.t.omar, 'POST', '/vendor-credits', { vendor: 'V-0142', vendor_reference: 'CM-1', amount: 50 }), 'credit');
    return c;
  }

  it('ages each invoice by days past due, per vendor, with totals equal to the AP subledger', () => {
    const c = aged();
    const res = call(c.api, c.t.grace, 'GET', '/reports/ap-aging', undefined, { query: { as_of: '2026-10-05' } });
    expect(res.status).toBe(200);
    const midState = res.body.vendors.find((v: any) => v.vendor === 'V-0142');
    expect(midState).toMatchObject({ current: 0, '1_30': 400, '31_60': 300, '61_90': 200, over_90: 100, credits_on_account: -50, total: 950 });
    expect(midState.invoices.map((i: any) => [i.vendor_invoice_number, i.bucket, i.days_past_due])).toEqual([
      ['A-1', 'over_90', 96], ['A-2', '61_90', 66], ['A-3', '31_60', 35], ['A-4', '1_30', 4],
    ]);
    expect(res.body.totals).toEqual({ current: 2000, '1_30': 400, '31_60': 300, '61_90': 200, over_90: 100, credits_on_account: -50, total: 2950 });
    expect(c.api.read.payables.apBalanceAsOf('2026-10-05')).toBe(295000);
  });

  it('shows what was open on an earlier date and one vendor when asked', () => {
    const c = aged();
    advanceTo(c.api, '2026-10-06');
    ok(call(c.api, c.t.hannah, 'POST', '/payments/external', { vendor: 'V-0300', bank_account: 'BANK-OP', amount: 2000, reference: 'WIRE R-10', invoices: ['APINV-000005'] }), 'wire');
    const today = call(c.api, c.t.grace, 'GET', '/reports/ap-aging', undefined, { query: { vendor: 'V-0300' } }).body;
    expect(today.vendors).toEqual([]);
    const before = call(c.api, c.t.grace, 'GET', '/reports/ap-aging', undefined, { query: { vendor: 'V-0300', as_of: '2026-10-05' } }).body;
    expect(before.vendors).toMatchObject([{ vendor: 'V-0300', current: 2000, total: 2000 }]);
    expect(call(c.api, c.t.grace, 'GET', '/reports/ap-aging', undefined, { query: { as_of: 'yesterday' } }).status).toBe(400);
  });
});

describe('receipts partly invoiced', () => {
  it('leave the rest in GRNI per PO line, equal to the GRNI subledger and the control account', () => {
    const c = books();
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices', sealsInvoice({ total: '72.00' }, { qty: 6, amount: '72.00' })), 'enter');
    ok(call(c.api, c.t.omar, 'POST', '/ap-invoices/APINV-000001/validate', {}), 'validate');
    const res = call(c.api, c.t.grace, 'GET', '/reports/grni').body;
    expect(res.rows).toEqual([{
      po: 'PO-000001', po_line: 1, vendor: 'V-0142', item: 'SEAL-1', description: 'SEAL-1', unit_price: 12,
      received_qty: 10, received_value: 120, matched_qty: 6, matched_value: 72, balance_qty: 4, balance_value: 48,
    }]);
    expect(res.total).toBe(48);
    const ties = call(c.api, c.t.grace, 'GET', '/reports/control-ties').body.rows.filter((r: any) => r.subledger === 'grni' || r.subledger === 'ap');
    expect(ties.map((r: any) => [r.subledger, r.gl_balance, r.subledger_balance, r.tied])).toEqual([['ap', 72, 72, true], ['grni', 48, 48, true]]);
  });
});
