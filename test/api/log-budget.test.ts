import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { advanceClock } from '../../src/domain/clock/actions';
import { seedSmallOrg } from '../../src/sim/small-company';
import { openTestErp } from '../support/erp';
import { toApiRequest } from '../../src/api/http-app';

/** What one client can add to the append-only log between two moves of the clock is bounded. */
const LIMIT = 8 * 1024;
const leave = (i: number) => ({ method: 'POST', path: '/leaves', body: { user: 'sam.ortiz', start_date: '2027-01-04', end_date: '2027-01-08', delegate: i % 2 ? 'maya.chen' : 'ava.reed' }, token: 'tok-grace.lin', remote: true });

function world() {
  const { erp } = openTestErp(':memory:');
  const api = new Api(erp, allRoutes(), { logBytesPerTurn: LIMIT });
  seedSmallOrg(api);
  return { erp, api };
}

function writeUntilRefused(api: Api): number {
  for (let i = 0; i < 100; i++) {
    const status = api.handle(leave(i)).status;
    if (status === 429) return i;
    expect(status).toBe(201);
  }
  throw new Error('never refused');
}

describe('an agent that keeps writing within one turn', () => {
  it('is refused with log_budget_exceeded once it has added the budget, in a small row', () => {
    const { erp, api } = world();
    const accepted = writeUntilRefused(api);
    expect(accepted).toBeGreaterThan(5);
    expect(accepted).toBeLessThan(25);
    const res = api.handle(leave(999));
    expect(res.status).toBe(429);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'log_budget_exceeded', detail: expect.stringMatching(/^Your requests have added \d+ KB to the audit log this turn, and one user may add 8 KB; the budget starts again when the clock next moves\.$/) });
    const row = erp.db.prepare('SELECT actor, outcome, error_code, data FROM events ORDER BY seq DESC LIMIT 1').get();
    expect(row).toEqual({ actor: 'grace.lin', outcome: 'refused', error_code: 'log_budget_exceeded', data: '{}' });
  });

  it('is refused its reads too, and other users are not', () => {
    const { api } = world();
    writeUntilRefused(api);
    expect(api.handle({ method: 'GET', path: '/whoami', token: 'tok-grace.lin', remote: true }).status).toBe(429);
    expect(api.handle({ method: 'GET', path: '/whoami', token: 'tok-maya.chen', remote: true }).status).toBe(200);
  });

  it('writes again once the clock has moved', () => {
    const { api } = world();
    writeUntilRefused(api);
    api.runInternal(advanceClock, { to: '2026-10-06' });
    expect(api.handle(leave(1000)).status).toBe(201);
  });

  it('is refused at the same request by a server restarted on the same file', () => {
    const first = world();
    const accepted = writeUntilRefused(first.api);
    const again = new Api(first.erp, allRoutes(), { logBytesPerTurn: LIMIT });
    expect(again.handle(leave(2000)).status).toBe(429);
    const fresh = world();
    for (let i = 0; i < accepted; i++) expect(fresh.api.handle(leave(i)).status).toBe(201);
    const restarted = new Api(fresh.erp, allRoutes(), { logBytesPerTurn: LIMIT });
    expect(restarted.handle(leave(accepted)).status).toBe(429);
  });

  it('does not bound in-process callers (generators, counterparties)', () => {
    const { api } = world();
    writeUntilRefused(api);
    expect(api.handle({ ...leave(3000), remote: false }).status).toBe(201);
  });
});

describe('a request from the HTTP layer', () => {
  it('is marked remote, so the budget applies to it', () => {
    const req = { method: 'GET', path: '/whoami', headers: {}, query: {} } as never;
    expect(toApiRequest(req).remote).toBe(true);
  });
});
