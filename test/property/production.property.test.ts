import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTROL_TIES } from '../../src/grader/ledger/control-ties';
import { tieControl } from '../../src/grader/ledger/trial-balance';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { advanceTo, nextWorkday } from '../support/books-fixture';
import { call, openTestErp } from '../support/erp';
import { expectSameReadModelsTwice } from '../support/property';
import { seedManufacturing, stockIn } from '../support/manufacturing-fixture';

/**
 * Random sequences of production actions, valid and invalid alike: stock counted in, work orders
 * planned, released (or refused for shortages), issued to by units or lines, wrong issues reversed,
 * units completed and scrapped with hours, orders closed or cancelled, MRP runs with planned orders
 * released, days passing. Whatever happens: the ledger balances; inventory and WIP each tie to
 * their subledger as the grader computes it; each work order's WIP is what its movements say and a
 * closed order holds none; no stock goes negative; replay equals the live file, and the same
 * sequence played twice gives the same read models.
 */
const RUNS = Number(process.env.PRODUCTION_RUNS ?? 20);

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const pick = fc.nat({ max: 5 });
const action = fc.oneof(
  w(2, fc.record({ kind: fc.constant('stock' as const), item: fc.constantFrom('BODY-1', 'BOLT-1', 'SEAL-1', 'SUB-B'), qty: fc.integer({ min: 1, max: 40 }), cents: fc.integer({ min: 10, max: 3000 }) })),
  w(3, fc.record({ kind: fc.constant('create' as const), item: fc.constantFrom('VALVE-A', 'SUB-B'), qty: fc.integer({ min: 1, max: 8 }) })),
  w(3, fc.record({ kind: fc.constant('release' as const), wo: pick })),
  w(3, fc.record({ kind: fc.constant('issue_units' as const), wo: pick, units: fc.integer({ min: 1, max: 6 }) })),
  w(2, fc.record({ kind: fc.constant('issue_line' as const), wo: pick, item: fc.constantFrom('BODY-1', 'BOLT-1', 'SEAL-1'), qty: fc.integer({ min: 1, max: 8 }) })),
  w(2, fc.record({ kind: fc.constant('reverse' as const), issue: pick, line: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }) })),
  w(3, fc.record({ kind: fc.constant('complete' as const), wo: pick, qty: fc.integer({ min: 0, max: 6 }), scrap: fc.integer({ min: 0, max: 2 }), hours: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }) })),
  w(2, fc.record({ kind: fc.constant('close' as const), wo: pick, short: fc.boolean() })),
  w(1, fc.record({ kind: fc.constant('cancel' as const), wo: pick })),
  w(1, fc.record({ kind: fc.constant('mrp' as const), release: fc.boolean() })),
  w(1, fc.record({ kind: fc.constant('next_day' as const) })),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

function play(actions: readonly Action[]) {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-prod-')), 'prod.db');
  const { erp, api } = openTestErp(file);
  const t = seedManufacturing(api);
  call(api, t.owen, 'POST', '/forecasts', { item: 'VALVE-A', weeks: [{ week_start: '2026-10-12', qty: 8 }, { week_start: '2026-10-19', qty: 5 }] });
  // Enough to release a few orders from the start, bought off standard so variances are real.
  stockIn(api, t.rita, 'BODY-1', 30, 21);
  stockIn(api, t.rita, 'BOLT-1', 300, '0.45');
  stockIn(api, t.rita, 'SEAL-1', 60, 12, { lot: 'P0', expiry: '2027-06-30' });
  stockIn(api, t.rita, 'SUB-B', 20, 26);
  const count = (table: string) => (erp.db.prepare(`SELECT COUNT(DISTINCT id) AS n FROM ${table}`).get() as { n: number }).n;
  const nth = (prefix: string, n: number, of: number) => `${prefix}-${String(Math.max(of - (n % Math.max(of, 1)), 1)).padStart(6, '0')}`;
  const wo = (n: number) => nth('WO', n, count('work_orders'));
  const issue = (n: number) => nth('WOI', n, (erp.db.prepare(`SELECT COUNT(DISTINCT id) AS n FROM wo_material_issues WHERE kind = 'issue'`).get() as { n: number }).n);
  let lot = 0;
  for (const a of actions) {
    switch (a.kind) {
      case 'stock': stockIn(api, t.rita, a.item, a.qty, (a.cents / 100).toFixed(2), a.item === 'SEAL-1' ? { lot: `P${lot++ % 3}`, expiry: '2027-06-30' } : {}); break;
      case 'create': call(api, t.owen, 'POST', '/work-orders', { item: a.item, qty: a.qty }); break;
      case 'release': call(api, t.nina, 'POST', `/work-orders/${wo(a.wo)}/release`, {}); break;
      case 'issue_units': call(api, t.nina, 'POST', `/work-orders/${wo(a.wo)}/issues`, { units: a.units }); break;
      case 'issue_line': call(api, t.nina, 'POST', `/work-orders/${wo(a.wo)}/issues`, { lines: [{ item: a.item, qty: a.qty }] }); break;
      case 'reverse': call(api, t.nina, 'POST', `/wo-issues/${issue(a.issue)}/reverse`, { reason: 'wrong_issue', ...(a.line ? { lines: [a.line] } : {}) }); break;
      case 'complete': call(api, t.nina, 'POST', `/work-orders/${wo(a.wo)}/completions`, {
        qty: a.qty, ...(a.scrap ? { scrap_qty: a.scrap, scrap_reason: 'leak_test' } : {}), ...(a.hours !== undefined ? { hours: [{ seq: 10, hours: a.hours }] } : {}),
      }); break;
      case 'close': call(api, t.nina, 'POST', `/work-orders/${wo(a.wo)}/close`, a.short ? { reason: 'short_closed' } : {}); break;
      case 'cancel': call(api, t.owen, 'POST', `/work-orders/${wo(a.wo)}/cancel`, { reason: 'not_needed' }); break;
      case 'mrp': {
        const run = call(api, t.owen, 'POST', '/mrp/runs', { horizon_weeks: 3 });
        if (a.release && run.status === 201) {
          for (const s of api.read.mrp.suggestionsOf(run.body.id).filter((x) => x.kind === 'planned_wo' && x.firm)) call(api, t.owen, 'POST', `/mrp/suggestions/${s.id}/release`, {});
        }
        break;
      }
      case 'next_day': advanceTo(api, nextWorkday(api.today())); break;
      default: { const never: never = a; throw new Error(`unknown action ${JSON.stringify(never)}`); }
    }
  }
  return { erp, api, file };
}

function invariants({ erp, api, file }: ReturnType<typeof play>): void {
  const sums = erp.db.prepare('SELECT COALESCE(SUM(debit), 0) AS d, COALESCE(SUM(credit), 0) AS c FROM gl_lines').get() as { d: number; c: number };
  expect(sums.d).toBe(sums.c);
  for (const kind of ['inventory', 'wip']) {
    const r = tieControl(erp.db, CONTROL_TIES.find((c) => c.kind === kind)!, api.today());
    expect({ kind, gl: r.gl_cents, ties: r.ties }).toEqual({ kind, gl: r.subledger_cents, ties: true });
  }
  for (const order of erp.db.prepare('SELECT id, status, wip_balance FROM work_orders').all() as { id: string; status: string; wip_balance: number }[]) {
    expect(api.read.manufacturing.wipAsOf(api.today(), order.id)).toBe(order.wip_balance);
    if (order.status === 'closed' || order.status === 'cancelled') expect(order.wip_balance).toBe(0);
  }
  const negative = erp.db.prepare('SELECT item, warehouse, location, lot, SUM(qty) AS q FROM inventory_transactions GROUP BY item, warehouse, location, lot HAVING SUM(qty) < -1e-9').all();
  expect(negative).toEqual([]);
  expect(checkReplay(file, erp.db, createAppRegistry()).differingTables).toEqual([]);
}

describe('random sequences of production actions, valid and invalid', () => {
  it('never unbalance the ledger, untie inventory or WIP, leave WIP on a closed order, take stock below zero, or differ from their replay', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 5, maxLength: 40 }), (actions) => {
      invariants(play(actions));
    }), { numRuns: RUNS });
  });

  it('give the same read models when the same sequence is played twice', () => {
    expectSameReadModelsTwice(action, play, Math.max(3, Math.floor(RUNS / 4)));
  });

  it('hold for a cycle that issues twice, reverses the duplicate, completes with scrap and closes', () => {
    invariants(play([
      { kind: 'stock', item: 'BODY-1', qty: 10, cents: 2100 }, { kind: 'stock', item: 'BOLT-1', qty: 40, cents: 45 }, { kind: 'stock', item: 'SEAL-1', qty: 10, cents: 1200 },
      { kind: 'stock', item: 'SUB-B', qty: 5, cents: 2600 }, { kind: 'create', item: 'VALVE-A', qty: 4 }, { kind: 'release', wo: 0 },
      { kind: 'issue_units', wo: 0, units: 4 }, { kind: 'issue_line', wo: 0, item: 'BODY-1', qty: 4 }, { kind: 'reverse', issue: 0, line: undefined },
      { kind: 'complete', wo: 0, qty: 3, scrap: 1, hours: 5 }, { kind: 'close', wo: 0, short: false }, { kind: 'mrp', release: true }, { kind: 'next_day' },
    ]));
  });
});
