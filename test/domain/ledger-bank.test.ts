import { Type } from '@sinclair/typebox';
import { Obj } from '../../src/events/contracts/common';
import { CashMovement, Journal } from '../../src/events/contracts/ledger';
import { defineEvent } from '../../src/events/event-types';
import { appendGiven, call, openTestErp } from '../support/erp';
import { advanceTo, seedBooks } from '../support/books-fixture';

/** How a later area records money leaving the bank: a journal and the cash movement, in one event. */
const PaymentSent = defineEvent('TestPaymentSent', Obj({ id: Type.String(), journal: Journal, cash: Type.Array(CashMovement) }));

function books() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  return { erp, api, tokens };
}

function paymentOf(erp: ReturnType<typeof books>['erp'], cents: number, id = 'PAY-000001', date = '2026-10-05') {
  const journal = { date, memo: id, lines: [
    { account: '2000', debit: cents, credit: 0, party_type: 'vendor' as const, party_id: 'V-0142', document_id: id },
    { account: '1000', debit: 0, credit: cents, party_type: null, party_id: null, document_id: id },
  ] };
  return appendGiven(erp, [{ type: PaymentSent.type, data: { id, journal, cash: [{ bank_account: 'BANK-OP', amount: -cents, kind: 'payment', reference: id }] } }])[0]!;
}

const FEE = { bank_account: 'BANK-OP', date: '2026-10-05', amount: '-35.00', kind: 'fee', reference: 'WIRE FEE', description: 'Outgoing wire' };

describe('company bank accounts', () => {
  it('keeps only the masked number and shows the book balance', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.grace, 'GET', '/bank-accounts/BANK-OP');
    expect(res.body).toMatchObject({ id: 'BANK-OP', gl_account: '1000', masked_number: '••••••••4410', book_balance: 0 });
    expect(JSON.stringify(api.read.cash.bankAccount('BANK-OP'))).not.toContain('000123454410');
  });

  it('refuses a bank account posting to an account that is not a cash control account, and a duplicate id', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/bank-accounts', { id: 'BANK-X', name: 'X', gl_account: '6800', bank_name: 'B', account_number: '12345678' }).body.code).toBe('invalid_request');
    expect(call(api, tokens.grace, 'POST', '/bank-accounts', { id: 'BANK-OP', name: 'X', gl_account: '1000', bank_name: 'B', account_number: '12345678' }).body.code).toBe('already_exists');
  });
});

describe('an operational event that moves cash', () => {
  it('records a bank transaction dated with its journal, and the cash subledger ties to the GL', () => {
    const { erp, api } = books();
    const row = paymentOf(erp, 110880);
    expect(api.read.cash.transactionsByReference('PAY-000001')).toEqual([expect.objectContaining({
      id: `BT-${String(row.seq).padStart(6, '0')}-1`, bank_account: 'BANK-OP', amount: -110880, kind: 'payment', date: '2026-10-05', statement_line: null, source_type: 'TestPaymentSent',
    })]);
    expect(api.read.cash.bookBalance('BANK-OP', '2026-10-05')).toBe(-110880);
    expect(api.read.ledger.balance('1000', '2026-10-05')).toBe(-110880);
  });
});

describe('the bank posting statement lines', () => {
  it('books a fee: Dr 6800 bank fees, Cr cash, a bank transaction, and the line matched to it', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.bank, 'POST', '/bank-statement-lines', FEE);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'BSL-000001', amount: -35, kind: 'fee', status: 'matched' });
    const [bt] = api.read.cash.transactionsByReference('BSL-000001');
    expect(bt).toMatchObject({ amount: -3500, kind: 'fee', statement_line: 'BSL-000001' });
    expect(res.body.matched).toBe(bt!.id);
    expect(api.read.ledger.glLinesOf('BSL-000001').map((l) => [l.account, l.debit, l.credit])).toEqual([['6800', 3500, 0], ['1000', 0, 3500]]);
  });

  it('records a cleared payment without posting anything, unmatched', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, amount: -1108.8, kind: 'payment_cleared', reference: 'PAY-000001' });
    expect(res.body).toMatchObject({ status: 'unmatched', matched: null, amount: -1108.8 });
    expect(api.read.ledger.glLinesOf('BSL-000001')).toEqual([]);
    expect(api.read.cash.transactionsByReference('BSL-000001')).toEqual([]);
  });

  it('books a late fee for a closed month on the business date instead', () => {
    const { api, tokens } = books();
    advanceTo(api, '2026-11-02');
    call(api, tokens.grace, 'POST', '/periods/2026-10/close', {});
    call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, date: '2026-10-30' });
    expect(api.read.ledger.glLinesOf('BSL-000001').map((l) => l.date)).toEqual(['2026-11-02', '2026-11-02']);
    expect(api.read.cash.statementLine('BSL-000001')!.date).toBe('2026-10-30');
  });

  it('refuses a line whose sign does not fit its kind, a zero amount, and a date after today', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, kind: 'deposit' }).body.code).toBe('invalid_request');
    expect(call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, kind: 'payment_cleared', amount: 10 }).body.code).toBe('invalid_request');
    expect(call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, amount: 0 }).body.code).toBe('invalid_request');
    expect(call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, date: '2026-10-06' }).body.code).toBe('invalid_request');
  });

  it('refuses an unknown bank account, and a poster without bank_statement.post', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, bank_account: 'BANK-XX' }).body.code).toBe('not_found');
    expect(call(api, tokens.lena, 'POST', '/bank-statement-lines', FEE).body.code).toBe('forbidden');
  });
});

describe('reconciling a cleared payment', () => {
  function cleared() {
    const b = books();
    const row = paymentOf(b.erp, 110880);
    call(b.api, b.tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, amount: -1108.8, kind: 'payment_cleared', reference: 'PAY-000001' });
    return { ...b, bt: `BT-${String(row.seq).padStart(6, '0')}-1` };
  }

  it('matches the statement line to the bank transaction, clearing both sides', () => {
    const { api, tokens, bt } = cleared();
    const res = call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: bt });
    expect(res.body).toMatchObject({ status: 'matched', matched: bt, matched_by: 'lena.park' });
    expect(api.read.cash.bankTransaction(bt)!.statement_line).toBe('BSL-000001');
    expect(call(api, tokens.lena, 'GET', '/bank-transactions', undefined, { query: { uncleared: 'true' } }).body.total).toBe(0);
  });

  it('unmatches with a reason, leaving the transaction uncleared again', () => {
    const { api, tokens, bt } = cleared();
    call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: bt });
    expect(call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/unmatch', { reason: 'wrong_item' }).body).toMatchObject({ status: 'unmatched', matched: null });
    expect(api.read.cash.bankTransaction(bt)!.statement_line).toBeNull();
  });

  it('refuses a second match, an unknown transaction, and an unmatch of an unmatched line', () => {
    const { api, tokens, bt } = cleared();
    expect(call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/unmatch', { reason: 'x' }).body.code).toBe('invalid_state');
    expect(call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: 'BT-999999-1' }).body.code).toBe('not_found');
    call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: bt });
    expect(call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: bt }).body.code).toBe('invalid_state');
  });

  it('refuses to clear one transaction with two statement lines', () => {
    const { api, tokens, bt } = cleared();
    call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, amount: -1108.8, kind: 'payment_cleared', reference: 'PAY-000001 again' });
    call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: bt });
    expect(call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000002/match', { reference: bt }).body.code).toBe('invalid_state');
  });

  it('refuses matching to a user without bank.reconcile', () => {
    const { api, tokens, bt } = cleared();
    expect(call(api, tokens.sam, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: bt }).body.code).toBe('forbidden');
  });
});

describe('matching refusals across accounts and missing lines', () => {
  it('refuses a bank transaction of another bank account, and actions on a missing line', () => {
    const b = books();
    const row = paymentOf(b.erp, 500);
    call(b.api, b.tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, bank_account: 'BANK-PR', amount: -5, kind: 'payment_cleared', reference: 'x' });
    const bt = `BT-${String(row.seq).padStart(6, '0')}-1`;
    expect(call(b.api, b.tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: bt }).body.code).toBe('invalid_request');
    expect(call(b.api, b.tokens.lena, 'POST', '/bank-statement-lines/BSL-000099/match', { reference: 'PAY-1' }).body.code).toBe('not_found');
    expect(call(b.api, b.tokens.lena, 'POST', '/bank-statement-lines/BSL-000099/unmatch', { reason: 'x' }).body.code).toBe('not_found');
  });

  it('matches a line to a document reference that is not a bank transaction', () => {
    const { api, tokens } = books();
    call(api, tokens.bank, 'POST', '/bank-statement-lines', { ...FEE, amount: 40, kind: 'deposit', reference: 'LOCKBOX OCT' });
    expect(call(api, tokens.lena, 'POST', '/bank-statement-lines/BSL-000001/match', { reference: 'JE-000007' }).body).toMatchObject({ status: 'matched', matched: 'JE-000007' });
  });
});
