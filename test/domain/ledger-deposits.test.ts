import { call, openTestErp } from '../support/erp';
import { seedBooks } from '../support/books-fixture';

function books() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  return { erp, api, tokens };
}
const OPENING = { date: '2026-10-05', amount: '250000.00', credit_account: '3000', reference: 'Opening balance', memo: 'Opening cash' };
const tie = (api: ReturnType<typeof books>['api'], token: string) =>
  call(api, token, 'GET', '/reports/control-ties').body.rows.find((a: { account: string }) => a.account === '1000');

describe('a deposit booked into the operating account', () => {
  it('debits its cash account, credits the account named, and records the cash movement, so cash ties', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.grace, 'POST', '/bank-accounts/BANK-OP/deposits', OPENING);
    expect(res.status).toBe(201);
    expect(res.body.book_balance).toBe(250000);
    expect(api.read.ledger.balance('1000', '2026-10-05')).toBe(25_000_000);
    expect(api.read.ledger.balance('3000', '2026-10-05')).toBe(25_000_000);
    expect(tie(api, tokens.grace)).toMatchObject({ gl_balance: 250000, subledger_balance: 250000, difference: 0 });
  });

  it.each([
    ['a negative amount', { ...OPENING, amount: '-5.00' }, 422, 'invalid_request'],
    ['a credit to the cash account itself', { ...OPENING, credit_account: '1000' }, 422, 'invalid_request'],
    ['a date after today', { ...OPENING, date: '2026-10-06' }, 422, 'invalid_request'],
    ['a month with no open period', { ...OPENING, date: '2026-08-31' }, 409, 'period_closed'],
    ['an unknown credit account', { ...OPENING, credit_account: '9999' }, 404, 'not_found'],
  ])('is refused for %s', (_name, body, status, code) => {
    const { api, tokens } = books();
    const res = call(api, tokens.grace, 'POST', '/bank-accounts/BANK-OP/deposits', body);
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(api.read.ledger.balance('1000', '2026-10-31')).toBe(0);
  });

  it('is refused for an unknown bank account, and for a user without journal_entry.post', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/bank-accounts/BANK-XX/deposits', OPENING).body.code).toBe('not_found');
    expect(call(api, tokens.hannah, 'POST', '/bank-accounts/BANK-OP/deposits', OPENING).body.code).toBe('forbidden');
  });
});

describe('a wire out of the operating account for an equipment purchase', () => {
  it('debits the account named, credits cash, records the cash movement, and cash still ties', () => {
    const { api, tokens } = books();
    call(api, tokens.grace, 'POST', '/bank-accounts/BANK-OP/deposits', OPENING);
    const res = call(api, tokens.grace, 'POST', '/bank-accounts/BANK-OP/withdrawals', { date: '2026-10-05', amount: '40000.00', debit_account: '1400', reference: 'Wire 7731', memo: 'Prepaid insurance' });
    expect(res.status).toBe(201);
    expect(res.body.book_balance).toBe(210000);
    expect(api.read.ledger.balance('1400', '2026-10-05')).toBe(4_000_000);
    expect(tie(api, tokens.grace)).toMatchObject({ gl_balance: 210000, subledger_balance: 210000, difference: 0 });
  });

  it('is refused for a debit to the cash account itself, and for a negative amount', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/bank-accounts/BANK-OP/withdrawals', { date: '2026-10-05', amount: '5.00', debit_account: '1000', reference: 'x' }).body.code).toBe('invalid_request');
    expect(call(api, tokens.grace, 'POST', '/bank-accounts/BANK-OP/withdrawals', { date: '2026-10-05', amount: '-5.00', debit_account: '1400', reference: 'x' }).body.code).toBe('invalid_request');
  });
});
