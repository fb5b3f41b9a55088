import { advanceTo, ok } from '../support/books-fixture';
import { seedCloseBooks } from '../support/close-fixture';
import { call, eventCount, openTestErp } from '../support/erp';

function books() {
  const { erp, api } = openTestErp();
  const t = seedCloseBooks(api);
  ok(call(api, t.lena, 'POST', '/bank-accounts/BANK-OP/deposits', { date: '2026-10-05', amount: '10000.00', credit_account: '3000', reference: 'Opening', memo: 'Opening' }), 'opening');
  return { erp, api, t };
}
const book = (api: any, id: string) => api.read.cash.bookBalance(id, '2026-12-31');
const LINE = { bank_account: 'BANK-OP', date: '2026-10-05', reference: 'X' };

describe('a transfer between two company bank accounts', () => {
  it('moves the cash out of one and into the other, in the journal and the cash subledger alike', () => {
    const { api, t } = books();
    const res = call(api, t.grace, 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-PR', amount: '2500.00', memo: 'Fund payroll' });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe('TRF-000001');
    expect(res.body.movements.map((m: any) => [m.bank_account, m.amount])).toEqual([['BANK-OP', -2500], ['BANK-PR', 2500]]);
    expect([book(api, 'BANK-OP'), book(api, 'BANK-PR')]).toEqual([750_000, 250_000]);
    expect(api.read.ledger.balance('1010', '2026-12-31')).toBe(250_000);
    expect(call(api, t.grace, 'GET', '/reports/control-ties').body.tied).toBe(true);
  });

  it('refuses the same account twice, an unknown account, a zero amount, a date ahead, and a user without bank.transfer', () => {
    const { erp, api, t } = books();
    const before = eventCount(erp);
    expect(call(api, t.grace, 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-OP', amount: 5 }).body.code).toBe('invalid_request');
    expect(call(api, t.grace, 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-XX', amount: 5 }).status).toBe(404);
    expect(call(api, t.grace, 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-PR', amount: 0 }).body.code).toBe('invalid_request');
    expect(call(api, t.grace, 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-PR', amount: 5, date: '2026-10-06' }).body.code).toBe('invalid_request');
    expect(call(api, t.lena, 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-PR', amount: 5 }).body.code).toBe('forbidden');
    expect(eventCount(erp)).toBe(before + 5);
    expect(book(api, 'BANK-PR')).toBe(0);
  });
});

describe("a bank account's minimum balance", () => {
  it('is set by the ledger manager and shown in cash-position as the room above it', () => {
    const { api, t } = books();
    expect(call(api, t.grace, 'POST', '/bank-accounts/BANK-OP/minimum-balance', { amount: '4000.00', note: 'Treasury policy' }).body.minimum_balance).toBe(4000);
    const row = call(api, t.grace, 'GET', '/reports/cash-position').body.rows[0];
    expect(row).toMatchObject({ bank_account: 'BANK-OP', book_balance: 10000, minimum_balance: 4000, above_minimum: 6000, below_minimum: false });
    expect(call(api, t.grace, 'GET', '/bank-accounts').body.items[0].minimum_balance).toBe(4000);
  });

  it('refuses a negative amount, an unknown account and a user without ledger.manage', () => {
    const { api, t } = books();
    expect(call(api, t.grace, 'POST', '/bank-accounts/BANK-OP/minimum-balance', { amount: -1 }).body.code).toBe('invalid_request');
    expect(call(api, t.grace, 'POST', '/bank-accounts/BANK-ZZ/minimum-balance', { amount: 1 }).status).toBe(404);
    expect(call(api, t.lena, 'POST', '/bank-accounts/BANK-OP/minimum-balance', { amount: 1 }).body.code).toBe('forbidden');
  });
});

describe('statement lines of interest, withdrawals and transfers', () => {
  it('books interest by itself: Dr cash / Cr 4950, matched to its own bank transaction', () => {
    const { api, t } = books();
    const res = call(api, t.bank, 'POST', '/bank-statement-lines', { ...LINE, amount: '12.34', kind: 'interest', description: 'Interest credited' });
    expect(res.body).toMatchObject({ kind: 'interest', amount: 12.34, status: 'matched' });
    expect(api.read.ledger.balance('4950', '2026-12-31')).toBe(1234);
    expect(book(api, 'BANK-OP')).toBe(1_001_234);
  });

  it('refuses a withdrawal line with a positive amount and a zero transfer line', () => {
    const { api, t } = books();
    expect(call(api, t.bank, 'POST', '/bank-statement-lines', { ...LINE, amount: '5.00', kind: 'withdrawal' }).body.code).toBe('invalid_request');
    expect(call(api, t.bank, 'POST', '/bank-statement-lines', { ...LINE, amount: 0, kind: 'transfer' }).body.code).toBe('invalid_request');
    expect(call(api, t.bank, 'POST', '/bank-statement-lines', { ...LINE, amount: '-5.00', kind: 'transfer' }).status).toBe(201);
  });
});

describe('bank reconciliation', () => {
  /** The bank's lines for the opening deposit and a withdrawal, the day after. */
  function withStatement() {
    const b = books();
    ok(call(b.api, b.t.lena, 'POST', '/bank-accounts/BANK-OP/withdrawals', { date: '2026-10-05', amount: '300.00', debit_account: '6100', reference: 'Rent wire', memo: 'Rent' }), 'wire');
    advanceTo(b.api, '2026-10-06');
    ok(call(b.api, b.t.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-06', amount: '10000.00', kind: 'deposit', reference: 'DEP-000001' }), 'deposit line');
    return b;
  }
  const btOf = (api: any, reference: string) => api.read.cash.transactionsByReference(reference)[0].id;

  it('lists outstanding items and the lines not booked, with the difference they explain', () => {
    const { api, t } = withStatement();
    const report = call(api, t.grace, 'GET', '/reports/bank-reconciliation', undefined, { query: { bank_account: 'BANK-OP', as_of: '2026-10-06' } }).body.accounts[0];
    expect(report).toMatchObject({
      bank_account: 'BANK-OP', statement_balance: 10000, book_balance: 9700,
      outstanding_payments: { total: -300 }, deposits_in_transit: { total: 10000 }, unbooked_statement_lines: { total: 10000 },
      adjusted_book_balance: 10000, difference: 0, reconciled: false, last_reconciliation: null,
    });
  });

  it('is refused while a statement line is not matched to a book item', () => {
    const { api, t } = withStatement();
    const res = call(api, t.lena, 'POST', '/bank-reconciliations', { bank_account: 'BANK-OP', as_of: '2026-10-06' });
    expect([res.status, res.body.code, res.body.detail]).toEqual([409, 'invalid_state', '1 statement line to 2026-10-06 has no book item: BSL-000001 (deposit 10,000.00). Match or book them first.']);
  });

  it('completes once every line is matched, keeping what is still outstanding, and is then the last reconciliation', () => {
    const { api, t } = withStatement();
    ok(call(api, t.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: btOf(api, 'DEP-000001') }), 'match');
    const res = call(api, t.lena, 'POST', '/bank-reconciliations', { bank_account: 'BANK-OP', as_of: '2026-10-06', statement_balance: '10000.00', note: 'October week 1' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'BREC-000001', bank_account: 'BANK-OP', as_of: '2026-10-06', statement_balance: 10000, book_balance: 9700, outstanding: [{ kind: 'transfer', reference: 'WDL-000001', amount: -300 }] });
    expect(call(api, t.grace, 'GET', '/bank-accounts/BANK-OP').body.last_reconciled_as_of).toBe('2026-10-06');
    expect(call(api, t.grace, 'GET', '/bank-reconciliations').body.items).toMatchObject([{ id: 'BREC-000001', outstanding_items: 1 }]);
  });

  it("is refused when the statement's closing balance is not the lines on file", () => {
    const { api, t } = withStatement();
    ok(call(api, t.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: btOf(api, 'DEP-000001') }), 'match');
    expect(call(api, t.lena, 'POST', '/bank-reconciliations', { bank_account: 'BANK-OP', as_of: '2026-10-06', statement_balance: '9999.00' }).body.detail)
      .toBe("The statement's balance 9,999.00 is not the 10,000.00 of the statement lines on file to 2026-10-06.");
  });

  it('is refused when a line is matched to a book item of another amount', () => {
    const { api, t } = withStatement();
    ok(call(api, t.bank, 'POST', '/bank-statement-lines', { bank_account: 'BANK-OP', date: '2026-10-06', amount: '-310.00', kind: 'withdrawal', reference: 'WDL-000001' }), 'line');
    ok(call(api, t.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: btOf(api, 'DEP-000001') }), 'match');
    ok(call(api, t.lena, 'POST', '/bank-statement-lines/BSL-000002/match', { reference: btOf(api, 'WDL-000001') }), 'match');
    const res = call(api, t.lena, 'POST', '/bank-reconciliations', { bank_account: 'BANK-OP', as_of: '2026-10-06' });
    expect(res.body.detail).toBe('The statement (9,690.00) and the adjusted book balance differ by -10.00: a line is matched to a book item of another amount.');
  });

  it('refuses a date after today and a user without bank.reconcile', () => {
    const { api, t } = withStatement();
    expect(call(api, t.lena, 'POST', '/bank-reconciliations', { bank_account: 'BANK-OP', as_of: '2026-10-07' }).body.code).toBe('invalid_request');
    expect(call(api, t.mia, 'POST', '/bank-reconciliations', { bank_account: 'BANK-OP', as_of: '2026-10-06' }).body.code).toBe('forbidden');
  });

  it("clears the close checklist's bank item once reconciled as of the month end", () => {
    const { api, t } = withStatement();
    ok(call(api, t.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: btOf(api, 'DEP-000001') }), 'match');
    advanceTo(api, '2026-11-02');
    for (const account of ['BANK-OP', 'BANK-PR']) ok(call(api, t.lena, 'POST', '/bank-reconciliations', { bank_account: account, as_of: '2026-10-31' }), account);
    expect(call(api, t.grace, 'GET', '/periods/2026-10/close-checklist').body.checks.find((c: any) => c.id === 'bank_reconciled')).toMatchObject({ ok: true, problems: [] });
  });
});
