import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { appendGiven, openTestErp, type GivenEvent } from '../support/erp';
import { seedSales } from '../support/sales-fixture';

const refs = { party_type: 'customer' as const, party_id: 'C-1', document_id: 'ARINV-000001' };
const jl = (account: string, debit: number, credit: number) => ({ account, debit, credit, ...refs });
const arMove = (amount: number, kind = 'invoice', invoice: string | null = 'ARINV-000001') => ({ customer: 'C-1', invoice, kind, amount, document_type: 'ar_invoice', document_id: 'ARINV-000001' });
const entered: GivenEvent = {
  type: 'SalesOrderEntered', allocated: { SO: 1 },
  data: {
    id: 'SO-000001', customer: 'C-1', ship_to: 'ST1', ship_to_region: 'midwest', customer_po: 'PO-9', source_message: null, quote: null, order_date: '2026-10-05',
    requested_date: '2026-10-05', freight_terms: 'prepaid', tax_code: null, tax_rate_bp: 0, total: 15000, note: '', holds: [],
    lines: [{ line: 1, item: 'VALVE-1', description: 'Ball valve 1in', unit: 'ea', qty: 20, unit_price: 7500, granted_price: 7500, price_source: { type: 'price_list', id: 'STD' }, amount: 150000, requested_date: '2026-10-05' }],
    credit_check: { credit_limit: 1000000, open_ar: 0, open_orders: 0, order_total: 150000, exposure: 150000, customer_on_hold: false, result: 'ok' },
  },
};
const billed = (arAmount = 150000): GivenEvent => ({
  type: 'ArInvoiceBilled', allocated: { ARINV: 1 },
  data: {
    id: 'ARINV-000001', customer: 'C-1', kind: 'shipment', sales_order: 'SO-000001', shipment: null, customer_po: 'PO-9', ship_to: 'ST1', invoice_date: '2026-10-05', gl_date: '2026-10-05',
    terms: 'NET30', due_date: '2026-11-04', discount_date: null, discount_amount: 0, subtotal: 150000, tax_code: null, tax_rate_bp: 0, tax: 0, freight: 0, total: 150000, note: '',
    lines: [{ line: 1, so_line: 1, item: 'VALVE-1', description: 'Ball valve 1in', qty: 20, unit_price: 7500, amount: 150000, account: '4000', cost: 80000 }],
    journal: { date: '2026-10-05', memo: 'AR invoice', lines: [jl('1200', 150000, 0), jl('4000', 0, 150000)] },
    ar: [arMove(arAmount)],
  },
});

function given() {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-ar-proj-')), 'ar.db');
  const { erp, api } = openTestErp(file);
  seedSales(api);
  return { erp, api, file };
}
const rows = (erp: ReturnType<typeof given>['erp'], sql: string) => erp.db.prepare(sql).all();

describe('an order entered and billed, as events', () => {
  it('is an order whose invoiced lines close it, an open invoice with its cost, and one AR movement', () => {
    const { erp, api } = given();
    appendGiven(erp, [entered, billed()]);
    expect(rows(erp, `SELECT id, status, open_value, qty_ordered, qty_invoiced FROM sales_orders`)).toEqual([{ id: 'SO-000001', status: 'invoiced', open_value: 0, qty_ordered: 20, qty_invoiced: 20 }]);
    expect(rows(erp, 'SELECT id, status, open_amount, cost, period FROM ar_invoices')).toEqual([{ id: 'ARINV-000001', status: 'open', open_amount: 150000, cost: 80000, period: '2026-10' }]);
    expect(rows(erp, 'SELECT customer, invoice, kind, amount, source_type FROM ar_transactions')).toEqual([{ customer: 'C-1', invoice: 'ARINV-000001', kind: 'invoice', amount: 150000, source_type: 'ArInvoiceBilled' }]);
    expect(api.read.receivables.customerBalance('C-1')).toBe(150000);
    expect(api.read.sales.openOrderValue('C-1')).toBe(0);
  });

  it('refuses, writing nothing, an event whose AR movements differ from what its journal posts to AR', () => {
    const { erp } = given();
    appendGiven(erp, [entered]);
    const before = (erp.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
    expect(() => appendGiven(erp, [billed(149999)])).toThrow('ArInvoiceBilled: its AR movements (149999) differ from what its journal posts to AR (150000).');
    expect((erp.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n).toBe(before);
    expect(rows(erp, 'SELECT id FROM ar_invoices')).toEqual([]);
  });

  it('is rebuilt by replay from the events alone', () => {
    const { erp, file } = given();
    appendGiven(erp, [entered, billed()]);
    expect(checkReplay(file, erp.db, createAppRegistry()).differingTables).toEqual([]);
  });
});
