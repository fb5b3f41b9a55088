import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { canonicalHash } from '../../src/events/canonical-hash';
import { createAppRegistry } from '../../src/projections';
import { ErpDb } from '../../src/projections/erp-db';
import { companyHealth } from '../../src/runner/company-health';
import { buildCompany } from '../../src/runner/company';
import { HISTORY_END } from '../../src/sim/northgate';

/** Northgate with its twelve months of history, built through the generator as a task would get it. */
function generate(seed: number, progress?: (done: number, total: number, note: string) => void) {
  const erp = ErpDb.open(':memory:', createAppRegistry(), { fast: true });
  const api = new Api(erp, allRoutes());
  const world = buildCompany('northgate', seed, api, progress);
  return { erp, api, world };
}

describe('Northgate after twelve months of history', () => {
  const steps: [number, number, string][] = [];
  const seed0 = generate(0, (d, t, n) => steps.push([d, t, n]));
  const hash0 = canonicalHash(seed0.erp.db);

  it('ends on the last day of history', () => {
    expect(seed0.api.today()).toBe(HISTORY_END);
  });

  it.each(companyHealth(seed0.api).map((c) => [c.name, c] as const))('seed 0: %s', (_name, check) => {
    expect({ ok: check.ok, detail: check.detail }).toEqual({ ok: true, detail: check.detail });
  });

  it('sells about 300 orders a year from its customers\' email, each billed in the month it shipped', () => {
    const db = seed0.erp.db;
    const orders = (db.prepare(`SELECT COUNT(*) AS n FROM sales_orders WHERE order_date <= ?`).get(HISTORY_END) as { n: number }).n;
    expect(orders).toBeGreaterThan(270);
    expect(orders).toBeLessThan(340);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM sales_orders WHERE source_message IS NULL`).get()).toEqual({ n: 0 });
    expect(db.prepare(`SELECT COUNT(*) AS n FROM ar_invoices i JOIN shipments s ON s.id = i.shipment WHERE substr(s.ship_date, 1, 7) <> i.period`).get()).toEqual({ n: 0 });
  });

  it('sells its valves above cost every month, and books revenue only through invoices', () => {
    const margin = JSON.parse(seed0.api.handle({ method: 'GET', path: '/reports/sales-margin', query: { from: '2025-10', to: '2026-09' }, asSystem: true }).body);
    expect(margin.rows).toHaveLength(12);
    for (const m of margin.rows) expect({ month: m.month, pct: m.margin_pct > 30 && m.margin_pct < 60 }).toEqual({ month: m.month, pct: true });
    expect(seed0.erp.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE type = 'CashDepositBooked' AND json_extract(data, '$.credit_account') LIKE '4%'`).get()).toEqual({ n: 0 });
  });

  it('reports its progress day by day, up to the whole', () => {
    const [first, last] = [steps[0]!, steps[steps.length - 1]!];
    expect(first[0]).toBeLessThanOrEqual(1);
    expect(last[0]).toBe(last[1]);
    expect(last[2]).toBe(HISTORY_END);
    expect(steps.every((s, i) => i === 0 || s[0] > steps[i - 1]![0])).toBe(true);
  });

  describe('its plant', () => {
    const db = seed0.erp.db;
    const one = (sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as Record<string, any>;

    it('makes the valves it sells: work orders every month consume components and complete valves into stock', () => {
      const months = db.prepare(`SELECT substr(date, 1, 7) AS m, SUM(qty) AS q FROM wo_completions GROUP BY m ORDER BY m`).all() as { m: string; q: number }[];
      const full = ['2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09'];
      expect(full.filter((m) => !months.some((x) => x.m === m && x.q > 0))).toEqual([]);
      const usage = seed0.api.read.inventory.issuesByMonth('2025-11-01', '2026-09-30', 'CAST-050-BODY');
      expect(usage).toHaveLength(11);
      expect(one(`SELECT COUNT(*) AS n FROM inventory_transactions WHERE type = 'issue' AND item LIKE 'CAST-%'`).n).toBe(0);
    });

    it('never stocks the phantom packing kit, whose components the valves take instead', () => {
      expect(one(`SELECT COUNT(*) AS n FROM inventory_transactions WHERE item = 'SA-PACK-01'`).n).toBe(0);
      expect(one(`SELECT COUNT(*) AS n FROM wo_components WHERE item = 'SEAL-212' AND via_phantom = 'SA-PACK-01'`).n).toBeGreaterThan(0);
    });

    it('ends with work in process, a planning run with its suggestions, forecasts beyond the horizon and a pending engineering change', () => {
      expect(one(`SELECT COUNT(*) AS n, SUM(wip_balance) AS v FROM work_orders WHERE status IN ('released', 'in_progress')`).v).toBeGreaterThan(0);
      const run = seed0.api.read.mrp.latestRun()!;
      expect(run.run_date >= '2026-09-21').toBe(true);
      expect(seed0.api.read.mrp.suggestionsOf(run.id).filter((s) => s.status === 'open').length).toBeGreaterThan(0);
      expect(one(`SELECT MAX(week_start) AS w FROM forecasts`).w >= '2026-12-28').toBe(true);
      const pending = db.prepare(`SELECT item, effective_date FROM engineering_changes WHERE effective_date > ?`).all(HISTORY_END);
      expect(pending).toEqual([{ item: 'SA-BALL-100', effective_date: '2026-11-02' }]);
    });
  });

  it('is the same company, event for event, for the same seed', () => {
    expect(canonicalHash(generate(0).erp.db)).toBe(hash0);
  });

  describe('for another seed', () => {
    const seed1 = generate(1);

    it('is a different company', () => {
      expect(canonicalHash(seed1.erp.db)).not.toBe(hash0);
    });

    it.each(companyHealth(seed1.api).map((c) => [c.name, c] as const))('seed 1: %s', (_name, check) => {
      expect({ ok: check.ok, detail: check.detail }).toEqual({ ok: true, detail: check.detail });
    });
  });
});
