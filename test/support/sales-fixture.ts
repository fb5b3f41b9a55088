import type { Api } from '../../src/api/pipeline';
import { call, issueToken, openTestErp, systemCall } from './erp';
import { ok, seedPayables } from './payables-fixture';

/** Accounts sales and receivables post to, besides those of the payables fixture. */
export const SALES_ACCOUNTS: [string, string, string][] = [
  ['4100', 'Freight billed', 'revenue'], ['4120', 'Restocking fees', 'revenue'], ['4400', 'Sales discounts', 'revenue'],
  ['4500', 'Sales returns and allowances', 'revenue'], ['4600', 'Customer rebates', 'revenue'],
];

/**
 * The payables company selling valves from two warehouses. Ben Foster enters orders, quotes and
 * returns; Carla Diaz (sales manager) keeps prices and releases pricing holds; Ruth Kim (credit
 * manager) holds and releases credit, duns and resolves deductions; Lena Park bills, records and
 * applies cash and issues credit memos; Luis Romero ships, receives and inspects returns; the
 * customer desk records the customers' own orders, payments and promises.
 *
 * Master data: VALVE-1 (stock, standard $40) on price list STD at $75.00 ($70.00 from 100 units);
 * SEAL-L (lot-controlled, $3.00 standard, $6.00 on STD). Customers: C-1 Acme Plumbing (NET30,
 * $10,000 limit, taxable: ST1 midwest at 7.25%, ST2 west; prepay-and-add freight), C-2 Valley
 * Supply (exempt distributor, 2/10NET30, $50,000, contract price $65.00 for VALVE-1), C-3 Valley
 * North (a subsidiary C-2 pays for). WH1 is midwest, WH2 west.
 */
export function seedSales(api: Api) {
  const tokens = seedPayables(api);
  for (const [code, name, type] of SALES_ACCOUNTS) ok(systemCall(api, 'POST', '/accounts', { code, name, type }), code);
  const role = (id: string, permissions: string[]) => ok(systemCall(api, 'POST', '/roles', { id, name: id, permissions }), id);
  role('order_desk', ['sales_order.enter', 'sales_order.allocate', 'quote.manage', 'rma.manage', 'messages.send']);
  role('sales_manager', ['pricing.manage', 'pricing_hold.release', 'sales_order.enter', 'sales_policy.set']);
  role('credit_desk', ['credit.manage', 'credit_hold.release', 'promise.record']);
  role('ar_desk', ['ar_invoice.bill', 'ar_invoice.void', 'cash_receipt.record', 'ar_credit_memo.issue']);
  role('shipping', ['shipment.post', 'rma.receive', 'rma.inspect', 'inventory.adjust', 'inventory.transfer']);
  role('customer_desk', ['promise.record', 'sim.script', 'messages.deliver']);
  const user = (id: string, name: string, roles: string[], kind = 'staff') =>
    ok(systemCall(api, 'POST', '/users', { id, name, email: `${id}@northgate.example`, department: kind === 'staff' ? 'OPS' : undefined, roles, kind }), id);
  user('ben.foster', 'Ben Foster', ['order_desk']);
  user('carla.diaz', 'Carla Diaz', ['sales_manager']);
  user('ruth.kim', 'Ruth Kim', ['credit_desk']);
  user('luis.romero', 'Luis Romero', ['shipping']);
  user('customer.desk', 'Customers', ['customer_desk'], 'counterparty');
  ok(systemCall(api, 'POST', '/users/lena.park/roles', { roles: ['staff_accountant', 'ar_desk'] }), 'lena');
  role('bank_records', ['sim.script']);
  ok(systemCall(api, 'POST', '/users/first.bank/roles', { roles: ['bank', 'bank_payments', 'bank_records'] }), 'bank');
  ok(systemCall(api, 'POST', '/warehouses', { id: 'WH2', name: 'West warehouse', region: 'west' }), 'WH2');
  for (const [wh, code] of [['WH1', 'A1'], ['WH1', 'QC'], ['WH2', 'R1']]) ok(systemCall(api, 'POST', `/warehouses/${wh}/locations`, { code }), code!);
  ok(systemCall(api, 'POST', '/items', { id: 'VALVE-1', description: 'Ball valve 1in', type: 'stock', unit: 'ea', standard_cost: 40, inventory_account: '1300', expense_account: '5000' }), 'valve');
  ok(systemCall(api, 'POST', '/items', { id: 'SEAL-L', description: 'Seal kit', type: 'stock', unit: 'ea', lot_controlled: true, shelf_life_days: 365, standard_cost: 3, inventory_account: '1300', expense_account: '5000' }), 'seal');
  ok(systemCall(api, 'POST', '/tax-codes', { code: 'OH', rate_bp: 725, description: 'Ohio' }), 'tax');
  ok(systemCall(api, 'POST', '/tax-codes', { code: 'EXEMPT', rate_bp: 0, description: 'Exempt' }), 'tax');
  const t = { ...tokens, ben: issueToken(api, 'ben.foster'), carla: issueToken(api, 'carla.diaz'), ruth: issueToken(api, 'ruth.kim'), luis: issueToken(api, 'luis.romero'), cust: issueToken(api, 'customer.desk') };
  ok(call(api, t.carla, 'POST', '/price-lists', { id: 'STD', name: 'Standard list' }), 'list');
  ok(call(api, t.carla, 'POST', '/price-lists/STD/prices', { item: 'VALVE-1', unit_price: '75.00', valid_from: '2026-01-01' }), 'price');
  ok(call(api, t.carla, 'POST', '/price-lists/STD/prices', { item: 'VALVE-1', unit_price: '70.00', min_qty: 100, valid_from: '2026-01-01' }), 'break');
  ok(call(api, t.carla, 'POST', '/price-lists/STD/prices', { item: 'SEAL-L', unit_price: '6.00', valid_from: '2026-01-01' }), 'seal price');
  ok(call(api, t.carla, 'POST', '/sales/policy', { default_price_list: 'STD' }), 'policy');
  const customer = (body: object) => ok(systemCall(api, 'POST', '/customers', body), 'customer');
  customer({ id: 'C-1', name: 'Acme Plumbing', credit_limit: 10000, terms: 'NET30', freight_terms: 'prepay_and_add' });
  customer({ id: 'C-2', name: 'Valley Supply', credit_limit: 50000, terms: '2/10NET30', tax_exempt: true });
  customer({ id: 'C-3', name: 'Valley North', credit_limit: 20000, terms: 'NET30', tax_exempt: true, parent: 'C-2' });
  ok(systemCall(api, 'POST', '/customers/C-1/ship-to', { code: 'ST1', address: '1 Main St, Dayton', region: 'midwest', tax_code: 'OH' }), 'st');
  ok(systemCall(api, 'POST', '/customers/C-1/ship-to', { code: 'ST2', address: '9 Sierra Rd, Reno', region: 'west', tax_code: 'OH' }), 'st');
  ok(systemCall(api, 'POST', '/customers/C-2/ship-to', { code: 'ST1', address: '5 Valley Rd', region: 'midwest', tax_code: 'EXEMPT' }), 'st');
  ok(systemCall(api, 'POST', '/customers/C-3/ship-to', { code: 'ST1', address: '7 North Rd', region: 'west', tax_code: 'EXEMPT' }), 'st');
  ok(call(api, t.carla, 'POST', '/contract-prices', { customer: 'C-2', item: 'VALVE-1', unit_price: '65.00', valid_from: '2026-01-01', valid_to: '2026-12-31', reference: 'Contract 2026' }), 'contract');
  return t;
}

export type SalesTokens = ReturnType<typeof seedSales>;

/** Stock counted in by Luis Romero: units of an item at a unit cost in one warehouse (and lot). */
export function stock(api: Api, t: SalesTokens, item: string, warehouse: string, qty: number, unitCost: string, lot?: { lot: string; expiry: string }) {
  ok(call(api, t.luis, 'POST', '/inventory/adjustments', { item, warehouse, qty, unit_cost: unitCost, reason: 'count', account: '5000', ...(lot ?? {}) }), `stock ${item}`);
}

/** The sales company with 100 VALVE-1 in WH1 at $40.00 and 30 in WH2 at $42.00. */
export function salesCompany() {
  const { erp, api } = openTestErp();
  const t = seedSales(api);
  stock(api, t, 'VALVE-1', 'WH1', 100, '40.00');
  stock(api, t, 'VALVE-1', 'WH2', 30, '42.00');
  return { erp, api, t };
}

/** An order entered by Ben Foster (and, unless told otherwise, released and allocated). */
export function order(api: Api, t: SalesTokens, body: object, until: 'entered' | 'released' | 'allocated' = 'allocated'): string {
  const id = ok(call(api, t.ben, 'POST', '/sales-orders', body), 'order').id as string;
  if (until !== 'entered') ok(call(api, t.ben, 'POST', `/sales-orders/${id}/release`, {}), 'release');
  if (until === 'allocated') ok(call(api, t.ben, 'POST', `/sales-orders/${id}/allocate`, {}), 'allocate');
  return id;
}

/** The order shipped in full from the warehouse it is allocated in, and billed: returns [shipment, invoice]. */
export function shipAndBill(api: Api, t: SalesTokens, so: string, warehouse = 'WH1', freight = '0'): [string, string] {
  const lines = api.read.sales.allocationsOf(so).filter((a) => a.warehouse === warehouse && a.qty > 0).map((a) => ({ so_line: a.line, qty: a.qty }));
  const shp = ok(call(api, t.luis, 'POST', '/shipments', { sales_order: so, warehouse, lines, freight_charge: freight }), 'ship').id as string;
  const inv = ok(call(api, t.lena, 'POST', `/shipments/${shp}/invoice`, {}), 'bill').id as string;
  return [shp, inv];
}
