import type { Api } from '../../src/api/pipeline';
import { call, issueToken, openTestErp, systemCall } from './erp';
import { ok } from './books-fixture';
import { seedPurchasing } from './purchasing-fixture';

/**
 * The purchasing company with a plant: WIP (1310, a control account), material and labour/overhead
 * variances (5120, 5130), scrap (5300) and applied labour and overhead (5400); warehouse WH1 is the
 * plant, completions go to B1. Owen Mercer plans (MRP, forecasts, engineering data, work orders,
 * and purchase orders up to $25,000); Nina Patel runs production (work orders end to end).
 *
 * Items: VALVE-A (made: a BODY-1, a SUB-B, a KIT-P and 4 BOLT-1 with 5% scrap), SUB-B (made: 2 SEAL-1
 * and 2 BOLT-1), KIT-P (a phantom packing kit: 1 SEAL-1 and 1 BOLT-1), BODY-1 and BOLT-1 (bought).
 * Work centers ASSY (16 h a day at $60) and TEST (8 h at $50).
 */
export function seedManufacturing(api: Api, start = '2026-10-05') {
  const tokens = seedPurchasing(api, start);
  const sys = (path: string, body: object) => ok(systemCall(api, 'POST', path, body), path);
  for (const [code, name, type, subledger] of [
    ['1310', 'Work in process', 'asset', 'wip'], ['5120', 'Material variance', 'expense'], ['5130', 'Labour and overhead variance', 'expense'],
    ['5300', 'Scrap', 'expense'], ['5400', 'Labour and overhead applied', 'expense'],
  ] as const) sys('/accounts', { code, name, type, ...(subledger ? { subledger } : {}) });
  sys('/roles', {
    id: 'planner', name: 'Planner',
    permissions: ['mrp.run', 'mrp.release', 'forecast.set', 'item.plan', 'engineering.manage', 'plant.manage', 'work_order.create', 'work_order.release', 'purchase_order.create', 'purchase_order.approve', 'purchase_order.send'],
  });
  sys('/roles', { id: 'production', name: 'Production', permissions: ['work_order.create', 'work_order.release', 'work_order.issue', 'work_order.complete', 'work_order.close'] });
  for (const [id, name, role] of [['owen.mercer', 'Owen Mercer', 'planner'], ['nina.patel', 'Nina Patel', 'production']] as const) {
    sys('/users', { id, name, email: `${id}@northgate.example`, department: 'OPS', roles: [role] });
  }
  sys('/approval-limits', { subject_type: 'role', subject: 'planner', document_type: 'purchase_order', amount: 25000 });
  const item = (body: object) => sys('/items', { type: 'stock', unit: 'ea', inventory_account: '1300', expense_account: '5000', ...body });
  item({ id: 'BODY-1', description: 'Valve body', standard_cost: 20, lead_time_days: 14, preferred_vendor: 'V-0142' });
  item({ id: 'BOLT-1', description: 'Bolt', standard_cost: '0.50', lead_time_days: 5, moq: 100, order_multiple: 100, preferred_vendor: 'V-0142' });
  item({ id: 'SUB-B', description: 'Seal subassembly', standard_cost: 26, lead_time_days: 2 });
  item({ id: 'KIT-P', description: 'Packing kit (phantom)', standard_cost: '12.50' });
  item({ id: 'VALVE-A', description: 'Valve A', standard_cost: 100, lead_time_days: 3 });
  const owen = issueToken(api, 'owen.mercer');
  const nina = issueToken(api, 'nina.patel');
  const as = (token: string, path: string, body: object) => ok(call(api, token, 'POST', path, body), path);
  as(owen, '/plant-settings', { warehouse: 'WH1', completion_location: 'B1' });
  as(owen, '/work-centers', { id: 'ASSY', name: 'Assembly', capacity_hours_per_day: 16, rate_per_hour: 60 });
  as(owen, '/work-centers', { id: 'TEST', name: 'Test bench', capacity_hours_per_day: 8, rate_per_hour: 50 });
  as(owen, '/boms', { item: 'KIT-P', phantom: true, lines: [{ component: 'SEAL-1', qty_per: 1 }, { component: 'BOLT-1', qty_per: 1 }] });
  as(owen, '/boms', { item: 'SUB-B', lines: [{ component: 'SEAL-1', qty_per: 2 }, { component: 'BOLT-1', qty_per: 2 }] });
  as(owen, '/boms', { item: 'VALVE-A', lines: [{ component: 'BODY-1', qty_per: 1 }, { component: 'SUB-B', qty_per: 1 }, { component: 'KIT-P', qty_per: 1 }, { component: 'BOLT-1', qty_per: 4, scrap_pct: 5 }] });
  as(owen, '/routings', { item: 'VALVE-A', operations: [{ seq: 10, work_center: 'ASSY', setup_hours: 1, run_hours_per_unit: 0.5 }, { seq: 20, work_center: 'TEST', run_hours_per_unit: 0.1 }] });
  as(owen, '/routings', { item: 'SUB-B', operations: [{ seq: 10, work_center: 'ASSY', run_hours_per_unit: 0.2 }] });
  return { ...tokens, owen, nina };
}

export function manufacturingCompany(start?: string) {
  const { erp, api } = openTestErp();
  const tokens = seedManufacturing(api, start);
  return { erp, api, tokens };
}

/** Stock counted in at a unit cost, as a receiving clerk would (Dr inventory, Cr 5000). */
export function stockIn(api: Api, rita: string, item: string, qty: number, unitCost: string | number, extra: object = {}) {
  return ok(call(api, rita, 'POST', '/inventory/adjustments', { item, warehouse: 'WH1', location: 'A1', qty, unit_cost: unitCost, reason: 'count', ...extra }), `stock ${item}`);
}
