import type { Api } from '../../src/api/pipeline';
import { call, issueToken, openTestErp, systemCall } from './erp';
import { ok, seedBooks, seedVendor } from './books-fixture';

/**
 * The books company with purchasing: Tom Reyes (operations) raises requisitions that go to Maya
 * Chen, who manages both Operations and Purchasing; Grace Lin (controller) approves above Maya's
 * $10,000 limit; Sam Ortiz buys (POs up to $25,000); Rita Vance receives and keeps stock; the
 * vendor desk acknowledges, ships and answers for vendors. Items: SEAL-1 (lot-controlled stock),
 * VALVE-2 (stock), SEAL-1X (a substitute seal), CAL-SVC (a calibration service).
 */
export function seedPurchasing(api: Api, start = '2026-10-05') {
  const books = seedBooks(api, start);
  const role = (id: string, permissions: string[]) => ok(systemCall(api, 'POST', '/roles', { id, name: id, permissions }), id);
  role('requester', ['requisition.create']);
  role('purchasing_manager', ['requisition.approve', 'requisition.create']);
  role('buyer', ['requisition.create', 'purchase_order.create', 'purchase_order.approve', 'purchase_order.send', 'receipt.post']);
  role('receiving_clerk', ['receipt.post', 'inventory.issue', 'inventory.adjust', 'inventory.transfer']);
  role('vendor_desk', ['purchase_order.acknowledge', 'vendor_request.answer', 'delivery.announce']);
  const user = (id: string, name: string, department: string | undefined, roles: string[], kind = 'staff') =>
    ok(systemCall(api, 'POST', '/users', { id, name, email: `${id}@northgate.example`, department, roles, kind }), id);
  user('tom.reyes', 'Tom Reyes', 'OPS', ['requester']);
  user('rita.vance', 'Rita Vance', 'OPS', ['receiving_clerk']);
  user('sim.vendors', 'Vendor desk', undefined, ['vendor_desk'], 'counterparty');
  for (const dept of ['OPS', 'PUR']) ok(systemCall(api, 'POST', `/departments/${dept}/manager`, { manager: 'maya.chen' }), dept);
  ok(systemCall(api, 'POST', '/approval-limits', { subject_type: 'role', subject: 'buyer', document_type: 'purchase_order', amount: 25000 }), 'po limit');
  ok(systemCall(api, 'POST', '/accounts', { code: '5200', name: 'Inventory adjustments', type: 'expense' }), '5200');
  for (const [id, locations] of [['WH1', ['A1', 'B1']], ['WH2', ['R1']]] as const) {
    ok(systemCall(api, 'POST', '/warehouses', { id, name: id, region: id === 'WH1' ? 'east' : 'west' }), id);
    for (const code of locations) ok(systemCall(api, 'POST', `/warehouses/${id}/locations`, { code }), code);
  }
  seedVendor(api);
  seedVendor(api, 'V-0200', 'Lakeside Castings');
  ok(systemCall(api, 'POST', '/vendors/V-0200/deactivate', { reason: 'vendor_closed' }), 'deactivate');
  const item = (body: object) => ok(systemCall(api, 'POST', '/items', body), 'item');
  item({ id: 'SEAL-1', description: 'Pump seal', type: 'stock', unit: 'ea', lot_controlled: true, shelf_life_days: 365, standard_cost: 12, inventory_account: '1300', expense_account: '5000', lead_time_days: 10 });
  item({ id: 'SEAL-1X', description: 'Pump seal, alternate', type: 'stock', unit: 'ea', lot_controlled: true, shelf_life_days: 365, standard_cost: 13, inventory_account: '1300', expense_account: '5000' });
  item({ id: 'VALVE-2', description: 'Ball valve 2in', type: 'stock', unit: 'ea', standard_cost: 40, inventory_account: '1300', expense_account: '5000', lead_time_days: 7 });
  item({ id: 'CAL-SVC', description: 'Calibration service', type: 'service', unit: 'ea', expense_account: '6500' });
  return { ...books, tom: issueToken(api, 'tom.reyes'), rita: issueToken(api, 'rita.vance'), vendor: issueToken(api, 'sim.vendors') };
}

export function purchasingCompany(start?: string) {
  const { erp, api } = openTestErp();
  const tokens = seedPurchasing(api, start);
  return { erp, api, tokens };
}

export const SEALS = { need_by: '2026-10-30', purpose: 'Spare seals for line 2', lines: [{ item: 'SEAL-1', qty: 100, unit_price: '12.50' }] };

/** A requisition by Tom Reyes, submitted to Maya Chen's queue: REQ-000001 / APR-000001 unless more exist. */
export function submittedRequisition(api: Api, token: string, body: object = SEALS): string {
  const id = ok(call(api, token, 'POST', '/requisitions', body), 'requisition').id as string;
  ok(call(api, token, 'POST', `/requisitions/${id}/submit`, {}), 'submit');
  return id;
}

/** A requisition approved by Maya Chen. */
export function approvedRequisition(api: Api, tokens: { tom: string; maya: string }, body: object = SEALS): string {
  const id = submittedRequisition(api, tokens.tom, body);
  ok(call(api, tokens.maya, 'POST', `/requisitions/${id}/approve`, {}), 'approve');
  return id;
}

export const DIRECT_PO = {
  vendor: 'V-0142', ship_to: 'WH1',
  lines: [{ item: 'VALVE-2', qty: 50, unit_price: '40.00', need_by: '2026-10-20' }, { item: 'SEAL-1', qty: 200, unit_price: '12.00', need_by: '2026-10-22' }],
};

/** A PO by Sam Ortiz taken to `until` (default sent). */
export function purchaseOrder(api: Api, tokens: { sam: string }, body: object = DIRECT_PO, until: 'draft' | 'approved' | 'sent' = 'sent'): string {
  const id = ok(call(api, tokens.sam, 'POST', '/purchase-orders', body), 'po').id as string;
  if (until !== 'draft') ok(call(api, tokens.sam, 'POST', `/purchase-orders/${id}/approve`, {}), 'approve');
  if (until === 'sent') ok(call(api, tokens.sam, 'POST', `/purchase-orders/${id}/send`, {}), 'send');
  return id;
}
