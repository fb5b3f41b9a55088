import { staffOf, type StaffMember } from '../organisation';

/**
 * Northgate Valve Co.'s people: twenty named staff in purchasing, receiving, AP, sales, credit,
 * production, accounting and management, and the counterparties who act as users. Ids are stable
 * across seeds because tasks name their agent user; leave calendars and some limits come from
 * the seed.
 */
export const COMPANY = {
  code: 'NVC',
  name: 'Northgate Valve Co.',
  domain: 'northgatevalve.example',
  currency: 'USD',
} as const;

export const DEPARTMENTS: [id: string, name: string, manager: string][] = [
  ['EXEC', 'Executive', 'daniel.okafor'],
  ['FIN', 'Finance and accounting', 'grace.lin'],
  ['PUR', 'Purchasing', 'maya.chen'],
  ['WH', 'Warehouse and receiving', 'tessa.nguyen'],
  ['PROD', 'Production', 'nina.patel'],
  ['OPS', 'Operations', 'zoe.adams'],
  ['SALES', 'Sales', 'carla.diaz'],
  ['MAINT', 'Maintenance', 'ivan.petrov'],
  ['QA', 'Quality', 'priya.shah'],
  ['IT', 'Information technology', 'alex.wong'],
  ['HR', 'People and office', 'mia.santos'],
];

const s = staffOf('937');

export const STAFF: StaffMember[] = [
  s('daniel.okafor', 'Daniel Okafor', 'President and CEO', 'EXEC', null, ['executive'], 1001),
  s('grace.lin', 'Grace Lin', 'Controller', 'FIN', 'daniel.okafor', ['controller'], 1101),
  s('hannah.brooks', 'Hannah Brooks', 'AP Supervisor', 'FIN', 'grace.lin', ['ap_supervisor'], 1121),
  s('omar.haddad', 'Omar Haddad', 'AP Clerk', 'FIN', 'hannah.brooks', ['ap_clerk'], 1122),
  s('lena.park', 'Lena Park', 'Staff Accountant', 'FIN', 'grace.lin', ['staff_accountant'], 1131),
  s('ruth.kim', 'Ruth Kim', 'Credit Manager', 'FIN', 'grace.lin', ['credit_manager'], 1141),
  s('maya.chen', 'Maya Chen', 'Purchasing Manager', 'PUR', 'zoe.adams', ['purchasing_manager'], 1201),
  s('sam.ortiz', 'Sam Ortiz', 'Buyer', 'PUR', 'maya.chen', ['buyer'], 1211),
  s('jordan.ellis', 'Jordan Ellis', 'Buyer', 'PUR', 'maya.chen', ['buyer'], 1212),
  s('tessa.nguyen', 'Tessa Nguyen', 'Warehouse Manager', 'WH', 'zoe.adams', ['warehouse_manager'], 1301),
  s('luis.romero', 'Luis Romero', 'Receiving Clerk', 'WH', 'tessa.nguyen', ['receiving_clerk'], 1311),
  s('nina.patel', 'Nina Patel', 'Production Manager', 'PROD', 'zoe.adams', ['production_manager'], 1401),
  s('owen.mercer', 'Owen Mercer', 'Production Planner', 'PROD', 'nina.patel', ['planner'], 1411),
  s('zoe.adams', 'Zoe Adams', 'Operations Manager', 'OPS', 'daniel.okafor', ['operations_manager'], 1501),
  s('carla.diaz', 'Carla Diaz', 'Sales Manager', 'SALES', 'daniel.okafor', ['sales_manager'], 1601),
  s('ben.foster', 'Ben Foster', 'Order Entry', 'SALES', 'carla.diaz', ['order_entry'], 1611),
  s('ivan.petrov', 'Ivan Petrov', 'Maintenance Supervisor', 'MAINT', 'zoe.adams', ['department_head'], 1701),
  s('priya.shah', 'Priya Shah', 'Quality Manager', 'QA', 'zoe.adams', ['department_head'], 1801),
  s('alex.wong', 'Alex Wong', 'IT Administrator', 'IT', 'grace.lin', ['department_head', 'it_admin'], 1901),
  s('mia.santos', 'Mia Santos', 'People and Office Manager', 'HR', 'daniel.okafor', ['department_head'], 2001),
];

/** Counterparties and the simulator act as users too: the bank, one desk for every vendor, one for every customer, the scenario. */
export const BANK_USER = { id: 'bank.first-ohio', name: 'First Ohio Bank', email: 'statements@firstohiobank.example' } as const;
export const VENDOR_DESK = { id: 'vendor.desk', name: 'Vendors (portal and EDI)', email: 'edi@vendors.example' } as const;
export const SIMULATOR_USER = { id: 'sim.scenario', name: 'Scenario', email: 'scenario@sim.example' } as const;
export const CUSTOMER_DESK = { id: 'customer.desk', name: 'Customers (email and portal)', email: 'orders@customers.example' } as const;

/**
 * What each role may do, as permission patterns resolved against the permissions that exist when
 * the company is built (`ap_invoice.*`). A pattern that matches nothing is reported by the
 * generator's test, so a renamed permission cannot silently strip a role.
 */
export const ROLE_GRANTS: Record<string, { name: string; grants: string[] }> = {
  employee: { name: 'Employee', grants: ['requisition.create', 'messages.send', 'escalation.raise', 'call.place'] },
  executive: { name: 'Executive', grants: ['requisition.approve', 'purchase_order.approve', 'payment_run.approve', 'payment_run.release', 'journal_entry.approve', 'audit.read', 'ledger.read', 'bank.read', 'data_access.grant', 'ap_invoice.approve'] },
  controller: {
    name: 'Controller',
    grants: ['requisition.approve', 'purchase_order.approve', 'payment_run.approve', 'payment_run.release', 'journal_entry.*', 'period.close', 'ledger.*', 'bank.*',
      'vendor.manage', 'vendor_bank.*', 'audit.read', 'master_data.manage', 'org.admin', 'data_access.grant', 'messages.read_accounting', 'ap_invoice.approve', 'ap_policy.set',
      'sales_policy.set', 'ar_invoice.void', 'messages.read_ar'],
  },
  ap_supervisor: {
    name: 'AP supervisor',
    grants: ['ap_invoice.*', 'payment_run.prepare', 'payment.pay', 'payment.record_external', 'payment.void', 'vendor_bank.*', 'vendor_credit.record', 'messages.read_ap', 'bank.read', 'ledger.read', 'debit_memo.raise', 'dispute.open'],
  },
  ap_clerk: { name: 'AP clerk', grants: ['ap_invoice.enter', 'ap_invoice.validate', 'ap_invoice.hold', 'ap_invoice.reject', 'vendor_bank.request', 'vendor_credit.record', 'messages.read_ap', 'debit_memo.raise', 'dispute.open'] },
  staff_accountant: {
    name: 'Staff accountant',
    grants: ['journal_entry.create', 'journal_entry.post', 'period.close', 'ledger.read', 'bank.read', 'bank.reconcile', 'messages.read_accounting',
      'ar_invoice.*', 'cash_receipt.record', 'ar_credit_memo.issue', 'messages.read_ar'],
  },
  credit_manager: { name: 'Credit manager', grants: ['ledger.read', 'credit.manage', 'credit_hold.release', 'promise.record', 'messages.read_ar', 'messages.read_sales', 'bank.read'] },
  purchasing_manager: { name: 'Purchasing manager', grants: ['requisition.approve', 'purchase_order.*', 'messages.read_purchasing', 'ledger.read'] },
  buyer: { name: 'Buyer', grants: ['purchase_order.*', 'messages.read_purchasing'] },
  warehouse_manager: { name: 'Warehouse manager', grants: ['receipt.post', 'inventory.*', 'requisition.approve', 'work_order.issue', 'shipment.post', 'rma.receive', 'rma.inspect'] },
  receiving_clerk: { name: 'Receiving clerk', grants: ['receipt.post', 'inventory.*', 'work_order.issue', 'shipment.post', 'rma.receive', 'rma.inspect'] },
  production_manager: {
    name: 'Production manager',
    grants: ['inventory.issue', 'requisition.approve', 'work_order.*', 'mrp.*', 'forecast.set', 'item.plan', 'engineering.manage', 'plant.manage'],
  },
  // The planner releases MRP's planned purchase orders himself within a buyer's limit, and works its action messages with vendors.
  planner: {
    name: 'Production planner',
    grants: ['inventory.issue', 'mrp.*', 'forecast.set', 'item.plan', 'work_order.create', 'work_order.release', 'purchase_order.create', 'purchase_order.approve', 'purchase_order.send'],
  },
  operations_manager: { name: 'Operations manager', grants: ['requisition.approve', 'purchase_order.approve', 'ledger.read'] },
  sales_manager: { name: 'Sales manager', grants: ['requisition.approve', 'pricing.manage', 'pricing_hold.release', 'sales_order.*', 'quote.manage', 'rma.manage', 'messages.read_sales'] },
  order_entry: { name: 'Order entry', grants: ['sales_order.enter', 'sales_order.allocate', 'quote.manage', 'rma.manage', 'messages.read_sales'] },
  department_head: { name: 'Department head', grants: ['requisition.approve'] },
  it_admin: { name: 'IT administrator', grants: ['org.admin'] },
  bank: { name: 'Bank', grants: ['bank_statement.post', 'payment.clear', 'sim.script'] },
  vendor: { name: 'Vendor', grants: ['purchase_order.acknowledge', 'delivery.announce', 'vendor_request.answer', 'messages.deliver', 'vendor_credit.record', 'dispute.answer', 'sim.script'] },
  customer: { name: 'Customer', grants: ['messages.deliver', 'sim.script', 'promise.record'] },
  scenario: { name: 'Scenario simulator', grants: ['messages.deliver', 'sim.script'] },
};
