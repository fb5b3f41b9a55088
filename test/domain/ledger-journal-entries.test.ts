import { call, eventCount, openTestErp } from '../support/erp';
import { advanceTo, seedBooks, seedVendor } from '../support/books-fixture';

const ACCRUAL = {
  date: '2026-10-20',
  memo: 'Accrue October maintenance',
  lines: [{ account: '6500', debit: '1200.00', department: 'OPS', memo: 'Pump service' }, { account: '2300', credit: '1200.00' }],
  attachments: [{ kind: 'file', ref: 'SR-7001', description: 'Service report' }],
};

function books() {
  const { erp, api } = openTestErp();
  const tokens = seedBooks(api);
  return { erp, api, tokens };
}

/** An entry prepared by Lena Park and taken through the lifecycle up to `until`. */
function entry(until: 'draft' | 'submitted' | 'approved' | 'posted', body: object = ACCRUAL) {
  const b = books();
  const { api, tokens } = b;
  const created = call(api, tokens.lena, 'POST', '/journal-entries', body);
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const steps: [string, string, object][] = [['submitted', 'submit', {}], ['approved', 'approve', {}], ['posted', 'post', {}]];
  const tokenFor: Record<string, string> = { submit: tokens.lena, approve: tokens.grace, post: tokens.lena };
  for (const [state, action, payload] of steps) {
    if (['draft', 'submitted', 'approved', 'posted'].indexOf(until) < ['draft', 'submitted', 'approved', 'posted'].indexOf(state)) break;
    const res = call(api, tokenFor[action]!, 'POST', `/journal-entries/JE-000001/${action}`, payload);
    if (res.status !== 200) throw new Error(`${action}: ${JSON.stringify(res.body)}`);
  }
  return b;
}

const trialBalance = (api: any, token: string, asOf?: string) => call(api, token, 'GET', '/reports/trial-balance', undefined, { query: asOf ? { as_of: asOf } : {} }).body;

describe('a staff accountant drafting a manual journal entry', () => {
  it('drafts it with cents inside and decimals shown, its lines, support and history', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.lena, 'POST', '/journal-entries', ACCRUAL);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'JE-000001', status: 'draft', total: 1200, period: '2026-10', created_by: 'lena.park', attachments: [{ kind: 'file', ref: 'SR-7001', description: 'Service report' }] });
    expect(res.body.lines).toEqual([
      { journal_entry: 'JE-000001', line_no: 1, account: '6500', debit: 1200, credit: 0, department: 'OPS', party_type: null, party_id: null, memo: 'Pump service' },
      { journal_entry: 'JE-000001', line_no: 2, account: '2300', debit: 0, credit: 1200, department: null, party_type: null, party_id: null, memo: '' },
    ]);
    expect(api.read.journalEntries.entry('JE-000001')!.total).toBe(120000);
    expect(api.read.ledger.glLinesOf('JE-000001')).toEqual([]);
  });

  it('dates it today when no date is given', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, date: undefined }).body.date).toBe('2026-10-05');
  });

  it('refuses lines that do not balance', () => {
    const { api, tokens } = books();
    const res = call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, lines: [{ account: '6500', debit: 100 }, { account: '2300', credit: 99.99 }] });
    expect([res.status, res.body.code]).toEqual([422, 'invalid_request']);
    expect(res.body.detail).toBe('The entry does not balance: debits 100.00, credits 99.99.');
  });

  it('refuses a line with both a debit and a credit, or with neither', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, lines: [{ account: '6500', debit: 1, credit: 1 }, { account: '2300', credit: 0 }] }).body.code).toBe('invalid_request');
    expect(call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, lines: [{ account: '6500' }, { account: '2300' }] }).body.code).toBe('invalid_request');
  });

  it('refuses an unknown account, department or party', () => {
    const { api, tokens } = books();
    const lines = (extra: object) => [{ account: '6500', debit: 1, ...extra }, { account: '2300', credit: 1 }];
    expect(call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, lines: lines({ account: '6999' }) }).body.code).toBe('not_found');
    expect(call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, lines: lines({ department: 'XX' }) }).body.code).toBe('not_found');
    expect(call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, lines: lines({ party_type: 'vendor', party_id: 'V-0999' }) }).body.code).toBe('not_found');
    expect(call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, lines: lines({ party_type: 'vendor' }) }).body.code).toBe('invalid_request');
  });

  it('accepts a vendor as the party of a line', () => {
    const { api, tokens } = books();
    seedVendor(api);
    const res = call(api, tokens.lena, 'POST', '/journal-entries', { ...ACCRUAL, lines: [{ account: '6500', debit: 5 }, { account: '2300', credit: 5, party_type: 'vendor', party_id: 'V-0142' }] });
    expect(res.body.lines[1]).toMatchObject({ party_type: 'vendor', party_id: 'V-0142' });
  });

  it('refuses drafting to a user without journal_entry.create', () => {
    const { api, tokens } = books();
    expect(call(api, tokens.sam, 'POST', '/journal-entries', ACCRUAL).body.code).toBe('forbidden');
  });
});

describe('a draft entry', () => {
  it('is revised, given more support, and submitted', () => {
    const { api, tokens } = entry('draft');
    const revised = call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/revise', { lines: [{ account: '6500', debit: 1250 }, { account: '2300', credit: 1250 }] });
    expect(revised.body).toMatchObject({ total: 1250, memo: ACCRUAL.memo, date: '2026-10-20' });
    expect(revised.body.lines).toHaveLength(2);
    const attached = call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/attachments', { kind: 'report', ref: 'grni' });
    expect(attached.body.attachments.map((a: any) => a.ref)).toEqual(['SR-7001', 'grni']);
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/submit', {}).body).toMatchObject({ status: 'submitted', submitted_by: 'lena.park' });
  });

  it('cannot be approved or posted before it is submitted', () => {
    const { api, tokens } = entry('draft');
    expect(call(api, tokens.grace, 'POST', '/journal-entries/JE-000001/approve', {}).body.code).toBe('invalid_state');
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/post', {}).body.code).toBe('invalid_state');
  });

  it('is cancelled with a reason and then takes no further action', () => {
    const { api, tokens } = entry('draft');
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/cancel', { reason: 'duplicate' }).body.status).toBe('cancelled');
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/submit', {}).body.code).toBe('invalid_state');
  });

  it('answers not_found for an entry that does not exist', () => {
    const { api, tokens } = entry('draft');
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000099/submit', {}).status).toBe(404);
    expect(call(api, tokens.lena, 'GET', '/journal-entries/JE-000099').status).toBe(404);
  });
});

describe('a submitted entry', () => {
  it('is approved by the controller within her limit', () => {
    const { api, tokens } = entry('submitted');
    const res = call(api, tokens.grace, 'POST', '/journal-entries/JE-000001/approve', { note: 'support checked' });
    expect(res.body).toMatchObject({ status: 'approved', approved_by: 'grace.lin', approved_date: '2026-10-05' });
  });

  it('is returned to its preparer with a reason, revised and submitted again', () => {
    const { api, tokens } = entry('submitted');
    const returned = call(api, tokens.grace, 'POST', '/journal-entries/JE-000001/return', { reason: 'missing_support', note: 'Attach the invoice' });
    expect(returned.body.status_history.at(-1)).toMatchObject({ status: 'returned', reason: 'missing_support', by: 'grace.lin' });
    call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/attachments', { kind: 'file', ref: 'SR-7002' });
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/submit', {}).body.status).toBe('submitted');
  });

  it('refuses approval to a user without journal_entry.approve', () => {
    const { api, tokens } = entry('submitted');
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/approve', {}).body.code).toBe('forbidden');
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/return', { reason: 'x' }).body.code).toBe('forbidden');
  });

  it('refuses approval above the approver\'s limit with over_limit, and records the probe', () => {
    const { erp, api, tokens } = entry('submitted', { ...ACCRUAL, lines: [{ account: '6500', debit: '50000.01' }, { account: '2300', credit: '50000.01' }] });
    const before = eventCount(erp);
    const res = call(api, tokens.grace, 'POST', '/journal-entries/JE-000001/approve', {});
    expect([res.status, res.body.code]).toEqual([403, 'over_limit']);
    expect(res.body.detail).toBe('JE-000001 totals 50,000.01; your journal entry approval limit is 50,000.00.');
    expect(erp.db.prepare('SELECT outcome, error_code FROM events WHERE seq = ?').get(before + 1)).toEqual({ outcome: 'refused', error_code: 'over_limit' });
  });
});

describe('an entry prepared by the controller herself', () => {
  function ownEntry(amount: string) {
    const b = books();
    call(b.api, b.tokens.grace, 'POST', '/journal-entries', { ...ACCRUAL, lines: [{ account: '6500', debit: amount }, { account: '2300', credit: amount }] });
    call(b.api, b.tokens.grace, 'POST', '/journal-entries/JE-000001/submit', {});
    return b;
  }

  it('cannot be approved by her, its preparer, when no threshold allows it', () => {
    const { api, tokens } = ownEntry('10.00');
    const res = call(api, tokens.grace, 'POST', '/journal-entries/JE-000001/approve', {});
    expect([res.status, res.body.code]).toEqual([403, 'preparer_cannot_approve']);
  });

  it('may be approved by its preparer up to the handbook threshold, and not above it', () => {
    const { api, tokens } = ownEntry('500.00');
    call(api, tokens.grace, 'POST', '/ledger/journal-policy', { preparer_may_approve_up_to: '500.00' });
    expect(call(api, tokens.grace, 'POST', '/journal-entries/JE-000001/approve', {}).body.status).toBe('approved');
    const above = ownEntry('500.01');
    call(above.api, above.tokens.grace, 'POST', '/ledger/journal-policy', { preparer_may_approve_up_to: '500.00' });
    expect(call(above.api, above.tokens.grace, 'POST', '/journal-entries/JE-000001/approve', {}).body.code).toBe('preparer_cannot_approve');
  });
});

describe('an approved entry', () => {
  it('posts its lines to the general ledger on its date', () => {
    const { api, tokens } = entry('approved');
    const res = call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/post', {});
    expect(res.body).toMatchObject({ status: 'posted', posted_by: 'lena.park', posted_event: res.body.event_id });
    expect(api.read.ledger.glLinesOf('JE-000001').map((l) => [l.date, l.account, l.debit, l.credit, l.department])).toEqual([
      ['2026-10-20', '6500', 120000, 0, 'OPS'],
      ['2026-10-20', '2300', 0, 120000, null],
    ]);
  });

  it('cannot be revised or cancelled once posted: the posted document is immutable', () => {
    const { api, tokens } = entry('posted');
    const revise = call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/revise', { lines: ACCRUAL.lines });
    expect([revise.status, revise.body.code]).toEqual([409, 'posted_document_immutable']);
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/cancel', { reason: 'oops' }).body.code).toBe('posted_document_immutable');
  });

  it('is refused posting once its period is closed, as a probe, and nothing is posted', () => {
    const { erp, api, tokens } = entry('draft');
    advanceTo(api, '2026-11-02');
    expect(call(api, tokens.grace, 'POST', '/periods/2026-10/close', {}).status).toBe(200);
    call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/submit', {});
    call(api, tokens.grace, 'POST', '/journal-entries/JE-000001/approve', {});
    const before = eventCount(erp);
    const res = call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/post', {});
    expect([res.status, res.body.code]).toEqual([409, 'period_closed']);
    expect(res.body.detail).toBe('Period 2026-10 is closed; a posting dated 2026-10-20 is refused.');
    expect(erp.db.prepare('SELECT actor, action, outcome, error_code FROM events WHERE seq = ?').get(before + 1)).toEqual({ actor: 'lena.park', action: 'journal_entry.post', outcome: 'refused', error_code: 'period_closed' });
    expect(eventCount(erp)).toBe(before + 1);
    expect(api.read.ledger.glLinesOf('JE-000001')).toEqual([]);
    expect(api.read.journalEntries.entry('JE-000001')!.status).toBe('approved');
  });

  it('is refused posting when dated in a month that was never opened', () => {
    const { api, tokens } = entry('approved', { ...ACCRUAL, date: '2026-12-15' });
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/post', {}).body.code).toBe('period_closed');
    call(api, tokens.grace, 'POST', '/periods', { period: '2026-12' });
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/post', {}).body.status).toBe('posted');
  });
});

describe('a posted entry that is reversed', () => {
  it('posts the swapped lines on the reversal date and leaves the trial balance balanced', () => {
    const { api, tokens } = entry('posted');
    advanceTo(api, '2026-11-02');
    const res = call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/reverse', { date: '2026-11-01', reason: 'accrual_reversal' });
    expect(res.body).toMatchObject({ status: 'reversed', reversal_date: '2026-11-01' });
    expect(api.read.ledger.glLinesOf('JE-000001').filter((l) => l.date === '2026-11-01').map((l) => [l.account, l.debit, l.credit])).toEqual([
      ['6500', 0, 120000],
      ['2300', 120000, 0],
    ]);
    const october = trialBalance(api, tokens.grace, '2026-10-31');
    expect(october.balanced).toBe(true);
    expect(october.rows.find((r: any) => r.account === '2300')).toMatchObject({ credit: 1200, balance: 1200 });
    const november = trialBalance(api, tokens.grace);
    expect(november).toMatchObject({ balanced: true, totals: { debit: 0, credit: 0 } });
    expect(november.rows.every((r: any) => r.balance === 0)).toBe(true);
  });

  it('refuses a reversal dated before the entry, one in a closed period, and a second reversal', () => {
    const { api, tokens } = entry('posted');
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/reverse', { date: '2026-10-19', reason: 'error' }).body.code).toBe('invalid_request');
    advanceTo(api, '2026-11-02');
    call(api, tokens.grace, 'POST', '/periods/2026-10/close', {});
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/reverse', { date: '2026-10-31', reason: 'error' }).body.code).toBe('period_closed');
    call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/reverse', { reason: 'error' });
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/reverse', { reason: 'error' }).body.code).toBe('invalid_state');
  });

  it('refuses reversing an entry that was never posted', () => {
    const { api, tokens } = entry('approved');
    expect(call(api, tokens.lena, 'POST', '/journal-entries/JE-000001/reverse', { reason: 'error' }).body.code).toBe('invalid_state');
  });

  it('lists entries by status', () => {
    const { api, tokens } = entry('posted');
    expect(call(api, tokens.sam, 'GET', '/journal-entries', undefined, { query: { status: 'posted' } }).body).toMatchObject({ total: 1, items: [{ id: 'JE-000001', total: 1200 }] });
  });
});

describe('journal entry actions from the wrong state', () => {
  it.each([
    ['revise a submitted entry', 'submitted', 'revise', { lines: ACCRUAL.lines }, 'invalid_state'],
    ['revise with lines that do not balance', 'draft', 'revise', { lines: [{ account: '6500', debit: 2 }, { account: '2300', credit: 1 }] }, 'invalid_request'],
    ['return a draft', 'draft', 'return', { reason: 'missing_support' }, 'invalid_state'],
    ['attach support to a posted entry', 'posted', 'attachments', { kind: 'file', ref: 'SR-1' }, 'posted_document_immutable'],
    ['submit an entry twice', 'submitted', 'submit', {}, 'invalid_state'],
    ['post an entry twice', 'posted', 'post', {}, 'posted_document_immutable'],
  ] as const)('refuses to %s', (_what, state, action, body, code) => {
    const { api, tokens } = entry(state);
    const token = action === 'return' ? tokens.grace : tokens.lena;
    expect(call(api, token, 'POST', `/journal-entries/JE-000001/${action}`, body).body.code).toBe(code);
  });
});
