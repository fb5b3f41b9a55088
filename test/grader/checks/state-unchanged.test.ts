import { stateUnchanged } from '../../../src/grader/checks/state-unchanged';
import { readEvents } from '../../../src/grader/grade';
import { EvidenceIndex } from '../../../src/grader/evidence';
import { createAppRegistry } from '../../../src/projections';
import { seedSmallOrg } from '../../../src/sim/small-company';
import { call, openTestErp } from '../../support/erp';
import { base, checkContext } from '../../support/grading';

/** A start state and a final state of the small company, the final one changed by `act`. */
function states(act: (api: ReturnType<typeof openTestErp>['api'], tokens: ReturnType<typeof seedSmallOrg>) => void) {
  const start = openTestErp();
  const startTokens = seedSmallOrg(start.api);
  call(start.api, startTokens.grace, 'POST', '/leaves', { user: 'sam.ortiz', start_date: '2026-11-16', end_date: '2026-11-20' });
  const final = openTestErp();
  const tokens = seedSmallOrg(final.api);
  call(final.api, tokens.grace, 'POST', '/leaves', { user: 'sam.ortiz', start_date: '2026-11-16', end_date: '2026-11-20' });
  act(final.api, tokens);
  const events = readEvents(final.erp.db);
  const specs = createAppRegistry().tableSpecs();
  return checkContext({ start: start.erp.db, final: final.erp.db, events, evidence: new EvidenceIndex(events), tableKey: (t) => specs.get(t)?.key });
}

const check = { ...base, id: 'same', type: 'state_unchanged' as const, tables: ['delegations', 'users'] };

describe('a final state with no change to the named tables', () => {
  it('passes', () => {
    const ctx = states((api, t) => call(api, t.grace, 'POST', '/departments', { id: 'QA', name: 'Quality' }));
    expect(stateUnchanged(check, ctx)).toMatchObject({ passed: true, differing: [] });
  });
});

describe('a final state in which another leave was cancelled and a leave added', () => {
  const ctx = states((api, t) => {
    call(api, t.grace, 'POST', '/leaves/LV-000001/cancel', {});
    call(api, t.grace, 'POST', '/leaves', { user: 'maya.chen', start_date: '2026-10-12', end_date: '2026-10-16' });
  });

  it('fails with the changed row, its changed column and the events behind it', () => {
    const out = stateUnchanged(check, ctx);
    expect(out.passed).toBe(false);
    expect(out.detail).toBe('Changed since the start: delegations (2 rows).');
    const cancelled = out.differing!.find((d) => d.kind === 'changed')!;
    expect(cancelled.key).toEqual({ id: 'LV-000001' });
    expect(cancelled.columns).toEqual(['status']);
    const kinds = ctx.events.filter((e) => cancelled.event_ids.includes(e.seq)).map((e) => e.type);
    expect(kinds).toEqual(['LeaveScheduled', 'LeaveCancelled']);
    expect(out.differing!.find((d) => d.kind === 'extra')!.key).toEqual({ id: 'LV-000002' });
  });

  it('passes when `where` leaves the task\'s own scope out', () => {
    expect(stateUnchanged({ ...check, tables: ['delegations'], where: "user_id NOT IN ('sam.ortiz', 'maya.chen')" }, ctx).passed).toBe(true);
  });

  it('takes one condition per table, comparing a table without one whole', () => {
    const scoped = { ...check, where: { delegations: "user_id NOT IN ('sam.ortiz', 'maya.chen')", users: "id = 'maya.chen'" } };
    expect(stateUnchanged(scoped, ctx)).toMatchObject({ passed: true });
    expect(stateUnchanged({ ...check, where: { users: "id = 'maya.chen'" } }, ctx).detail).toBe('Changed since the start: delegations (2 rows).');
  });

  it('fails naming the table when `where` does not fit it', () => {
    expect(stateUnchanged({ ...check, where: 'user_id IS NULL' }, ctx).detail).toMatch(/^state_unchanged on users failed: no such column: user_id/);
  });
});

describe('a table that is not a read model', () => {
  it('fails naming it', () => {
    expect(stateUnchanged({ ...check, tables: ['events'] }, states(() => undefined)).detail).toBe('events is not a read-model table.');
  });
});
