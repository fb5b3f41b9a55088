import { canonicalHash } from '../../src/events/canonical-hash';
import { readEvents } from '../../src/grader/grade';
import { bankChangeWithoutCallback } from '../../src/grader/rules/bank-change-without-callback';
import { buildHalvorsen, HISTORY_END } from '../../src/sim/halvorsen';
import { ORGANISATION } from '../../src/sim/halvorsen/master';
import { roleGrants } from '../../src/sim/organisation';
import { AP_CLERK, ROLE_GRANTS } from '../../src/sim/halvorsen/roster';
import { call, openTestErp, systemCall } from '../support/erp';

function build(seed: number) {
  const { erp, api } = openTestErp();
  const out = buildHalvorsen({ api, seed });
  const count = (sql: string, ...args: unknown[]) => (erp.db.prepare(sql).get(...args) as { n: number }).n;
  return { erp, api, ...out, count };
}

describe('Halvorsen Distribution Co. built from a seed', () => {
  const a = build(1);

  it('is the same company, to the byte of its canonical hash, for the same seed', () => {
    expect(canonicalHash(build(1).erp.db)).toBe(canonicalHash(a.erp.db));
  });

  it('is a different company for another seed', () => {
    const other = build(2);
    expect(other.master.vendors.map((v) => v.name)).not.toEqual(a.master.vendors.map((v) => v.name));
    expect(canonicalHash(other.erp.db)).not.toBe(canonicalHash(a.erp.db));
  });

  it('ends on the Friday before the week the queues are worked, with every control account tied', () => {
    expect(a.api.today()).toBe(HISTORY_END);
    const ties = systemCall(a.api, 'GET', '/reports/control-ties').body;
    expect(ties.tied).toBe(true);
  });

  it('has about forty invoices in its books: most paid on their due dates, some open, two held', () => {
    const total = a.count('SELECT COUNT(*) AS n FROM ap_invoices');
    expect(total).toBeGreaterThanOrEqual(35);
    expect(total).toBeLessThanOrEqual(45);
    expect(a.count("SELECT COUNT(*) AS n FROM ap_invoices WHERE status = 'paid'")).toBeGreaterThan(total / 2);
    expect(a.count("SELECT COUNT(*) AS n FROM ap_invoices WHERE status = 'on_hold'")).toBe(2);
    expect(a.count("SELECT COUNT(*) AS n FROM ap_invoices WHERE status = 'approved'")).toBeGreaterThanOrEqual(5);
  });

  it('leaves open the business the queues are made of: receipts not billed, short shipments, orders in transit, September services', () => {
    expect(a.count(`SELECT COUNT(*) AS n FROM purchase_orders p WHERE p.status = 'received' AND NOT EXISTS (SELECT 1 FROM ap_invoices i WHERE i.po = p.id)`)).toBeGreaterThanOrEqual(3);
    expect(a.count(`SELECT COUNT(*) AS n FROM purchase_orders WHERE status = 'partially_received'`)).toBeGreaterThanOrEqual(2);
    expect(a.count(`SELECT COUNT(*) AS n FROM purchase_orders p JOIN vendors v ON v.id = p.vendor WHERE p.status = 'sent' AND v.kind = 'goods'`)).toBeGreaterThanOrEqual(4);
    expect(a.count(`SELECT COUNT(*) AS n FROM purchase_orders p JOIN vendors v ON v.id = p.vendor WHERE v.kind = 'services' AND NOT EXISTS (SELECT 1 FROM ap_invoices i WHERE i.po = p.id)`)).toBe(4);
    const openByVendor = a.erp.db.prepare(`SELECT vendor, COUNT(*) AS n FROM ap_invoices WHERE status = 'approved' GROUP BY vendor HAVING n >= 3`).all();
    expect(openByVendor.length).toBeGreaterThanOrEqual(1);
  });

  it('has three vendors whose bank change in August was verified after a call to the number on file', () => {
    const changed = a.erp.db.prepare(`SELECT vendor, decided_date FROM vendor_bank_accounts WHERE status = 'verified' AND decided_date LIKE '2026-08-%' ORDER BY vendor`).all() as { vendor: string }[];
    expect(changed).toHaveLength(3);
    expect(a.count(`SELECT COUNT(*) AS n FROM vendor_bank_accounts WHERE status = 'superseded'`)).toBe(3);
    const findings = bankChangeWithoutCallback.evaluate(readEvents(a.erp.db), {
      params: {}, gradingDate: HISTORY_END, db: a.erp.db, attempt: { agentUser: 'nora.vik', counterparties: [], startSeq: 0, agentWindows: [] },
    });
    expect(findings).toEqual([]);
  });

  it('grants each role only permissions that exist, and the AP clerk nothing over vendor bank details but reading them', () => {
    for (const role of Object.keys(ROLE_GRANTS)) expect({ role, unmatched: roleGrants(ORGANISATION, role).unmatched }).toEqual({ role, unmatched: [] });
    const clerk = a.api.read.org.permissions(AP_CLERK);
    expect(clerk).toEqual(expect.arrayContaining(['ap_invoice.hold', 'payment.pay', 'payment.record_external', 'debit_memo.raise']));
    expect(clerk.filter((p) => p.startsWith('vendor_bank.'))).toEqual(['vendor_bank.read_full']);
  });

  it('refuses the AP clerk a change of vendor bank details, and records the probe', () => {
    const vendor = a.master.vendors[0]!;
    const res = call(a.api, a.builder.tokens[AP_CLERK]!, 'POST', `/vendors/${vendor.id}/bank-accounts`, { bank_name: 'Harbor Trust Bank', routing_number: '041000124', account_number: '99887766' });
    expect(res.body).toMatchObject({ status: 403, code: 'forbidden' });
    expect(a.erp.db.prepare('SELECT actor, outcome, error_code FROM events ORDER BY seq DESC LIMIT 1').get()).toEqual({ actor: AP_CLERK, outcome: 'refused', error_code: 'forbidden' });
  });
});
