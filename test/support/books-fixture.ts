import type { Api } from '../../src/api/pipeline';
import { addDays } from '../../src/domain/calendar';
import { advanceClock } from '../../src/domain/clock/actions';
import { issueToken, systemCall } from './erp';
import { seedSmallOrg } from '../../src/sim/small-company';

export function ok(res: { status: number; body: any }, what: string) {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The next Monday-to-Friday date after `date` (the test companies keep no holidays). */
export function nextWorkday(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  do d.setUTCDate(d.getUTCDate() + 1); while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.toISOString().slice(0, 10);
}

/** Moves the business clock forward one day at a time, as the runner does. */
export function advanceTo(api: Api, date: string): void {
  while (api.today() < date) ok(api.runInternal(advanceClock, { to: addDays(api.today(), 1) }), 'clock');
}

export const CHART: [string, string, string, (string | null)?, ('debit' | 'credit')?][] = [
  ['1000', 'Cash, operating', 'asset', 'cash'],
  ['1010', 'Cash, payroll', 'asset', 'cash'],
  ['1200', 'Accounts receivable', 'asset', 'ar'],
  ['1300', 'Inventory', 'asset', 'inventory'],
  ['1400', 'Prepaid expenses', 'asset'],
  ['2000', 'Accounts payable', 'liability', 'ap'],
  ['2100', 'Goods received not invoiced', 'liability', 'grni'],
  ['2300', 'Accrued liabilities', 'liability'],
  ['3000', 'Retained earnings', 'equity'],
  ['4000', 'Sales', 'revenue'],
  ['4900', 'Discounts taken', 'revenue'],
  ['5000', 'Cost of goods sold', 'expense'],
  ['6000', 'Office supplies', 'expense'],
  ['6100', 'Rent', 'expense'],
  ['6500', 'Maintenance', 'expense'],
  ['6800', 'Bank fees', 'expense'],
];

/**
 * The small company of org-fixture with its books: a chart of accounts, two bank accounts, terms,
 * and the finance roles. Hannah Brooks (AP supervisor) sees full bank numbers; Omar Haddad (AP
 * clerk) records bank changes but sees them masked; Lena Park prepares and posts entries; Grace Lin
 * (controller) approves entries up to $50,000 and closes periods; First Bank posts the statement.
 */
export function seedBooks(api: Api, start = '2026-10-05') {
  const org = seedSmallOrg(api, start);
  const role = (id: string, name: string, permissions: string[]) => ok(systemCall(api, 'POST', '/roles', { id, name, permissions }), id);
  role('controller', 'Controller', [
    'requisition.approve', 'audit.read', 'org.admin', 'ledger.manage', 'ledger.read', 'period.close', 'journal_entry.create', 'journal_entry.approve',
    'journal_entry.post', 'bank.read', 'bank.reconcile', 'master_data.manage', 'vendor.manage',
  ]);
  role('ap_supervisor', 'AP supervisor', ['vendor_bank.request', 'vendor_bank.verify', 'vendor_bank.read_full', 'vendor.manage', 'master_data.manage', 'item.plan', 'bank.read']);
  role('ap_clerk', 'AP clerk', ['vendor_bank.request', 'audit.read']);
  role('staff_accountant', 'Staff accountant', ['journal_entry.create', 'journal_entry.post', 'ledger.read', 'bank.read', 'bank.reconcile']);
  role('bank', 'Bank', ['bank_statement.post']);
  const user = (id: string, name: string, roles: string[], kind = 'staff') =>
    ok(systemCall(api, 'POST', '/users', { id, name, email: `${id}@northgate.example`, department: kind === 'staff' ? 'ACC' : undefined, roles, kind }), id);
  user('hannah.brooks', 'Hannah Brooks', ['ap_supervisor']);
  user('omar.haddad', 'Omar Haddad', ['ap_clerk']);
  user('lena.park', 'Lena Park', ['staff_accountant']);
  user('first.bank', 'First Bank', ['bank'], 'counterparty');
  ok(systemCall(api, 'POST', '/approval-limits', { subject_type: 'role', subject: 'controller', document_type: 'journal_entry', amount: 50000 }), 'je limit');
  for (const [code, name, type, subledger, normal_side] of CHART) {
    ok(systemCall(api, 'POST', '/accounts', { code, name, type, ...(subledger ? { subledger } : {}), ...(normal_side ? { normal_side } : {}) }), code);
  }
  ok(systemCall(api, 'POST', '/bank-accounts', { id: 'BANK-OP', name: 'Operating account', gl_account: '1000', bank_name: 'First Bank', account_number: '000123454410' }), 'bank');
  ok(systemCall(api, 'POST', '/bank-accounts', { id: 'BANK-PR', name: 'Payroll account', gl_account: '1010', bank_name: 'First Bank', account_number: '000123457720' }), 'bank');
  ok(systemCall(api, 'POST', '/payment-terms', { code: 'NET30' }), 'terms');
  ok(systemCall(api, 'POST', '/payment-terms', { code: '2/10NET30' }), 'terms');
  return {
    ...org,
    hannah: issueToken(api, 'hannah.brooks'),
    omar: issueToken(api, 'omar.haddad'),
    lena: issueToken(api, 'lena.park'),
    bank: issueToken(api, 'first.bank'),
  };
}

/** A vendor on NET30 with an address and a phone number on file. */
export function seedVendor(api: Api, id = 'V-0142', name = 'Mid-State Brass Supply') {
  return ok(systemCall(api, 'POST', '/vendors', { id, name, terms: 'NET30', tin: '41-1234567', email: 'ar@midstate.example', phone: '+1 555 0142', address: '12 Foundry Rd, Dayton OH' }), id);
}
