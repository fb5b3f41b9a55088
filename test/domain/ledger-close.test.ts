import { advanceTo, ok } from '../support/books-fixture';
import { postedEntry, seedCloseBooks } from '../support/close-fixture';
import { call, eventCount, openTestErp } from '../support/erp';

function books() {
  const { erp, api } = openTestErp();
  const t = seedCloseBooks(api);
  return { erp, api, t };
}

const PLUG = {
  date: '2026-10-20', memo: 'Make AP agree with the aging',
  lines: [{ account: '2000', debit: '250.00' }, { account: '6500', credit: '250.00' }],
  attachments: [{ kind: 'file', ref: 'aging' }],
};
const ORDINARY = { ...PLUG, memo: 'Reclass maintenance to rent', lines: [{ account: '6100', debit: '250.00' }, { account: '6500', credit: '250.00' }] };
const checklist = (api: any, token: string, period = '2026-10') => call(api, token, 'GET', `/periods/${period}/close-checklist`).body;

describe("a month's close checklist", () => {
  it('lists every check, whether it blocks the close, and is ready when nothing blocking fails', () => {
    const { api, t } = books();
    advanceTo(api, '2026-11-02');
    const list = checklist(api, t.grace);
    expect(list).toMatchObject({ period: '2026-10', status: 'open', end_date: '2026-10-31', ready: true });
    expect(list.checks.map((c: any) => [c.id, c.blocking, c.ok])).toEqual([
      ['control_ties', true, true], ['entries_in_flight', true, true], ['bank_reconciled', false, false], ['depreciation', false, true], ['prepaid_amortization', false, true],
      ['revenue_cutoff', false, true],
    ]);
    expect(list.checks[2].problems).toEqual(['BANK-OP was last reconciled never.', 'BANK-PR was last reconciled never.']);
  });

  it('answers 404 for a month that has no period', () => {
    const { api, t } = books();
    expect(call(api, t.grace, 'GET', '/periods/2031-01/close-checklist').status).toBe(404);
  });
});

describe('closing a month whose control account does not tie', () => {
  it('is refused with close_blocked, naming the account and the difference, and recorded as a probe', () => {
    const { erp, api, t } = books();
    postedEntry(api, t, PLUG);
    advanceTo(api, '2026-11-02');
    const before = eventCount(erp);
    const res = call(api, t.grace, 'POST', '/periods/2026-10/close', {});
    expect([res.status, res.body.code]).toEqual([409, 'close_blocked']);
    expect(res.body.detail).toBe('Period 2026-10 cannot close: control_ties: 2000 Accounts payable is -250.00 in the ledger and 0.00 in the ap subledger: -250.00 apart.');
    expect(erp.db.prepare('SELECT action, outcome, error_code FROM events WHERE seq = ?').get(before + 1)).toEqual({ action: 'period.close', outcome: 'refused', error_code: 'close_blocked' });
    expect(api.read.ledger.period('2026-10')!.status).toBe('open');
    expect(checklist(api, t.grace).ready).toBe(false);
  });

  it('closes once the plug is reversed', () => {
    const { api, t } = books();
    const plug = postedEntry(api, t, PLUG);
    ok(call(api, t.lena, 'POST', `/journal-entries/${plug.id}/reverse`, { reason: 'plug_to_control_account', date: '2026-10-21' }), 'reverse');
    advanceTo(api, '2026-11-02');
    expect(call(api, t.grace, 'POST', '/periods/2026-10/close', {}).body.status).toBe('closed');
  });

  it('is not blocked by a plug dated after the month end', () => {
    const { api, t } = books();
    advanceTo(api, '2026-11-02');
    postedEntry(api, t, { ...PLUG, date: '2026-11-02' });
    expect(call(api, t.grace, 'POST', '/periods/2026-10/close', {}).body.status).toBe('closed');
  });
});

describe('closing a month with an entry still in the approval flow', () => {
  it('is refused while an entry dated in the month is submitted, and allowed once it is posted', () => {
    const { api, t } = books();
    const je = ok(call(api, t.lena, 'POST', '/journal-entries', ORDINARY), 'draft');
    ok(call(api, t.lena, 'POST', `/journal-entries/${je.id}/submit`, {}), 'submit');
    advanceTo(api, '2026-11-02');
    const res = call(api, t.grace, 'POST', '/periods/2026-10/close', {});
    expect([res.body.code, res.body.detail]).toEqual(['close_blocked', `Period 2026-10 cannot close: entries_in_flight: ${je.id} (Reclass maintenance to rent) is submitted; post it, return it or cancel it first.`]);
    ok(call(api, t.grace, 'POST', `/journal-entries/${je.id}/approve`, {}), 'approve');
    ok(call(api, t.lena, 'POST', `/journal-entries/${je.id}/post`, {}), 'post');
    expect(call(api, t.grace, 'POST', '/periods/2026-10/close', {}).body.status).toBe('closed');
  });

  it('is not blocked by a draft or a returned entry, which can only be re-dated once the month is closed', () => {
    const { api, t } = books();
    ok(call(api, t.lena, 'POST', '/journal-entries', ORDINARY), 'draft');
    advanceTo(api, '2026-11-02');
    expect(call(api, t.grace, 'POST', '/periods/2026-10/close', {}).body.status).toBe('closed');
  });
});

describe('a closed month', () => {
  it('refuses postings dated in it (period_closed) and takes them again once reopened with a reason', () => {
    const { api, t } = books();
    advanceTo(api, '2026-11-02');
    ok(call(api, t.grace, 'POST', '/periods/2026-10/close', {}), 'close');
    const je = ok(call(api, t.lena, 'POST', '/journal-entries', ORDINARY), 'draft');
    ok(call(api, t.lena, 'POST', `/journal-entries/${je.id}/submit`, {}), 'submit');
    ok(call(api, t.grace, 'POST', `/journal-entries/${je.id}/approve`, {}), 'approve');
    expect(call(api, t.lena, 'POST', `/journal-entries/${je.id}/post`, {}).body.code).toBe('period_closed');
    ok(call(api, t.grace, 'POST', '/periods/2026-10/reopen', { reason: 'late_invoice' }), 'reopen');
    expect(call(api, t.lena, 'POST', `/journal-entries/${je.id}/post`, {}).body.status).toBe('posted');
  });
});
