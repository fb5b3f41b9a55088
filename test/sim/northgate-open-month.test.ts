import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { createAppRegistry } from '../../src/projections';
import { ErpDb } from '../../src/projections/erp-db';
import { buildNorthgate } from '../../src/sim/northgate';

/**
 * A close task takes Northgate with its last month still open (seed 000 catalog E1): history ends on
 * the first business day of October with August closed and none of September's month-end work done.
 */
describe('Northgate built to 2026-10-01 with its close through August', () => {
  const erp = ErpDb.open(':memory:', createAppRegistry(), { fast: true });
  const api = new Api(erp, allRoutes());
  buildNorthgate({ api, seed: 3 }, '2026-10-01', undefined, { closeThrough: '2026-08' });
  const all = (sql: string) => erp.db.prepare(sql).all();

  it('leaves September open, with no depreciation, amortization, accruals or reconciliation for it', () => {
    expect(all(`SELECT period, status FROM periods WHERE period >= '2026-08' ORDER BY period`)).toEqual([
      { period: '2026-08', status: 'closed' }, { period: '2026-09', status: 'open' }, { period: '2026-10', status: 'open' },
    ]);
    expect(all(`SELECT period FROM depreciation_runs WHERE period = '2026-09'`)).toEqual([]);
    expect(all(`SELECT period FROM amortization_runs WHERE period = '2026-09'`)).toEqual([]);
    expect(all(`SELECT id FROM journal_entries WHERE period = '2026-09'`)).toEqual([]);
    expect(all(`SELECT id FROM bank_reconciliations WHERE as_of >= '2026-09-01'`)).toEqual([]);
  });

  it("shows what September's close still needs in its checklist", () => {
    const checks = JSON.parse(api.handle({ method: 'GET', path: '/periods/2026-09/close-checklist', asSystem: true }).body).checks as { id: string; ok: boolean }[];
    expect(checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['bank_reconciled', 'depreciation', 'prepaid_amortization']);
  });
});
