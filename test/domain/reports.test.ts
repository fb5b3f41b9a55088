import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { registerCommitments } from '../../src/domain/reports';
import { Obj } from '../../src/events/contracts/common';
import { CashMovement, Journal } from '../../src/events/contracts/ledger';
import { defineEvent } from '../../src/events/event-types';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { appendGiven, call, eventCount, openTestErp } from '../support/erp';
import { seedBooks, seedVendor } from '../support/books-fixture';

const ReceiptPosted = defineEvent('TestCustomerReceipt', Obj({ id: Type.String(), journal: Journal, cash: Type.Array(CashMovement) }));

function books(file?: string) {
  const { erp, api } = openTestErp(file);
  const tokens = seedBooks(api);
  return { erp, api, tokens };
}

/** A customer's payment as a later area would record it: Dr cash / Cr revenue, with the cash movement. */
function receipt(erp: ReturnType<typeof books>['erp'], cents: number, bankAccount = 'BANK-OP', glAccount = '1000') {
  const journal = { date: '2026-10-05', memo: 'Cash sale', lines: [
    { account: glAccount, debit: cents, credit: 0, party_type: null, party_id: null, document_id: 'RCPT-1' },
    { account: '4000', debit: 0, credit: cents, party_type: null, party_id: null, document_id: 'RCPT-1', department: 'OPS' },
  ] };
  appendGiven(erp, [{ type: ReceiptPosted.type, data: { id: 'RCPT-1', journal, cash: [{ bank_account: bankAccount, amount: cents, kind: 'receipt', reference: 'RCPT-1' }] } }]);
}

/** Lena drafts, Grace approves, Lena posts. */
function postEntry(api: any, tokens: any, lines: object[], date = '2026-10-05') {
  const created = call(api, tokens.lena, 'POST', '/journal-entries', { date, memo: 'Manual entry', lines });
  for (const [token, action] of [[tokens.lena, 'submit'], [tokens.grace, 'approve'], [tokens.lena, 'post']]) {
    const res = call(api, token, 'POST', `/journal-entries/${created.body.id}/${action}`, {});
    if (res.status !== 200) throw new Error(`${action}: ${JSON.stringify(res.body)}`);
  }
  return created.body.id as string;
}

const report = (api: any, token: string, id: string, query: Record<string, string> = {}) => call(api, token, 'GET', `/reports/${id}`, undefined, { query });

describe('the report registry', () => {
  it('lists every report with its summary, permission and parameters', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.sam, 'GET', '/reports');
    expect(res.body.items.map((r: any) => r.id)).toEqual(['ap-aging', 'ar-aging', 'budget-vs-actual', 'capacity-load', 'cash-position', 'control-ties', 'grni', 'item-usage', 'mrp-exceptions', 'on-hand', 'open-purchase-orders', 'production-variances', 'sales-margin', 'trial-balance', 'wip']);
    const tb = res.body.items.find((r: any) => r.id === 'trial-balance');
    expect(tb).toMatchObject({ permission: 'ledger.read', allowed: false, parameters: { type: 'object', additionalProperties: false, properties: { as_of: { format: 'date' } } } });
  });

  it('answers 404 not_found for a report that does not exist, and records the probe', () => {
    const { erp, api, tokens } = books();
    const before = eventCount(erp);
    const res = report(api, tokens.grace, 'aging-of-everything');
    expect([res.status, res.body.code, res.body.detail]).toEqual([404, 'not_found', 'No report aging-of-everything.']);
    expect(erp.db.prepare('SELECT kind, outcome, error_code FROM events WHERE seq = ?').get(before + 1)).toEqual({ kind: 'read', outcome: 'refused', error_code: 'not_found' });
  });

  it('answers 400 for a parameter its schema refuses, or one it does not know', () => {
    const { api, tokens } = books();
    expect(report(api, tokens.grace, 'trial-balance', { as_of: '2026-13-01' }).status).toBe(400);
    const unknown = report(api, tokens.grace, 'trial-balance', { as_at: '2026-10-01' });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'invalid_request']);
  });

  it('answers 403 to a reader without the report\'s permission', () => {
    const { api, tokens } = books();
    expect(report(api, tokens.sam, 'trial-balance').body.code).toBe('forbidden');
  });
});

describe('a trial balance', () => {
  it('shows every account with its net debit or credit and its balance on the normal side, totalled and balanced', () => {
    const { erp, api, tokens } = books();
    receipt(erp, 500000);
    postEntry(api, tokens, [{ account: '6100', debit: '1500.00' }, { account: '2300', credit: '1500.00' }]);
    const tb = report(api, tokens.grace, 'trial-balance', { as_of: '2026-10-05' }).body;
    expect(tb.rows).toHaveLength(16);
    expect(tb.rows.find((r: any) => r.account === '1000')).toMatchObject({ debit: 5000, credit: 0, balance: 5000, normal_side: 'debit' });
    expect(tb.rows.find((r: any) => r.account === '4000')).toMatchObject({ debit: 0, credit: 5000, balance: 5000, normal_side: 'credit' });
    expect(tb.rows.find((r: any) => r.account === '2300')).toMatchObject({ credit: 1500, balance: 1500 });
    expect(tb).toMatchObject({ as_of: '2026-10-05', totals: { debit: 6500, credit: 6500 }, balanced: true });
  });

  it('leaves out postings dated after as_of', () => {
    const { erp, api, tokens } = books();
    receipt(erp, 500000);
    expect(report(api, tokens.grace, 'trial-balance', { as_of: '2026-10-04' }).body.totals).toEqual({ debit: 0, credit: 0 });
  });
});

describe('control ties', () => {
  it('shows no difference when cash moves only through operational events and bank fees', () => {
    const { erp, api, tokens } = books();
    receipt(erp, 500000);
    call(api, tokens.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-05', amount: '-35.00', kind: 'fee', reference: 'FEE' });
    const ties = report(api, tokens.grace, 'control-ties').body;
    expect(ties.rows.find((r: any) => r.account === '1000')).toEqual({ account: '1000', name: 'Cash, operating', subledger: 'cash', gl_balance: 4965, subledger_balance: 4965, difference: 0, tied: true });
    expect(ties.tied).toBe(true);
    expect(ties.unchecked).toEqual([]);
    expect(ties.rows.find((r: any) => r.account === '1200')).toMatchObject({ subledger: 'ar', gl_balance: 0, subledger_balance: 0, tied: true });
  });

  it('shows the difference a manual entry posted straight to a cash control account makes', () => {
    const { erp, api, tokens } = books();
    receipt(erp, 500000);
    postEntry(api, tokens, [{ account: '1000', debit: '250.00' }, { account: '4000', credit: '250.00' }]);
    const ties = report(api, tokens.grace, 'control-ties').body;
    expect(ties.rows.find((r: any) => r.account === '1000')).toMatchObject({ gl_balance: 5250, subledger_balance: 5000, difference: 250, tied: false });
    expect(ties.rows.find((r: any) => r.account === '1010')).toMatchObject({ difference: 0, tied: true });
    expect(ties.tied).toBe(false);
  });
});

describe('cash position', () => {
  it('shows each bank account\'s book balance and what is not yet reconciled', () => {
    const { erp, api, tokens } = books();
    receipt(erp, 500000);
    receipt(erp, 120000, 'BANK-PR', '1010');
    call(api, tokens.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-05', amount: '-35.00', kind: 'fee', reference: 'FEE' });
    call(api, tokens.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-05', amount: '5000.00', kind: 'deposit', reference: 'RCPT-1' });
    const cash = report(api, tokens.grace, 'cash-position').body;
    expect(cash.rows).toEqual([
      { bank_account: 'BANK-OP', name: 'Operating account', bank_name: 'First Bank', masked_number: '••••••••4410', gl_account: '1000', book_balance: 4965, statement_net: 4965, unmatched_statement_lines: 1, uncleared_book_items: 1, uncleared_book_amount: 5000 },
      { bank_account: 'BANK-PR', name: 'Payroll account', bank_name: 'First Bank', masked_number: '••••••••7720', gl_account: '1010', book_balance: 1200, statement_net: 0, unmatched_statement_lines: 0, uncleared_book_items: 1, uncleared_book_amount: 1200 },
    ]);
    expect(cash.total_book_balance).toBe(6165);
  });
});

describe('budget against actual', () => {
  function budgeted() {
    const b = books();
    seedVendor(b.api);
    call(b.api, b.tokens.grace, 'POST', '/budgets', { department: 'OPS', lines: [
      { account: '6500', month: '2026-09', amount: '3000' }, { account: '6500', month: '2026-10', amount: '3000' }, { account: '6100', month: '2026-10', amount: '2000' },
    ] });
    call(b.api, b.tokens.grace, 'POST', '/periods', { period: '2026-09' });
    postEntry(b.api, b.tokens, [{ account: '6500', debit: '2800.00', department: 'OPS' }, { account: '2300', credit: '2800.00' }], '2026-09-20');
    postEntry(b.api, b.tokens, [{ account: '6500', debit: '3500.00', department: 'OPS' }, { account: '6100', debit: '2000', department: 'OPS' }, { account: '2300', credit: '5500.00' }]);
    return b;
  }

  it('compares the department\'s budget with its postings, fiscal year to date by default', () => {
    const { api, tokens } = budgeted();
    const res = report(api, tokens.grace, 'budget-vs-actual', { department: 'OPS' }).body;
    expect(res).toMatchObject({ from: '2026-01', to: '2026-10', department: 'OPS' });
    expect(res.rows).toEqual([
      { department: 'OPS', account: '6100', name: 'Rent', budget: 2000, actual: 2000, commitments: 0, available: 0, over_budget: false, over_on_actuals: false },
      { department: 'OPS', account: '6500', name: 'Maintenance', budget: 6000, actual: 6300, commitments: 0, available: -300, over_budget: true, over_on_actuals: true },
    ]);
    expect(res.departments).toEqual([{ department: 'OPS', budget: 8000, actual: 8300, commitments: 0, available: -300, over_budget: true }]);
  });

  it('limits the comparison to the months asked for', () => {
    const { api, tokens } = budgeted();
    const res = report(api, tokens.grace, 'budget-vs-actual', { department: 'OPS', from: '2026-09', to: '2026-09' }).body;
    expect(res.rows).toEqual([expect.objectContaining({ account: '6500', budget: 3000, actual: 2800, available: 200, over_budget: false })]);
  });

  it('subtracts open commitments once an area registers a source for them', () => {
    const { api, tokens } = budgeted();
    registerCommitments((_read, range) => (range.department === null || range.department === 'OPS' ? [{ department: 'OPS', account: '6100', amount: 45000 }] : []));
    const res = report(api, tokens.grace, 'budget-vs-actual', { department: 'OPS' }).body;
    expect(res.rows[0]).toMatchObject({ account: '6100', budget: 2000, actual: 2000, commitments: 450, available: -450, over_budget: true, over_on_actuals: false });
  });
});

describe('a stream of master data, postings, bank lines and journal entries', () => {
  it('replays to read models equal to the live ones', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-books-')), 'live.db');
    const { erp, api, tokens } = books(file);
    seedVendor(api);
    call(api, tokens.omar, 'POST', '/vendors/V-0142/bank-accounts', { bank_name: 'Lakeshore', routing_number: '071000013', account_number: '4410029170' });
    call(api, tokens.hannah, 'POST', '/vendor-bank-accounts/BA-000001/verify', {});
    receipt(erp, 500000);
    call(api, tokens.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-05', amount: '-35.00', kind: 'fee', reference: 'FEE' });
    const je = postEntry(api, tokens, [{ account: '6500', debit: '10', department: 'OPS' }, { account: '2300', credit: '10' }]);
    call(api, tokens.lena, 'POST', `/journal-entries/${je}/reverse`, { reason: 'error' });
    const check = checkReplay(file, erp.db, createAppRegistry());
    expect(check.differingTables).toEqual([]);
    expect(check.equal).toBe(true);
  });
});
