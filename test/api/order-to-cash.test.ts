import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/api/server';
import { ErpClient } from '../../src/client/http-client';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import '../../src/sim/behaviours/sales';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld } from '../../src/sim/world';
import { testWallClock } from '../support/erp';
import { seedSales, stock, type SalesTokens } from '../support/sales-fixture';

const CONTROL = 'control-secret';

/**
 * One order-to-cash cycle over HTTP, with the counterparties between the steps: Valley Supply
 * (C-2, 2/10NET30, a contract price) emails an order; order entry enters, releases and allocates
 * it; the warehouse ships it overnight; billing bills it; the customer pays within the discount
 * window; the bank shows the deposit; the AR clerk records and applies the payment from its
 * remittance advice.
 */
describe('an order emailed by a customer, entered, shipped by the warehouse, billed, paid by the customer and applied', () => {
  let server: RunningServer;
  let t: SalesTokens;
  let file: string;
  const as = (token: string) => new ErpClient({ baseUrl: server.url, token, timeoutMs: 10_000 });
  const control = () => new ErpClient({ baseUrl: server.controlUrl, token: CONTROL, timeoutMs: 30_000 });

  beforeAll(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'bb-erp-o2c-')), 'erp.db');
    const world = emptyWorld('o2c', 0);
    world.actors = {
      customers: {
        as: 'customer.desk', sales_address: 'sales@northgate.example', ar_address: 'ar@northgate.example', bank_account: 'BANK-OP',
        orders: [{ date: '2026-10-06', customer: 'C-2', customer_po: 'VS-4410', ship_to: 'ST1', lines: [{ item: 'VALVE-1', qty: 40, requested_days: 5 }] }],
        payments: { 'C-2': { behaviour: 'on_time', takes_discount: true, first_check: 5001 } },
      },
      bank: { customer_receipts: { as: 'first.bank' } },
      warehouse: { shipping: { as: 'luis.romero', auto_ship: true, carrier: 'Buckeye Freight', freight: { base_cents: 2500, per_unit_cents: 10 } } },
    };
    const credentials: Record<string, string> = {};
    const onDay = (date: string, api: Parameters<ReturnType<typeof createSimulator>>[1]) => createSimulator(world, credentials)(date, api);
    server = await startServer({ dbFile: file, controlToken: CONTROL, wallClock: testWallClock, onDay });
    t = seedSales(server.api);
    for (const box of ['sales', 'ar']) server.api.handle({ method: 'POST', path: '/message-boxes', body: { box, address: `${box}@northgate.example`, name: box }, asSystem: true });
    server.api.handle({ method: 'POST', path: '/roles', body: { id: 'mail', name: 'mail', permissions: ['messages.read_sales', 'messages.read_ar'] }, asSystem: true });
    for (const [user, roles] of [['ben.foster', ['order_desk', 'mail']], ['lena.park', ['staff_accountant', 'ar_desk', 'mail']]] as const) server.api.handle({ method: 'POST', path: `/users/${user}/roles`, body: { roles }, asSystem: true });
    Object.assign(credentials, { 'customer.desk': t.cust, 'first.bank': t.bank, 'luis.romero': t.luis });
    world.users = Object.keys(credentials).sort();
    stock(server.api, t, 'VALVE-1', 'WH1', 100, '40.00');
  });
  afterAll(async () => { await server.close(); });

  it('leaves the invoice paid with its discount, the deposit matched, the books balanced, AR tied and replay equal', async () => {
    const advanced = await control().post('/control/advance', { to: '2026-10-06' });
    expect({ status: advanced.status, detail: advanced.body.detail }).toEqual({ status: 200, detail: undefined });
    const ben = as(t.ben);
    const mail = (await ben.get('/inbox', { box: 'sales' })).body;
    expect(mail.items).toHaveLength(1);
    const doc = JSON.parse((await ben.get(`/messages/${mail.items[0].id}/attachments/1`)).body.content);
    expect(doc).toMatchObject({ kind: 'purchase_order', customer: 'C-2', customer_po: 'VS-4410', lines: [{ item: 'VALVE-1', qty: 40 }] });
    const so = (await ben.post('/sales-orders', { customer: 'C-2', ship_to: 'ST1', customer_po: doc.customer_po, source_message: mail.items[0].id, lines: doc.lines.map((l: any) => ({ item: l.item, qty: l.qty })) }, 'so-1')).body;
    expect(so).toMatchObject({ status: 'entered', total: 2600, lines: [{ unit_price: 65, price_source: { type: 'contract' } }] });
    expect((await ben.post(`/sales-orders/${so.id}/release`, {}, 'rel-1')).body.status).toBe('released');
    expect((await ben.post(`/sales-orders/${so.id}/allocate`, {}, 'alloc-1')).body.status).toBe('allocated');

    await control().post('/control/advance', { to: '2026-10-07' });
    const shipped = (await as(t.lena).get('/shipments', { sales_order: so.id })).body.items;
    expect(shipped).toMatchObject([{ status: 'shipped', warehouse: 'WH1', freight_charge: 29 }]);
    const invoice = (await as(t.lena).post(`/shipments/${shipped[0].id}/invoice`, {}, 'bill-1')).body;
    expect(invoice).toMatchObject({ total: 2600, freight: 0, tax: 0, discount_date: '2026-10-17', discount_amount: 52 });

    await control().post('/control/advance', { to: '2026-10-19' });
    const lena = as(t.lena);
    const lines = (await lena.get('/bank-statement-lines', { kind: 'deposit', status: 'unmatched' })).body.items;
    expect(lines).toMatchObject([{ amount: 2548, reference: 'CHK 5001' }]);
    const advice = (await lena.get('/inbox', { box: 'ar' })).body.items[0];
    const remittance = JSON.parse((await lena.get(`/messages/${advice.id}/attachments/1`)).body.content);
    expect(remittance).toMatchObject({ kind: 'remittance', reference: 'CHK 5001', lines: [{ reference: invoice.id, amount: 2548, discount: 52 }] });
    const receipt = (await lena.post('/cash-receipts', {
      customer: 'C-2', bank_account: 'BANK-OP', amount: lines[0].amount, reference: lines[0].reference, statement_line: lines[0].id, source_message: advice.id,
      applications: remittance.lines.map((l: any) => ({ invoice: l.reference, amount: l.amount, discount: l.discount })),
    }, 'cr-1')).body;
    expect(receipt).toMatchObject({ status: 'applied', amount: 2548 });

    expect((await lena.get(`/ar-invoices/${invoice.id}`)).body).toMatchObject({ status: 'paid', open_amount: 0, discount_taken: 52 });
    expect((await lena.get(`/sales-orders/${so.id}`)).body.status).toBe('invoiced');
    const ties = (await as(t.grace).get('/reports/control-ties')).body;
    expect(ties).toMatchObject({ tied: true, unchecked: [] });
    const tb = (await as(t.grace).get('/reports/trial-balance')).body;
    expect(tb.totals.debit).toBe(tb.totals.credit);
    const check = checkReplay(file, server.erp.db, createAppRegistry());
    expect(check.differingTables).toEqual([]);
  });
});
