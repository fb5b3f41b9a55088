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

  it('reports its progress day by day, up to the whole', () => {
    const [first, last] = [steps[0]!, steps[steps.length - 1]!];
    expect(first[0]).toBeLessThanOrEqual(1);
    expect(last[0]).toBe(last[1]);
    expect(last[2]).toBe(HISTORY_END);
    expect(steps.every((s, i) => i === 0 || s[0] > steps[i - 1]![0])).toBe(true);
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
