import { advanceTo, ok } from '../support/books-fixture';
import { postedEntry, seedCloseBooks } from '../support/close-fixture';
import { call, eventCount, openTestErp, systemCall } from '../support/erp';

function books(start = '2026-10-05') {
  const { erp, api } = openTestErp();
  return { erp, api, t: seedCloseBooks(api, start) };
}

const ACCRUAL = {
  date: '2026-10-31', memo: 'Accrue October maintenance, billed in November', auto_reverse_on: '2026-11-01',
  lines: [{ account: '6500', debit: '1200.00', department: 'OPS' }, { account: '2300', credit: '1200.00' }],
  attachments: [{ kind: 'file', ref: 'SR-7001', description: 'Service report' }],
};
const balance = (api: any, token: string, account: string, asOf: string) => call(api, token, 'GET', `/accounts/${account}`, undefined, { query: { as_of: asOf } }).body.balance;

describe('a reversing entry (an accrual that reverses on the first of the next month)', () => {
  it('is drafted with its reversal date', () => {
    const { api, t } = books();
    const res = call(api, t.lena, 'POST', '/journal-entries', ACCRUAL);
    expect([res.status, res.body.reverse_on, res.body.status]).toEqual([201, '2026-11-01', 'draft']);
  });

  it("takes the seed's ERP name for the date, entry_date, and refuses both when they disagree", () => {
    const { api, t } = books();
    const { date, ...rest } = ACCRUAL;
    expect(call(api, t.lena, 'POST', '/journal-entries', { ...rest, entry_date: date }).body.date).toBe('2026-10-31');
    expect(call(api, t.lena, 'POST', '/journal-entries', { ...ACCRUAL, entry_date: '2026-10-30' }).body.code).toBe('invalid_request');
  });

  it('refuses a reversal date in the same month as the entry', () => {
    const { api, t } = books();
    const res = call(api, t.lena, 'POST', '/journal-entries', { ...ACCRUAL, auto_reverse_on: '2026-10-31' });
    expect([res.status, res.body.code, res.body.detail]).toEqual([422, 'invalid_request', 'A reversing entry dated 2026-10-31 reverses in a later month: on 2026-11-01 or after, not 2026-10-31.']);
  });

  it('posts its lines on its date and their reversal on the reversal date, in one event', () => {
    const { erp, api, t } = books();
    advanceTo(api, '2026-11-02');
    const before = eventCount(erp);
    const posted = postedEntry(api, t, ACCRUAL);
    expect(posted).toMatchObject({ status: 'reversed', reversal_date: '2026-11-01', posted_by: 'lena.park' });
    expect(posted.status_history.map((s: any) => [s.status, s.reason])).toEqual([['draft', null], ['submitted', null], ['approved', null], ['posted', null], ['reversed', 'reversing_entry']]);
    expect(eventCount(erp)).toBe(before + 4);
    expect(balance(api, t.grace, '2300', '2026-10-31')).toBe(1200);
    expect(balance(api, t.grace, '2300', '2026-11-01')).toBe(0);
    expect(balance(api, t.grace, '6500', '2026-11-30')).toBe(0);
    const lines = call(api, t.grace, 'GET', '/gl-lines', undefined, { query: { document_id: posted.id } }).body.items;
    expect(lines.map((l: any) => [l.date, l.account, l.debit, l.credit])).toEqual([
      ['2026-10-31', '6500', 1200, 0], ['2026-10-31', '2300', 0, 1200], ['2026-11-01', '6500', 0, 1200], ['2026-11-01', '2300', 1200, 0],
    ]);
  });

  it('is refused posting when the reversal month is not open, and nothing is posted', () => {
    const { erp, api, t } = books();
    const je = ok(call(api, t.lena, 'POST', '/journal-entries', ACCRUAL), 'draft');
    ok(call(api, t.lena, 'POST', `/journal-entries/${je.id}/submit`, {}), 'submit');
    ok(call(api, t.grace, 'POST', `/journal-entries/${je.id}/approve`, {}), 'approve');
    const before = eventCount(erp);
    const res = call(api, t.lena, 'POST', `/journal-entries/${je.id}/post`, {});
    expect([res.status, res.body.code]).toEqual([409, 'period_closed']);
    expect(res.body.detail).toMatch(/^Period 2026-11 is not open/);
    expect(eventCount(erp)).toBe(before + 1);
    expect(api.read.ledger.glLinesOf(je.id)).toEqual([]);
  });

  it('stops reversing when revised with auto_reverse_on null, and keeps its date when revised without it', () => {
    const { api, t } = books();
    const je = ok(call(api, t.lena, 'POST', '/journal-entries', ACCRUAL), 'draft');
    expect(call(api, t.lena, 'POST', `/journal-entries/${je.id}/revise`, { lines: ACCRUAL.lines }).body.reverse_on).toBe('2026-11-01');
    expect(call(api, t.lena, 'POST', `/journal-entries/${je.id}/revise`, { lines: ACCRUAL.lines, auto_reverse_on: null }).body.reverse_on).toBeNull();
  });

  it('cannot be reversed again by hand once its reversal is posted', () => {
    const { api, t } = books();
    advanceTo(api, '2026-11-02');
    const posted = postedEntry(api, t, ACCRUAL);
    expect(call(api, t.lena, 'POST', `/journal-entries/${posted.id}/reverse`, { reason: 'again' }).body.code).toBe('invalid_state');
  });
});

describe('support attached to an entry', () => {
  it('refuses a message that does not exist or that the preparer cannot read', () => {
    const { api, t } = books();
    const res = call(api, t.lena, 'POST', '/journal-entries', { ...ACCRUAL, attachments: [{ kind: 'message', ref: 'MSG-000042' }] });
    expect([res.status, res.body.code, res.body.detail]).toEqual([404, 'not_found', 'No message MSG-000042 that you can read to attach as support.']);
  });

  it('accepts a message addressed to the preparer, and refuses an entry reference that does not exist', () => {
    const { api, t } = books();
    ok(systemCall(api, 'POST', '/messages/inbound', { box: 'personal', owner: 'lena.park', from: 'billing@power.example', to: ['lena.park@northgate.example'], subject: 'Meter reading', body: 'October: 41,300 kWh.' }), 'mail');
    const je = call(api, t.lena, 'POST', '/journal-entries', { ...ACCRUAL, attachments: [{ kind: 'message', ref: 'MSG-000001', description: 'Meter reading' }] });
    expect(je.status).toBe(201);
    expect(call(api, t.lena, 'POST', `/journal-entries/${je.body.id}/attachments`, { kind: 'journal_entry', ref: 'JE-000099' }).body.code).toBe('not_found');
  });
});

const TEMPLATE = {
  memo: 'Vacation earned', day: 0, start_period: '2026-10', end_period: '2026-12',
  lines: [{ account: '6100', debit: '850.00', department: 'OPS' }, { account: '2300', credit: '850.00' }],
  attachments: [{ kind: 'file', ref: 'vacation-policy' }],
};

describe('a recurring entry', () => {
  it('is set up with its lines, months and support', () => {
    const { api, t } = books();
    const res = call(api, t.lena, 'POST', '/recurring-entries', TEMPLATE);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'RJE-000001', status: 'active', day: 0, start_period: '2026-10', end_period: '2026-12', reversing: false, total: 850, entries: [] });
    expect(res.body.lines[0]).toMatchObject({ account: '6100', debit: 850, credit: 0, department: 'OPS' });
  });

  it("drafts one month's entry, dated that month's last day, which then goes through the ordinary flow", () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/recurring-entries', TEMPLATE), 'template');
    const je = call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/generate', { period: '2026-10' });
    expect(je.status).toBe(201);
    expect(je.body).toMatchObject({ id: 'JE-000001', date: '2026-10-31', memo: 'Vacation earned, 2026-10', status: 'draft', total: 850, recurring_template: 'RJE-000001', recurring_period: '2026-10', reverse_on: null });
    expect(je.body.links).toContainEqual({ rel: 'recurring_entry', type: 'recurring_entry', id: 'RJE-000001' });
    expect(call(api, t.lena, 'GET', '/recurring-entries/RJE-000001').body).toMatchObject({ last_period: '2026-10', entries: [{ id: 'JE-000001', period: '2026-10', status: 'draft' }] });
    expect(call(api, t.lena, 'GET', '/journal-entries', undefined, { query: { recurring_template: 'RJE-000001' } }).body.total).toBe(1);
  });

  it('drafts a reversing entry on a day of the month when set up so', () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/recurring-entries', { ...TEMPLATE, day: 15, reversing: true }), 'template');
    expect(call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/generate', { period: '2026-11' }).body).toMatchObject({ date: '2026-11-15', reverse_on: '2026-12-01' });
  });

  it('refuses a second entry for the same month, unless the first was cancelled', () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/recurring-entries', TEMPLATE), 'template');
    ok(call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/generate', { period: '2026-10' }), 'first');
    const again = call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/generate', { period: '2026-10' });
    expect([again.status, again.body.code, again.body.detail]).toEqual([409, 'already_exists', "JE-000001 is already RJE-000001's entry for 2026-10 (draft)."]);
    ok(call(api, t.lena, 'POST', '/journal-entries/JE-000001/cancel', { reason: 'wrong_amount' }), 'cancel');
    expect(call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/generate', { period: '2026-10' }).status).toBe(201);
  });

  it('refuses a month outside its range, an unknown template, and any month once ended', () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/recurring-entries', TEMPLATE), 'template');
    expect(call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/generate', { period: '2027-01' }).body.code).toBe('invalid_request');
    expect(call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/generate', { period: '2026-09' }).body.code).toBe('invalid_request');
    expect(call(api, t.lena, 'POST', '/recurring-entries/RJE-000009/generate', { period: '2026-10' }).status).toBe(404);
    expect(call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/end', { reason: 'policy_changed' }).body.status).toBe('ended');
    expect(call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/generate', { period: '2026-10' }).body.code).toBe('invalid_state');
    expect(call(api, t.lena, 'POST', '/recurring-entries/RJE-000001/end', { reason: 'again' }).body.code).toBe('invalid_state');
  });

  it('refuses lines that do not balance, an end before its start, and a user without journal_entry.create', () => {
    const { api, t } = books();
    expect(call(api, t.lena, 'POST', '/recurring-entries', { ...TEMPLATE, lines: [{ account: '6100', debit: 1 }, { account: '2300', credit: 2 }] }).body.code).toBe('invalid_request');
    expect(call(api, t.lena, 'POST', '/recurring-entries', { ...TEMPLATE, end_period: '2026-09' }).body.code).toBe('invalid_request');
    expect(call(api, t.sam, 'POST', '/recurring-entries', TEMPLATE).body.code).toBe('forbidden');
  });

  it('lists templates by status', () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/recurring-entries', TEMPLATE), 'one');
    ok(call(api, t.lena, 'POST', '/recurring-entries', TEMPLATE), 'two');
    ok(call(api, t.lena, 'POST', '/recurring-entries/RJE-000002/end', { reason: 'duplicate' }), 'end');
    expect(call(api, t.lena, 'GET', '/recurring-entries', undefined, { query: { status: 'active' } }).body.items.map((r: any) => r.id)).toEqual(['RJE-000001']);
  });
});
