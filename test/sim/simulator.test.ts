import { advanceTo } from '../../src/api/control-app';
import { createSimulator, registerBehaviour } from '../../src/sim/simulator';
import { emptyWorld } from '../../src/sim/world';
import { seedSmallOrg } from '../../src/sim/small-company';
import { openTestErp } from '../support/erp';

const seen: string[] = [];
registerBehaviour('managers', 'test-manager-log', (ctx) => seen.push(`managers ${ctx.date} ${ctx.businessDay}`));
registerBehaviour('bank', 'test-bank-log', (ctx) => seen.push(`bank ${ctx.date}`));

describe('a simulated company over a weekend', () => {
  it('runs each day\'s scheduled actions and behaviours in the fixed actor order, as the named users', () => {
    const { api } = openTestErp();
    const tokens = seedSmallOrg(api);
    const world = emptyWorld('small', 0);
    world.users = ['grace.lin'];
    world.scheduled.push({ date: '2026-10-10', actor: 'approvers', as: 'grace.lin', method: 'POST', path: '/departments', body: { id: 'WKD', name: 'Weekend' }, note: 'scripted' });
    seen.length = 0;
    advanceTo(api, '2026-10-11', createSimulator(world, { 'grace.lin': tokens.grace }));
    expect(seen).toEqual([
      'bank 2026-10-06', 'managers 2026-10-06 true',
      'bank 2026-10-07', 'managers 2026-10-07 true',
      'bank 2026-10-08', 'managers 2026-10-08 true',
      'bank 2026-10-09', 'managers 2026-10-09 true',
      'bank 2026-10-10', 'managers 2026-10-10 false',
      'bank 2026-10-11', 'managers 2026-10-11 false',
    ]);
    const row = api.erp.db.prepare(`SELECT actor, business_date, token_id FROM events WHERE type = 'DepartmentCreated' AND object_id = 'WKD'`).get();
    expect(row).toEqual({ actor: 'grace.lin', business_date: '2026-10-10', token_id: 'TOK-000001' });
  });

  it('refuses to register a behaviour twice under one name', () => {
    expect(() => registerBehaviour('bank', 'test-bank-log', () => undefined)).toThrow('registered twice');
  });
});
