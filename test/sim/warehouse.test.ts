import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advanceTo } from '../../src/api/control-app';
import { canonicalHash } from '../../src/events/canonical-hash';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld } from '../../src/sim/world';
import { ok } from '../support/books-fixture';
import { call, openTestErp } from '../support/erp';
import { purchaseOrder, seedPurchasing, submittedRequisition, SEALS } from '../support/purchasing-fixture';
import { simulatedCompany } from '../support/sim-fixture';

const ORDER = { vendor: 'V-0142', ship_to: 'WH1', lines: [{ item: 'SEAL-1', qty: 100, unit_price: 12, need_by: '2026-10-12' }, { item: 'VALVE-2', qty: 10, unit_price: 40, need_by: '2026-10-12' }] };
const SHIPPING = { user: 'sim.vendors', vendors: { 'V-0142': { transit_days: 1, lead_time_days: 7, items: { 'SEAL-1': { substitute: 'SEAL-1X', over_ship_pct: 2 } } } } };

describe('a warehouse that receives by itself', () => {
  it('receives each delivery the day it arrives, as shipped, substitutes recorded as such', () => {
    const { api, tokens, advance } = simulatedCompany({ vendors: SHIPPING, warehouse: { clerk: 'rita.vance', auto_receive: true, locations: { WH1: 'B1' } } });
    purchaseOrder(api, tokens, ORDER);
    advance('2026-10-12');
    expect(api.read.receiving.receiptsOfPo('PO-000001')).toEqual([]);
    advance('2026-10-13');
    const [receipt] = api.read.receiving.receiptsOfPo('PO-000001');
    expect(receipt).toMatchObject({ id: 'RCV-000001', date: '2026-10-13', delivery: 'DLV-000001', created_by: 'rita.vance' });
    expect(api.read.receiving.receiptLines('RCV-000001').map((l) => [l.po_line, l.item, l.substitute_for, l.qty_received, l.location])).toEqual([
      [1, 'SEAL-1X', 'SEAL-1', 102, 'B1'], [2, 'VALVE-2', null, 10, 'B1'],
    ]);
    expect(api.read.purchasing.po('PO-000001')!.status).toBe('received');
  });

  it('leaves a delivery whose receipt was reversed to whoever reversed it, and does not receive it again', () => {
    const { api, tokens, advance } = simulatedCompany({ vendors: SHIPPING, warehouse: { clerk: 'rita.vance', auto_receive: true, locations: { WH1: 'B1' } } });
    purchaseOrder(api, tokens, ORDER);
    advance('2026-10-13');
    ok(call(api, tokens.rita, 'POST', '/receipts/RCV-000001/reverse', { reason: 'receiving_error' }), 'reverse');
    expect(api.read.receiving.delivery('DLV-000001')!.status).toBe('announced');
    advance('2026-10-15');
    expect(api.read.receiving.receiptsOfPo('PO-000001').map((r) => [r.id, r.status])).toEqual([['RCV-000001', 'reversed']]);
  });

  it('does not receive into a warehouse outside its list', () => {
    const { api, tokens, advance } = simulatedCompany({ vendors: SHIPPING, warehouse: { clerk: 'rita.vance', auto_receive: true, warehouses: ['WH2'] } });
    purchaseOrder(api, tokens, ORDER);
    advance('2026-10-14');
    expect(api.read.receiving.deliveriesDue('2026-10-14').map((d) => d.id)).toEqual(['DLV-000001']);
    expect(api.read.receiving.receiptsOfPo('PO-000001')).toEqual([]);
  });

  it('does not receive against a PO cancelled after it shipped, nor try to', () => {
    const { api, tokens, advance } = simulatedCompany({ vendors: SHIPPING, warehouse: { clerk: 'rita.vance', auto_receive: true } });
    purchaseOrder(api, tokens, ORDER);
    advance('2026-10-12');
    ok(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000001/cancel', { reason: 'duplicate_order' }), 'cancel');
    advance('2026-10-14');
    expect(api.erp.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE actor = 'rita.vance'`).get()).toEqual({ n: 0 });
  });
});

describe('a warehouse that does not receive by itself', () => {
  it('leaves arrived deliveries for the agent', () => {
    const { api, tokens, advance } = simulatedCompany({ vendors: SHIPPING, warehouse: { clerk: 'rita.vance', auto_receive: false } });
    purchaseOrder(api, tokens, ORDER);
    advance('2026-10-14');
    expect(api.read.receiving.delivery('DLV-000001')!.status).toBe('announced');
  });
});

describe('a simulated fortnight of approvals, orders, deliveries and receipts', () => {
  it('replays to read models equal to the live ones, and two runs give the same read models', () => {
    const run = (file: string) => {
      const { erp, api } = openTestErp(file);
      const tokens = seedPurchasing(api);
      const world = emptyWorld('purchasing-replay', 0);
      const credentials = { 'maya.chen': tokens.maya, 'sim.vendors': tokens.vendor, 'rita.vance': tokens.rita };
      world.users = Object.keys(credentials).sort();
      world.actors = { approvers: { approvers: { 'maya.chen': {} } }, vendors: SHIPPING, warehouse: { clerk: 'rita.vance', auto_receive: true } };
      submittedRequisition(api, tokens.tom, SEALS);
      purchaseOrder(api, tokens, ORDER);
      const day = createSimulator(world, credentials);
      advanceTo(api, '2026-10-09', day);
      ok(call(api, tokens.sam, 'POST', '/purchase-orders', { vendor: 'V-0142', ship_to: 'WH2', lines: [{ requisition_lines: [{ requisition: 'REQ-000001', line: 1 }] }] }), 'po');
      ok(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000002/approve', {}), 'approve');
      ok(call(api, tokens.sam, 'POST', '/purchase-orders/PO-000002/send', {}), 'send');
      advanceTo(api, '2026-11-02', day);
      return erp;
    };
    const dir = mkdtempSync(join(tmpdir(), 'bb-erp-sim-'));
    const live = run(join(dir, 'a.db'));
    expect(live.db.prepare('SELECT id, po, status FROM receipts ORDER BY id').all()).toEqual([
      { id: 'RCV-000001', po: 'PO-000001', status: 'posted' }, { id: 'RCV-000002', po: 'PO-000002', status: 'posted' },
    ]);
    const check = checkReplay(join(dir, 'a.db'), live.db, createAppRegistry());
    expect(check.differingTables).toEqual([]);
    const again = run(join(dir, 'b.db'));
    const readModels = { tables: live.registry.tableNames() };
    expect(canonicalHash(again.db, readModels)).toBe(canonicalHash(live.db, readModels));
  });
});
