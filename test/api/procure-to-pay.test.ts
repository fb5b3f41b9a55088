import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advanceTo } from '../../src/api/control-app';
import type { Api } from '../../src/api/pipeline';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import '../../src/sim/behaviours/payables';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld } from '../../src/sim/world';
import { call, openTestErp, systemCall } from '../support/erp';
import { givenReceipt, givenSentPo, ok, seedPayables } from '../support/payables-fixture';


type Tokens = ReturnType<typeof seedPayables>;

/** Requisition → approval → PO → send → receipt through the purchasing area's routes. Returns the PO id. */
function purchaseThroughApi(api: Api, t: Tokens): { po: string } {
  systemCall(api, 'POST', '/roles', {
    id: 'buying', name: 'Buying', permissions: ['requisition.create', 'purchase_order.create', 'purchase_order.approve', 'purchase_order.send', 'receipt.post'],
  });
  systemCall(api, 'POST', '/users/sam.ortiz/roles', { roles: ['buyer', 'buying'] });
  systemCall(api, 'POST', '/departments/OPS/manager', { manager: 'maya.chen' });
  systemCall(api, 'POST', '/approval-limits', { subject_type: 'role', subject: 'buying', document_type: 'purchase_order', amount: 5000 });
  const req = ok(call(api, t.sam, 'POST', '/requisitions', {
    department: 'OPS', purpose: 'Pump seals for line 2', need_by: '2026-10-20',
    lines: [{ item: 'SEAL-1', description: 'Pump seal', qty: 10, unit: 'ea', unit_price: '12.00', account: '1300', suggested_vendor: 'V-0142' }],
  }), 'requisition');
  ok(call(api, t.sam, 'POST', `/requisitions/${req.id}/submit`, {}), 'submit');
  ok(call(api, t.maya, 'POST', `/requisitions/${req.id}/approve`, {}), 'approve');
  const po = ok(call(api, t.sam, 'POST', '/purchase-orders', { vendor: 'V-0142', ship_to: 'WH1', lines: [{ requisition_lines: [{ requisition: req.id, line: 1 }] }] }), 'po');
  ok(call(api, t.sam, 'POST', `/purchase-orders/${po.id}/approve`, {}), 'approve po');
  ok(call(api, t.sam, 'POST', `/purchase-orders/${po.id}/send`, {}), 'send');
  ok(call(api, t.sam, 'POST', '/receipts', { po: po.id, warehouse: 'WH1', packing_slip: 'PS-1', lines: [{ po_line: 1, qty_received: 10 }] }), 'receipt');
  return { po: po.id };
}

/** The same purchasing steps recorded as the purchasing area's events. */
function purchaseAsEvents(erp: ReturnType<typeof openTestErp>['erp']): { po: string } {
  givenSentPo(erp, 'PO-000001', [{ line: 1, item: 'SEAL-1', qty: 10, unit_price: 1200, account: '1300' }]);
  givenReceipt(erp, 'RCV-000001', 'PO-000001', [{ po_line: 1, item: 'SEAL-1', qty: 10, unit_price: 1200, account: '1300', stock: true }]);
  return { po: 'PO-000001' };
}

function cycle(purchase: 'api' | 'events') {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-p2p-')), 'p2p.db');
  const { erp, api } = openTestErp(file);
  const t = seedPayables(api);
  const { po } = purchase === 'api' ? purchaseThroughApi(api, t) : purchaseAsEvents(erp);
  const world = emptyWorld('p2p', 0);
  const credentials = { 'grace.lin': t.grace, 'first.bank': t.bank };
  world.users = Object.keys(credentials);
  world.actors = { approvers: { payment_runs: { as: 'grace.lin', release: true } }, bank: { payments: { as: 'first.bank' } } };
  const sim = createSimulator(world, credentials);

  const invoice = ok(call(api, t.omar, 'POST', '/ap-invoices', {
    vendor: 'V-0142', po, vendor_invoice_number: 'MS-1001', invoice_date: '2026-10-05', lines: [{ po_line: 1, qty: 10, unit_price: '12.00', amount: '120.00' }], total: '120.00',
  }), 'invoice').id as string;
  expect(ok(call(api, t.omar, 'POST', `/ap-invoices/${invoice}/validate`, {}), 'validate').match_result).toBe('matched');
  ok(call(api, t.hannah, 'POST', `/ap-invoices/${invoice}/approve`, {}), 'approve invoice');
  const run = ok(call(api, t.omar, 'POST', '/payment-runs', { payment_date: '2026-10-06', bank_account: 'BANK-OP', items: [{ invoice }] }, { idempotencyKey: 'run-1' }), 'run').id as string;
  ok(call(api, t.omar, 'POST', `/payment-runs/${run}/submit`, {}), 'submit');
  expect(call(api, t.omar, 'POST', `/payment-runs/${run}/approve`, {}).body.code).toBe('forbidden');
  advanceTo(api, '2026-10-07', sim);
  return { erp, api, t, file, invoice, run };
}

describe.each([
  ['a PO sent and received, recorded as the purchasing area\'s events', 'events' as const],
  ['a requisition approved, converted to a PO, sent and received through the purchasing routes', 'api' as const],
])('%s, then invoiced, approved, paid in a run another user approves, and cleared by the bank', (_how, purchase) => {
  it('leaves the invoice paid, the payment cleared, the books balanced, every control account tied, and replay equal', () => {
    const { erp, api, t, file, invoice, run } = cycle(purchase);
    expect(api.read.payments.run(run)).toMatchObject({ status: 'released', approved_by: 'grace.lin', released_date: '2026-10-06' });
    const [payment] = api.read.payments.paymentsOfInvoice(invoice);
    expect(payment).toMatchObject({ status: 'cleared', vendor_bank_account: 'BA-000001', allocated: 12000, cleared_date: '2026-10-07' });
    expect(api.read.payables.invoice(invoice)).toMatchObject({ status: 'paid', open_amount: 0 });

    const tb = call(api, t.grace, 'GET', '/reports/trial-balance').body;
    expect(tb.totals.debit).toBe(tb.totals.credit);
    const ties = call(api, t.grace, 'GET', '/reports/control-ties').body;
    expect(ties.unchecked).toEqual([]);
    expect(ties.rows.map((r: any) => [r.account, r.difference])).toEqual([['1000', 0], ['1010', 0], ['1200', 0], ['1300', 0], ['2000', 0], ['2100', 0]]);
    expect(ties.rows.find((r: any) => r.account === '1300').gl_balance).toBe(120);
    expect(ties.rows.find((r: any) => r.account === '1000').gl_balance).toBe(-120);
    expect(api.read.inventory.onHand('SEAL-1')).toBe(10);

    const check = checkReplay(file, erp.db, createAppRegistry());
    expect(check.differingTables).toEqual([]);
    expect(check.equal).toBe(true);
  });
});
