import type { Api } from '../../src/api/pipeline';
import type { ErpDb } from '../../src/projections/erp-db';
import { seedBooks, seedVendor } from './books-fixture';
import { appendGiven, call, issueToken, systemCall } from './erp';

export function ok(res: { status: number; body: any }, what: string) {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Accounts AP postings use besides the standard chart of books-fixture. */
export const AP_ACCOUNTS: [string, string, string][] = [
  ['2200', 'Input tax', 'liability'],
  ['4950', 'AP write-offs', 'revenue'],
  ['5100', 'Purchase price variance', 'expense'],
  ['5110', 'Purchase quantity variance', 'expense'],
  ['5200', 'Freight in', 'expense'],
];

export const AP_CLERK_PERMISSIONS = [
  'ap_invoice.enter', 'ap_invoice.validate', 'ap_invoice.hold', 'vendor_credit.record', 'debit_memo.raise', 'dispute.open', 'payment_run.prepare',
  'messages.read_ap', 'messages.send',
];
export const AP_SUPERVISOR_PERMISSIONS = [
  ...AP_CLERK_PERMISSIONS, 'ap_invoice.approve', 'ap_invoice.reject', 'ap_invoice.void', 'ap_invoice.write_off', 'payment_run.approve', 'payment_run.release',
  'payment.pay', 'payment.record_external', 'payment.void', 'ap_policy.set',
];

/**
 * The books of books-fixture with payables on top. Omar Haddad (AP clerk) enters, validates, holds
 * and prepares payment runs; Hannah Brooks (AP supervisor) also approves invoices and approves and
 * releases runs up to $50,000 (non-PO invoices up to $5,000); Grace Lin (controller) approves runs
 * up to $200,000. First Bank posts statement lines and clears payments. Mid-State Brass Supply
 * (V-0142, NET30) has a verified bank account, BA-000001.
 */
export function seedPayables(api: Api) {
  const tokens = seedBooks(api);
  for (const [code, name, type] of AP_ACCOUNTS) ok(systemCall(api, 'POST', '/accounts', { code, name, type }), code);
  const role = (id: string, name: string, permissions: string[]) => ok(systemCall(api, 'POST', '/roles', { id, name, permissions }), id);
  role('payables_clerk', 'Payables clerk', AP_CLERK_PERMISSIONS);
  role('payables_supervisor', 'Payables supervisor', AP_SUPERVISOR_PERMISSIONS);
  role('bank_payments', 'Bank payments', ['payment.clear']);
  const roles = (user: string, list: string[]) => ok(systemCall(api, 'POST', `/users/${user}/roles`, { roles: list }), user);
  roles('omar.haddad', ['ap_clerk', 'payables_clerk']);
  roles('hannah.brooks', ['ap_supervisor', 'payables_supervisor']);
  roles('grace.lin', ['controller', 'payables_supervisor']);
  roles('first.bank', ['bank', 'bank_payments']);
  const limit = (subject_type: string, subject: string, document_type: string, amount: number) =>
    ok(systemCall(api, 'POST', '/approval-limits', { subject_type, subject, document_type, amount }), `${subject} ${document_type}`);
  limit('role', 'payables_supervisor', 'payment_run', 50000);
  limit('role', 'payables_supervisor', 'non_po_invoice', 5000);
  limit('user', 'grace.lin', 'payment_run', 200000);
  seedVendor(api);
  ok(call(api, tokens.omar, 'POST', '/vendors/V-0142/bank-accounts', { bank_name: 'Dayton Savings', routing_number: '041000124', account_number: '1234569170', source: 'onboarding' }), 'bank account');
  ok(call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000001/verify', { note: 'Called +1 555 0142 on file' }), 'verify');
  ok(systemCall(api, 'POST', '/warehouses', { id: 'WH1', name: 'Main warehouse', region: 'midwest' }), 'warehouse');
  ok(systemCall(api, 'POST', '/items', { id: 'SEAL-1', description: 'Pump seal', type: 'stock', unit: 'ea', standard_cost: 12, inventory_account: '1300' }), 'item');
  ok(systemCall(api, 'POST', '/items', { id: 'CAL-SVC', description: 'Gauge calibration', type: 'service', unit: 'job', expense_account: '6500' }), 'item');
  return tokens;
}

export interface GivenPoLine {
  line: number;
  item: string | null;
  qty: number;
  unit_price: number;
  account: string;
  description?: string;
}

let poCounter = 0;

/** A PO created, approved and sent, as the purchasing area records it. Unit prices in cents. */
export function givenSentPo(erp: ErpDb, id: string, lines: GivenPoLine[], vendor = 'V-0142', date = '2026-10-05') {
  poCounter = Number(id.slice(3));
  const poLines = lines.map((l) => ({
    line: l.line, item: l.item, description: l.description ?? l.item ?? 'Service', qty: l.qty, unit: 'ea', unit_price: l.unit_price,
    amount: Math.round(l.qty * l.unit_price), need_by: '2026-10-20', account: l.account, requisition_lines: [],
  }));
  const total = poLines.reduce((s, l) => s + l.amount, 0);
  appendGiven(erp, [
    { type: 'PurchaseOrderCreated', data: { id, vendor, buyer: 'sam.ortiz', ship_to: 'WH1', department: 'OPS', lines: poLines, total, note: '' }, allocated: { PO: poCounter }, businessDate: date },
    { type: 'PurchaseOrderApproved', data: { id, amount: total, note: '' }, businessDate: date },
    { type: 'PurchaseOrderSent', data: { id, vendor, note: '' }, businessDate: date },
  ]);
}

export interface GivenReceiptLine {
  po_line: number;
  item: string | null;
  qty: number;
  unit_price: number;
  account: string;
  stock: boolean;
}

/** A receipt posted against a sent PO: Dr inventory (or expense), Cr GRNI at PO price, with its stock movements. */
export function givenReceipt(erp: ErpDb, id: string, po: string, lines: GivenReceiptLine[], date = '2026-10-05', vendor = 'V-0142') {
  const receiptLines = lines.map((l, i) => ({
    line: i + 1, po_line: l.po_line, item: l.item, substitute_for: null, description: l.item ?? 'Service', qty_received: l.qty, qty_refused: 0,
    refusal_reason: null, lot: null, expiry: null, location: null, unit_price: l.unit_price, amount: Math.round(l.qty * l.unit_price), account: l.account, stock: l.stock,
  }));
  const total = receiptLines.reduce((s, l) => s + l.amount, 0);
  const journal = {
    date, memo: `Receipt ${id}`,
    lines: [
      ...receiptLines.map((l) => ({ account: l.account, debit: l.amount, credit: 0, party_type: null, party_id: null, document_id: id })),
      { account: '2100', debit: 0, credit: total, party_type: 'vendor' as const, party_id: vendor, document_id: po },
    ],
  };
  const inventory = receiptLines.filter((l) => l.stock).map((l) => ({
    type: 'receipt', date, item: l.item!, warehouse: 'WH1', location: null, lot: null, expiry: null, qty: l.qty_received, unit_cost: l.unit_price, value: l.amount,
    document_type: 'receipt', document_id: id, document_line: l.line,
  }));
  appendGiven(erp, [{
    type: 'ReceiptPosted',
    data: { id, po, vendor, warehouse: 'WH1', date, delivery: null, packing_slip: `PS-${id}`, lines: receiptLines, total, note: '', journal, inventory },
    allocated: { RCV: Number(id.slice(4)) }, businessDate: date,
  }]);
}

/** The usual starting point: PO-000001 for 10 pump seals at $12.00, all received. */
export function givenReceivedSeals(erp: ErpDb, qty = 10) {
  givenSentPo(erp, 'PO-000001', [{ line: 1, item: 'SEAL-1', qty: 10, unit_price: 1200, account: '1300' }]);
  if (qty > 0) givenReceipt(erp, 'RCV-000001', 'PO-000001', [{ po_line: 1, item: 'SEAL-1', qty, unit_price: 1200, account: '1300', stock: true }]);
}

/** A body for POST /ap-invoices billing the seals PO as given. */
export function sealsInvoice(overrides: Record<string, unknown> = {}, line: Record<string, unknown> = {}) {
  return {
    vendor: 'V-0142', po: 'PO-000001', vendor_invoice_number: 'MS-1001', invoice_date: '2026-10-05',
    lines: [{ po_line: 1, qty: 10, unit_price: '12.00', amount: '120.00', ...line }], total: '120.00', ...overrides,
  };
}

export function tokenFor(api: Api, user: string) {
  return issueToken(api, user, `tok2-${user}`);
}
