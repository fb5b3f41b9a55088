import { advanceTo } from '../../src/api/control-app';
import '../../src/sim/behaviours/payables';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld, type World } from '../../src/sim/world';
import { ok } from '../support/books-fixture';
import { seedCloseBooks } from '../support/close-fixture';
import { call, openTestErp } from '../support/erp';

/** The close books with a world holding the bank's and the controller's tokens; Monday 2026-10-05. */
function world(actors: World['actors']) {
  const { erp, api } = openTestErp();
  const t = seedCloseBooks(api);
  const w = emptyWorld('close', 0);
  const credentials = { 'first.bank': t.bank, 'grace.lin': t.grace };
  w.users = Object.keys(credentials).sort();
  w.actors = actors;
  return { erp, api, t, w, advance: (to: string) => advanceTo(api, to, createSimulator(w, credentials)) };
}
const lines = (api: any) => (api.read.cash.unmatchedLines('BANK-OP') as any[]).concat(api.read.cash.unmatchedLines('BANK-PR'))
  .map((l) => [l.bank_account, l.date, l.kind, l.reference, l.amount]);

describe("the bank's statement of what the company moved outside AP", () => {
  it('prints a line for each deposit, withdrawal and transfer the next business day, with the company\'s reference, once', () => {
    const c = world({ bank: { statements: { as: 'first.bank' } } });
    ok(call(c.api, c.t.lena, 'POST', '/bank-accounts/BANK-OP/deposits', { date: '2026-10-05', amount: '900.00', credit_account: '4000', reference: 'Lockbox' }), 'deposit');
    ok(call(c.api, c.t.lena, 'POST', '/bank-accounts/BANK-OP/withdrawals', { date: '2026-10-05', amount: '40.00', debit_account: '6100', reference: 'Rent wire' }), 'wire');
    ok(call(c.api, c.t.grace, 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-PR', amount: '100.00' }), 'transfer');
    c.advance('2026-10-05');
    expect(lines(c.api)).toEqual([]);
    c.advance('2026-10-06');
    expect(lines(c.api)).toEqual([
      ['BANK-OP', '2026-10-06', 'deposit', 'DEP-000001', 90000], ['BANK-OP', '2026-10-06', 'withdrawal', 'WDL-000001', -4000], ['BANK-OP', '2026-10-06', 'transfer', 'TRF-000001', -10000],
      ['BANK-PR', '2026-10-06', 'transfer', 'TRF-000001', 10000],
    ]);
    c.advance('2026-10-07');
    expect(lines(c.api)).toHaveLength(4);
  });

  it('prints net pay as a withdrawal from the payroll account, and posts nothing on a weekend', () => {
    const c = world({ bank: { statements: { as: 'first.bank' } } });
    ok(call(c.api, c.t.lena, 'POST', '/bank-accounts/BANK-PR/deposits', { date: '2026-10-05', amount: '9000.00', credit_account: '3000', reference: 'Funding' }), 'fund');
    c.advance('2026-10-09');
    ok(call(c.api, c.t.mia, 'POST', '/payroll-runs', { period_start: '2026-09-26', period_end: '2026-10-09', bank_account: 'BANK-PR', lines: [{ employee: 'lena.park', gross: '2000.00', employee_taxes: '400.00', employer_taxes: '150.00' }] }), 'pay');
    c.advance('2026-10-11');
    expect(lines(c.api).filter((l) => l[3] === 'PAYRUN-000001')).toEqual([]);
    c.advance('2026-10-12');
    expect(lines(c.api).filter((l) => l[3] === 'PAYRUN-000001')).toEqual([['BANK-PR', '2026-10-12', 'withdrawal', 'PAYRUN-000001', -160000]]);
  });

  it('credits planted interest on its date, booked by the ledger', () => {
    const c = world({ bank: { statements: { as: 'first.bank', interest: [{ date: '2026-10-06', bank_account: 'BANK-OP', amount_cents: 1875, description: 'Interest credited' }] } } });
    c.advance('2026-10-06');
    expect(c.api.read.ledger.balance('4950', '2026-10-06')).toBe(1875);
    expect(c.api.read.cash.unmatchedLines('BANK-OP')).toEqual([]);
  });

  it('does nothing without a statements profile', () => {
    const c = world({});
    ok(call(c.api, c.t.lena, 'POST', '/bank-accounts/BANK-OP/deposits', { date: '2026-10-05', amount: '900.00', credit_account: '4000', reference: 'Lockbox' }), 'deposit');
    c.advance('2026-10-07');
    expect(lines(c.api)).toEqual([]);
  });
});

describe('the controller approving journal entries by the scenario\'s rules', () => {
  const entry = (c: ReturnType<typeof world>, attachments: object[], total = '100.00') => {
    const je = ok(call(c.api, c.t.lena, 'POST', '/journal-entries', { memo: 'Accrual', lines: [{ account: '6500', debit: total, department: 'OPS' }, { account: '2300', credit: total }], attachments }), 'je');
    ok(call(c.api, c.t.lena, 'POST', `/journal-entries/${je.id}/submit`, {}), 'submit');
    return je.id as string;
  };

  it('counts only the support kinds the profile names, and returns the rest with its reason', () => {
    const c = world({ managers: { journal_entries: { as: 'grace.lin', support_kinds: ['file'], return_reason: 'support_not_accepted' } } });
    const file = entry(c, [{ kind: 'file', ref: 'invoice' }]);
    const note = entry(c, [{ kind: 'note', ref: 'trust-me' }]);
    c.advance('2026-10-06');
    expect(c.api.read.journalEntries.entry(file)!.status).toBe('approved');
    expect(c.api.read.journalEntries.entry(note)!.status_history.at(-1)).toMatchObject({ status: 'returned', reason: 'support_not_accepted', by: 'grace.lin' });
  });

  it('approves an entry whose accounts a support rule names only with every kind the rule requires, and returns it naming what it lacks', () => {
    const c = world({ managers: { journal_entries: { as: 'grace.lin', support_rules: [{ accounts: ['6500'], kinds: ['ap_invoice'] }] } } });
    const bills = entry(c, [{ kind: 'ap_invoice', ref: 'APINV-000001' }, { kind: 'report', ref: 'gl-detail' }]);
    const report = entry(c, [{ kind: 'report', ref: 'gl-detail' }]);
    c.advance('2026-10-06');
    expect(c.api.read.journalEntries.entry(bills)!.status).toBe('approved');
    expect(c.api.read.journalEntries.entry(report)!.status_history.at(-1)).toMatchObject({ status: 'returned', reason: 'missing_support', by: 'grace.lin' });
  });

  it('judges an entry no support rule names by the kinds the profile counts', () => {
    const c = world({ managers: { journal_entries: { as: 'grace.lin', support_rules: [{ accounts: ['2310'], kinds: ['message'] }] } } });
    const other = entry(c, [{ kind: 'report', ref: 'gl-detail' }]);
    const none = entry(c, []);
    c.advance('2026-10-06');
    expect([c.api.read.journalEntries.entry(other)!.status, c.api.read.journalEntries.entry(none)!.status]).toEqual(['approved', 'returned']);
  });

  it('waits a business day, and leaves an entry above her limit for someone who may approve it', () => {
    const c = world({ managers: { journal_entries: { as: 'grace.lin' } } });
    const big = entry(c, [{ kind: 'file', ref: 'invoice' }], '60000.00');
    const small = entry(c, [{ kind: 'file', ref: 'invoice' }]);
    c.advance('2026-10-05');
    expect(c.api.read.journalEntries.entry(small)!.status).toBe('submitted');
    c.advance('2026-10-06');
    expect([c.api.read.journalEntries.entry(small)!.status, c.api.read.journalEntries.entry(big)!.status]).toEqual(['approved', 'submitted']);
  });
});
