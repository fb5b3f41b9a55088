import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { canonicalHash } from '../../src/events/canonical-hash';
import { createAppRegistry } from '../../src/projections';
import { ErpDb } from '../../src/projections/erp-db';
import { ScenarioBuilder } from '../../src/sim/builder';
import { buildMaster } from '../../src/sim/northgate/master';
import { ROLE_GRANTS, STAFF } from '../../src/sim/northgate/roster';
import { ORGANISATION } from '../../src/sim/northgate/master';
import { roleGrants } from '../../src/sim/organisation';

function build(seed: number) {
  const erp = ErpDb.open(':memory:', createAppRegistry());
  const b = new ScenarioBuilder(new Api(erp, allRoutes()), seed);
  const master = buildMaster(b, '2025-10-01');
  return { erp, b, master };
}

describe('Northgate master data', () => {
  const a = build(0);

  it('is the same company for the same seed', () => {
    expect(canonicalHash(build(0).erp.db)).toBe(canonicalHash(a.erp.db));
  });

  it('is a different company for another seed', () => {
    const other = build(1);
    expect(other.master.vendors.map((v) => v.id)).not.toEqual(a.master.vendors.map((v) => v.id));
    expect(canonicalHash(other.erp.db)).not.toBe(canonicalHash(a.erp.db));
  });

  it('has the scale of the seed: 20 staff, about 120 items, about 30 vendors, 60 customers, about 60 accounts', () => {
    const count = (t: string) => (a.erp.db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
    expect(a.erp.db.prepare(`SELECT COUNT(*) AS n FROM users WHERE kind = 'staff'`).get()).toEqual({ n: STAFF.length });
    expect(STAFF).toHaveLength(20);
    expect(count('items')).toBeGreaterThanOrEqual(110);
    expect(count('vendors')).toBeGreaterThanOrEqual(25);
    expect(count('vendors')).toBeLessThanOrEqual(35);
    expect(count('customers')).toBe(60);
    expect(count('accounts')).toBeGreaterThanOrEqual(55);
  });

  it('pays every vendor to a verified account, each verified after a call to the number on file', () => {
    const accounts = a.erp.db.prepare(`SELECT vendor, status FROM vendor_bank_accounts`).all() as { vendor: string; status: string }[];
    expect(new Set(accounts.map((x) => x.status))).toEqual(new Set(['verified']));
    for (const v of a.master.vendors) {
      const verified = a.erp.db.prepare(`SELECT seq FROM events WHERE type = 'VendorBankAccountVerified' AND json_extract(data, '$.vendor') = ?`).get(v.id) as { seq: number };
      const call = a.erp.db.prepare(`SELECT seq, json_extract(data, '$.number_dialled') AS dialled FROM events WHERE type = 'CallPlaced' AND json_extract(data, '$.party_id') = ? AND seq < ?`).get(v.id, verified.seq) as { seq: number; dialled: string } | undefined;
      expect({ vendor: v.id, dialled: call?.dialled }).toEqual({ vendor: v.id, dialled: v.phone });
    }
  });

  it('sells its finished valves from a contractor list and a distributor list 15% below it, raised 3% on 1 January', () => {
    const price = (list: string, item: string, date: string) => a.b.api.read.salesPricing.listPrice(list, item, 1, date)!.unit_price;
    for (const item of a.master.sales.finishedGoods) {
      expect(price('LIST', item.id, '2025-11-01')).toBeGreaterThan(item.standardCost * 1.7);
      expect(price('DIST', item.id, '2025-11-01')).toBe(Math.round((price('LIST', item.id, '2025-11-01') * 0.85) / 50) * 50);
      expect(price('LIST', item.id, '2026-02-01')).toBe(Math.round((price('LIST', item.id, '2025-11-01') * 1.03) / 50) * 50);
    }
    expect(a.master.sales.finishedGoods).toHaveLength(16);
  });

  it('prices distributors from their list, contractors from the list price, with contracts, rebates and subsidiaries paid for by their parents', () => {
    const customers = a.erp.db.prepare(`SELECT id, tax_exempt, price_list, parent, freight_terms FROM customers`).all() as { id: string; tax_exempt: number; price_list: string; parent: string | null; freight_terms: string }[];
    for (const c of customers) expect(c.price_list).toBe(c.tax_exempt ? 'DIST' : 'LIST');
    expect(customers.filter((c) => !c.tax_exempt).every((c) => c.freight_terms === 'prepay_and_add')).toBe(true);
    expect(customers.filter((c) => c.parent).length).toBe(2);
    expect(a.master.sales.contractCustomers).toHaveLength(6);
    expect((a.erp.db.prepare(`SELECT COUNT(*) AS n FROM contract_prices`).get() as { n: number }).n).toBe(24);
    expect(a.b.api.read.salesPricing.rebateAgreements().map((r) => r.customer)).toEqual([...a.master.sales.rebateCustomers].sort());
  });

  it('grants every role permissions that exist: no pattern of the roster matches nothing', () => {
    expect(Object.keys(ROLE_GRANTS).flatMap((role) => roleGrants(ORGANISATION, role).unmatched.map((p) => `${role}: ${p}`))).toEqual([]);
  });

  it('gives each role some permissions', () => {
    const perms = a.erp.db.prepare(`SELECT role, COUNT(*) AS n FROM role_permissions GROUP BY role`).all() as { role: string; n: number }[];
    expect(perms.find((p) => p.role === 'ap_supervisor')!.n).toBeGreaterThan(3);
  });
});
