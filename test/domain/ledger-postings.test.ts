import { Type } from '@sinclair/typebox';
import { JournalBuilder, reverseJournal } from '../../src/domain/ledger/journal';
import { Obj } from '../../src/events/contracts/common';
import { BankStatementLinePosted, Journal } from '../../src/events/contracts/ledger';
import { defineEvent } from '../../src/events/event-types';
import { appendGiven, call, eventCount, openTestErp } from '../support/erp';
import { advanceTo, seedBooks } from '../support/books-fixture';

function books() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  return { erp, api, tokens };
}

/** Any event that carries a journal is posted: an operational event of some later area, say. */
const OperationPosted = defineEvent('TestOperationPosted', Obj({ id: Type.String(), journal: Journal }));

const line = (account: string, debit: number, credit: number) => ({ account, debit, credit, party_type: null, party_id: null, document_id: 'JE-9' });
const given = (lines: ReturnType<typeof line>[], date = '2026-10-05') => ({ type: OperationPosted.type, data: { id: 'JE-9', journal: { date, memo: 'given', lines } } });
const glCount = (erp: ReturnType<typeof books>['erp']) => (erp.db.prepare('SELECT COUNT(*) AS n FROM gl_lines').get() as { n: number }).n;

describe('the chart of accounts', () => {
  it('derives the normal side from the type, and a control flag from a subledger', () => {
    const { api } = books();
    expect(api.read.ledger.account('2000')).toMatchObject({ type: 'liability', normal_side: 'credit', control: true, subledger: 'ap', status: 'active' });
    expect(api.read.ledger.account('6800')).toMatchObject({ normal_side: 'debit', control: false, subledger: null });
  });

  it('accepts a contra account\'s normal side as given', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.grace, 'POST', '/accounts', { code: '1590', name: 'Accumulated depreciation', type: 'asset', normal_side: 'credit' });
    expect(res.body).toMatchObject({ code: '1590', normal_side: 'credit', balance: 0 });
  });

  it('refuses a control account without a subledger, a duplicate code, and a user without ledger.manage', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/accounts', { code: '1990', name: 'X', type: 'asset', control: true }).body.code).toBe('invalid_request');
    expect(call(api, tokens.grace, 'POST', '/accounts', { code: '1000', name: 'X', type: 'asset' }).body.code).toBe('already_exists');
    expect(call(api, tokens.lena, 'POST', '/accounts', { code: '1991', name: 'X', type: 'asset' }).body.code).toBe('forbidden');
  });

  it('deactivates an account without a balance and refuses one with a balance', () => {
    const { erp, api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/accounts/6000/deactivate', { reason: 'merged_into_6500' }).body.status).toBe('inactive');
    appendGiven(erp, [given([line('6500', 100, 0), line('2300', 0, 100)])]);
    expect(call(api, tokens.grace, 'POST', '/accounts/6500/deactivate', { reason: 'x' }).body.code).toBe('invalid_state');
    expect(call(api, tokens.grace, 'POST', '/accounts/6000/activate', { reason: 'reused' }).body.status).toBe('active');
  });
});

describe('the journal builder', () => {
  it('balances by construction: a transfer adds both sides, balanceTo posts the difference', () => {
    const { api } = books();
    const journal = new JournalBuilder('2026-10-05', 'Invoice').debit('6500', 10000, { department: 'OPS' }).debit('6800', 250).balanceTo('2000', { party_type: 'vendor', party_id: 'V-0142' }).build(api.read);
    expect(journal).toEqual({
      date: '2026-10-05', memo: 'Invoice', lines: [
        { account: '6500', debit: 10000, credit: 0, party_type: null, party_id: null, document_id: null, department: 'OPS' },
        { account: '6800', debit: 250, credit: 0, party_type: null, party_id: null, document_id: null },
        { account: '2000', debit: 0, credit: 10250, party_type: 'vendor', party_id: 'V-0142', document_id: null },
      ],
    });
  });

  it('posts a negative amount to the other side and drops zero amounts', () => {
    const { api } = books();
    const journal = new JournalBuilder('2026-10-05', 'm').debit('5000', -300).debit('6000', 0).credit('2100', -300).build(api.read) as any;
    expect(journal.lines.map((l: any) => [l.account, l.debit, l.credit])).toEqual([['5000', 0, 300], ['2100', 300, 0]]);
  });

  it('refuses an unbalanced journal, an unknown account and an inactive one', () => {
    const { api, tokens } = books();
    expect(new JournalBuilder('2026-10-05', 'm').debit('6500', 100).credit('2300', 99).build(api.read)).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(new JournalBuilder('2026-10-05', 'm').transfer('6999', '2300', 100).build(api.read)).toMatchObject({ ok: false, code: 'not_found' });
    call(api, tokens.grace, 'POST', '/accounts/6000/deactivate', { reason: 'unused' });
    expect(new JournalBuilder('2026-10-05', 'm').transfer('6000', '2300', 100).build(api.read)).toMatchObject({ ok: false, code: 'invalid_state' });
  });

  it('reverses a journal by swapping debits and credits on the new date', () => {
    const journal = { date: '2026-10-05', memo: 'm', lines: [line('6500', 100, 0), line('2300', 0, 100)] };
    expect(reverseJournal(journal, '2026-11-01', 'rev')).toEqual({ date: '2026-11-01', memo: 'rev', lines: [line('6500', 0, 100), line('2300', 100, 0)] });
  });
});

describe('the ledger read model folding journals', () => {
  it('writes one gl line per journal line, with its period, source and party', () => {
    const { erp, api } = books();
    const [row] = appendGiven(erp, [given([line('6500', 12500, 0), line('2300', 0, 12500)])]);
    const lines = api.read.ledger.glLinesOf('JE-9');
    expect(lines.map((l) => [l.event_id, l.line_no, l.period, l.account, l.debit, l.credit, l.source_type])).toEqual([
      [row!.seq, 1, '2026-10', '6500', 12500, 0, 'TestOperationPosted'],
      [row!.seq, 2, '2026-10', '2300', 0, 12500, 'TestOperationPosted'],
    ]);
    expect(api.read.ledger.balance('2300', '2026-10-05')).toBe(12500);
  });

  it('throws on an unbalanced journal, and nothing of the event is written', () => {
    const { erp } = books();
    const events = eventCount(erp);
    expect(() => appendGiven(erp, [given([line('6500', 12500, 0), line('2300', 0, 12400)])])).toThrow(/unbalanced/);
    expect([eventCount(erp), glCount(erp)]).toEqual([events, 0]);
  });

  it('throws on a journal to an unknown account, and on a line with both debit and credit', () => {
    const { erp } = books();
    const events = eventCount(erp);
    expect(() => appendGiven(erp, [given([line('6999', 100, 0), line('2300', 0, 100)])])).toThrow(/unknown account 6999/);
    expect(() => appendGiven(erp, [given([line('6500', 100, 100)])])).toThrow(/exactly one of debit and credit/);
    expect([eventCount(erp), glCount(erp)]).toEqual([events, 0]);
  });

  it('throws on a journal dated in a month that has no open period', () => {
    const { erp } = books();
    expect(() => appendGiven(erp, [given([line('6500', 100, 0), line('2300', 0, 100)], '2026-09-30')])).toThrow(/period 2026-09 is not open/);
    expect(glCount(erp)).toBe(0);
  });

  it('throws on a cash movement through an unknown bank account', () => {
    const { erp } = books();
    const data = { id: 'BSL-9', bank_account: 'BANK-OP', date: '2026-10-05', amount: -100, kind: 'fee', reference: 'x', description: '', cash: [{ bank_account: 'BANK-XX', amount: -100, kind: 'fee', reference: 'x' }] };
    expect(() => appendGiven(erp, [{ type: BankStatementLinePosted.type, data }])).toThrow(/unknown bank account BANK-XX/);
  });
});

describe('periods', () => {
  it('opens the month the clock starts in, and each month the clock reaches', () => {
    const { api } = books();
    expect(api.read.ledger.period('2026-10')).toMatchObject({ status: 'open', opened_by: 'system' });
    advanceTo(api, '2026-11-02');
    expect(api.read.ledger.periods().map((p) => [p.period, p.status])).toEqual([['2026-10', 'open'], ['2026-11', 'open']]);
  });

  it('opens a month ahead of the clock, once', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/periods', { period: '2026-09' }).status).toBe(201);
    expect(call(api, tokens.grace, 'POST', '/periods', { period: '2026-09' }).body.code).toBe('already_exists');
  });

  it('goes open → closing → closed after the month ends, and refuses closing a month before its end', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.grace, 'POST', '/periods/2026-10/close', {}).body.code).toBe('invalid_state');
    advanceTo(api, '2026-11-03');
    expect(call(api, tokens.grace, 'POST', '/periods/2026-10/start-close', {}).body.status).toBe('closing');
    const res = call(api, tokens.grace, 'POST', '/periods/2026-10/close', { note: 'October books closed' });
    expect(res.body).toMatchObject({ status: 'closed', closed_by: 'grace.lin', closed_date: '2026-11-03', end_date: '2026-10-31' });
    expect(res.body.status_history.map((h: any) => h.status)).toEqual(['open', 'closing', 'closed']);
  });

  it('closes months in order and reopens them in reverse order, with a reason', () => {
    const { api, tokens } = books();
    call(api, tokens.grace, 'POST', '/periods', { period: '2026-09' });
    advanceTo(api, '2026-11-03');
    expect(call(api, tokens.grace, 'POST', '/periods/2026-10/close', {}).body.code).toBe('invalid_state');
    call(api, tokens.grace, 'POST', '/periods/2026-09/close', {});
    call(api, tokens.grace, 'POST', '/periods/2026-10/close', {});
    expect(call(api, tokens.grace, 'POST', '/periods/2026-09/reopen', { reason: 'late_invoice' }).body.code).toBe('invalid_state');
    const res = call(api, tokens.grace, 'POST', '/periods/2026-10/reopen', { reason: 'late_invoice' });
    expect(res.body.status_history.at(-1)).toMatchObject({ status: 'open', reason: 'late_invoice', by: 'grace.lin' });
  });

  it('refuses close actions on a missing period, a second close, and to a user without period.close', () => {
    const { api, tokens } = books();
    advanceTo(api, '2026-11-03');
    expect(call(api, tokens.grace, 'POST', '/periods/2025-01/close', {}).body.code).toBe('not_found');
    expect(call(api, tokens.lena, 'POST', '/periods/2026-10/close', {}).body.code).toBe('forbidden');
    call(api, tokens.grace, 'POST', '/periods/2026-10/close', {});
    expect(call(api, tokens.grace, 'POST', '/periods/2026-10/close', {}).body.code).toBe('invalid_state');
    expect(call(api, tokens.grace, 'POST', '/periods/2026-10/start-close', {}).body.code).toBe('invalid_state');
    expect(call(api, tokens.grace, 'POST', '/periods/2026-11/reopen', { reason: 'x' }).body.code).toBe('invalid_state');
  });
});

describe('ledger actions on things that are missing or in the wrong state', () => {
  it.each([
    ['deactivate a missing account', '/accounts/6999/deactivate', { reason: 'x' }, 'not_found'],
    ['activate a missing account', '/accounts/6999/activate', { reason: 'x' }, 'not_found'],
    ['activate an active account', '/accounts/6800/activate', { reason: 'x' }, 'invalid_state'],
    ['deactivate an inactive account', '/accounts/6000/deactivate', { reason: 'x' }, 'invalid_state'],
    ['start closing a missing period', '/periods/2025-01/start-close', {}, 'not_found'],
    ['reopen a missing period', '/periods/2025-01/reopen', { reason: 'x' }, 'not_found'],
    ['set a negative self-approval threshold', '/ledger/journal-policy', { preparer_may_approve_up_to: '-1' }, 'invalid_request'],
    ['open a bank account on a missing GL account', '/bank-accounts', { id: 'BANK-X', name: 'X', gl_account: '1099', bank_name: 'B', account_number: '12345678' }, 'not_found'],
  ])('refuses to %s', (_what, path, body, code) => {
    const { api, tokens } = books();
    call(api, tokens.grace, 'POST', '/accounts/6000/deactivate', { reason: 'unused' });
    expect(call(api, tokens.grace, 'POST', path, body).body.code).toBe(code);
  });
});
