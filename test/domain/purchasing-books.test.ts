import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { advanceTo, ok } from '../support/books-fixture';
import { call, openTestErp } from '../support/erp';
import { approvedRequisition, DIRECT_PO, purchaseOrder, seedPurchasing } from '../support/purchasing-fixture';

const report = (api: any, token: string, id: string, query: Record<string, unknown> = {}) => call(api, token, 'GET', `/reports/${id}`, undefined, { query }).body;

/** Requisitions, POs, receipts, a reversal, issues, an adjustment and a transfer, with refusals among them. */
function mixedStream(file = ':memory:') {
  const { erp, api } = openTestErp(file);
  const tokens = seedPurchasing(api);
  approvedRequisition(api, tokens, { need_by: '2026-10-30', lines: [{ item: 'CAL-SVC', qty: 2, unit_price: 350 }, { item: 'SEAL-1', qty: 100, unit_price: 12 }] });
  purchaseOrder(api, tokens, { vendor: 'V-0142', ship_to: 'WH1', lines: [{ requisition_lines: [{ requisition: 'REQ-000001', line: 1 }] }, { requisition_lines: [{ requisition: 'REQ-000001', line: 2 }], unit_price: '11.95' }] });
  purchaseOrder(api, tokens, DIRECT_PO);
  purchaseOrder(api, tokens, DIRECT_PO, 'approved');
  call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000003', lines: [{ po_line: 1, qty_received: 1 }] });
  ok(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000001', lines: [{ po_line: 1, qty_received: 1 }, { po_line: 2, qty_received: 100, lot: 'A', expiry: '2027-06-30' }] }), 'rcv1');
  ok(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000002', lines: [{ po_line: 1, qty_received: 50 }, { po_line: 2, qty_received: 70, lot: 'B', expiry: '2027-01-31', location: 'B1' }] }), 'rcv2');
  ok(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000002', lines: [{ po_line: 2, qty_received: 3, lot: 'C', expiry: '2027-02-28' }] }), 'rcv3');
  advanceTo(api, '2026-10-07');
  ok(call(api, tokens.rita, 'POST', '/receipts/RCV-000003/reverse', { reason: 'wrong_lot' }), 'reverse');
  ok(call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'SEAL-1', warehouse: 'WH1', qty: 101, destination: { type: 'production', ref: 'WO-1' } }), 'issue');
  ok(call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'VALVE-2', warehouse: 'WH1', qty: 7, department: 'OPS', account: '6500', destination: { type: 'cost_center', ref: 'OPS' } }), 'issue');
  ok(call(api, tokens.rita, 'POST', '/inventory/adjustments', { item: 'VALVE-2', warehouse: 'WH1', qty: -1, reason: 'damaged', account: '5200' }), 'adjust');
  ok(call(api, tokens.rita, 'POST', '/inventory/transfers', { item: 'SEAL-1', from_warehouse: 'WH1', to_warehouse: 'WH2', qty: 20 }), 'transfer');
  call(api, tokens.rita, 'POST', '/inventory/issues', { item: 'SEAL-1', warehouse: 'WH1', qty: 9999, destination: { type: 'production', ref: 'WO-1' } });
  return { erp, api, tokens };
}

describe('books after receipts, a reversal, issues, an adjustment and a transfer', () => {
  it('balance, and the inventory account ties to the value of the stock movements', () => {
    const { api, tokens } = mixedStream();
    expect(report(api, tokens.grace, 'trial-balance').balanced).toBe(true);
    const ties = report(api, tokens.grace, 'control-ties');
    const inventory = ties.rows.find((r: any) => r.account === '1300');
    expect(inventory).toEqual({ account: '1300', name: 'Inventory', subledger: 'inventory', gl_balance: 2504.55, subledger_balance: 2504.55, difference: 0, tied: true });
    expect(api.read.inventory.stock({}).reduce((s, r) => s + r.value, 0)).toBe(250455);
    expect(ties.rows.find((r: any) => r.account === '2100')).toMatchObject({ gl_balance: 4385, subledger_balance: 4385, difference: 0 });
  });

  it('replay to read models equal to the live ones', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-purchasing-')), 'live.db');
    const { erp } = mixedStream(file);
    const check = checkReplay(file, erp.db, createAppRegistry());
    expect(check.differingTables).toEqual([]);
    expect(check.equal).toBe(true);
  });
});

describe('a receipt dated in a month that has been closed', () => {
  it('is refused with period_closed', () => {
    const { api, tokens } = mixedStream();
    advanceTo(api, '2026-11-02');
    ok(call(api, tokens.grace, 'POST', '/periods/2026-10/close', {}), 'close');
    const res = call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000002', date: '2026-10-30', lines: [{ po_line: 1, qty_received: 1 }] });
    expect([res.status, res.body.code]).toEqual([409, 'period_closed']);
    expect(call(api, tokens.rita, 'POST', '/receipts/RCV-000002/reverse', { reason: 'late', date: '2026-10-31' }).body.code).toBe('period_closed');
    expect(call(api, tokens.rita, 'POST', '/receipts', { po: 'PO-000002', lines: [{ po_line: 1, qty_received: 1 }] }).status).toBe(201);
  });
});

describe('budget against actual with open purchasing', () => {
  it('counts approved requisition lines and unreceived PO value as commitments, and states the rule', () => {
    const { api, tokens } = mixedStream();
    ok(call(api, tokens.grace, 'POST', '/budgets', { department: 'OPS', lines: [{ account: '6500', month: '2026-10', amount: 1000 }] }), 'budget');
    approvedRequisition(api, tokens, { need_by: '2026-10-30', lines: [{ description: 'Pump rebuild', qty: 1, unit_price: 400, account: '6500' }] });
    const res = report(api, tokens.grace, 'budget-vs-actual', { department: 'OPS', from: '2026-10', to: '2026-10' });
    // Actual: one calibration received (350) and 7 valves issued to OPS (280). Committed: the
    // second calibration still open on PO-000001 (350) and the new requisition (400).
    expect(res.rows.find((r: any) => r.account === '6500')).toMatchObject({ budget: 1000, actual: 630, commitments: 750, available: -380, over_budget: true });
    expect(res.commitment_rules).toHaveLength(1);
    expect(res.commitment_rules[0]).toMatch(/^Open commitments are approved requisition lines not yet on a purchase order/);
  });
});
