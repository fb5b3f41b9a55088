import type { Api } from '../../src/api/pipeline';
import { seedBooks, ok } from './books-fixture';
import { call, issueToken, systemCall } from './erp';

/** The accounts a close needs besides the small books' chart: fixed assets, prepaid insurance, payroll, interest. */
const CLOSE_ACCOUNTS: [string, string, string, ('debit' | 'credit')?][] = [
  ['1410', 'Prepaid insurance', 'asset'],
  ['1500', 'Machinery and equipment', 'asset'],
  ['1510', 'Accumulated depreciation, machinery', 'asset', 'credit'],
  ['2310', 'Accrued payroll', 'liability'],
  ['2400', 'Payroll taxes payable', 'liability'],
  ['4950', 'Other income', 'revenue'],
  ['6300', 'Salaries and wages', 'expense'],
  ['6310', 'Payroll taxes', 'expense'],
  ['6400', 'Insurance', 'expense'],
  ['6700', 'Depreciation', 'expense'],
];

/**
 * The small books with what a month-end close touches: the accounts above, the close duties of
 * Lena Park (registers) and Grace Lin (transfers), and Mia Santos running payroll.
 */
export function seedCloseBooks(api: Api, start = '2026-10-05') {
  const tokens = seedBooks(api, start);
  for (const [code, name, type, normal_side] of CLOSE_ACCOUNTS) ok(systemCall(api, 'POST', '/accounts', { code, name, type, ...(normal_side ? { normal_side } : {}) }), code);
  ok(systemCall(api, 'POST', '/roles', { id: 'registers', name: 'Asset and prepaid registers', permissions: ['fixed_asset.register', 'prepaid.register'] }), 'role');
  ok(systemCall(api, 'POST', '/roles', { id: 'treasury', name: 'Treasury', permissions: ['bank.transfer', 'payroll.read'] }), 'role');
  ok(systemCall(api, 'POST', '/roles', { id: 'payroll_admin', name: 'Payroll administrator', permissions: ['payroll.manage', 'payroll.run', 'payroll.read'] }), 'role');
  ok(systemCall(api, 'POST', '/users/lena.park/roles', { roles: ['staff_accountant', 'registers'] }), 'lena');
  ok(systemCall(api, 'POST', '/users/grace.lin/roles', { roles: ['controller', 'treasury'] }), 'grace');
  ok(systemCall(api, 'POST', '/users', { id: 'mia.santos', name: 'Mia Santos', email: 'mia.santos@northgate.example', department: 'OPS', roles: ['payroll_admin'], kind: 'staff' }), 'mia');
  ok(systemCall(api, 'POST', '/payroll/policy', { wages_account: '6300', employer_taxes_account: '6310', taxes_payable_account: '2400', accrued_payroll_account: '2310' }), 'policy');
  return { ...tokens, mia: issueToken(api, 'mia.santos') };
}

export type CloseTokens = ReturnType<typeof seedCloseBooks>;

/** A balanced entry taken through draft, submit (Lena), approve (Grace) and post (Lena); returns its view. */
export function postedEntry(api: Api, t: CloseTokens, body: object) {
  const je = ok(call(api, t.lena, 'POST', '/journal-entries', body), 'draft');
  ok(call(api, t.lena, 'POST', `/journal-entries/${je.id}/submit`, {}), 'submit');
  ok(call(api, t.grace, 'POST', `/journal-entries/${je.id}/approve`, {}), 'approve');
  return ok(call(api, t.lena, 'POST', `/journal-entries/${je.id}/post`, {}), 'post');
}
