import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import { advanceTo } from '../support/books-fixture';
import { call, openTestErp } from '../support/erp';
import { expectSameReadModelsTwice } from '../support/property';
import { seedSales, stock } from '../support/sales-fixture';

/**
 * Random sequences of order-to-cash actions, valid and invalid alike (refusals are part of the
 * point): whatever happens, the ledger balances, every control account (AR and inventory included)
 * ties to its subledger, no invoice is settled beyond its amount nor stock shipped that is not on
 * hand, allocations never exceed stock, replaying the file gives the same read models, and so
 * does playing the same sequence again.
 */
const RUNS = Number(process.env.O2C_RUNS ?? 25);

const pick = fc.nat({ max: 7 });
const money = fc.integer({ min: -500, max: 300000 }).map((c) => (c / 100).toFixed(2));
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const action = fc.oneof(
  w(5, fc.record({ kind: fc.constant('order' as const), customer: fc.constantFrom('C-1', 'C-2', 'C-3'), qty: fc.integer({ min: 1, max: 60 }), seal: fc.boolean(), cheap: fc.boolean() })),
  w(3, fc.record({ kind: fc.constant('release' as const), so: pick })),
  w(3, fc.record({ kind: fc.constant('allocate' as const), so: pick })),
  w(1, fc.record({ kind: fc.constant('hold' as const), so: pick })),
  w(2, fc.record({ kind: fc.constant('release_hold' as const), so: pick, as: fc.constantFrom('ben', 'ruth', 'carla') })),
  w(4, fc.record({ kind: fc.constant('ship' as const), so: pick, part: fc.boolean(), warehouse: fc.constantFrom('WH1', 'WH2') })),
  w(4, fc.record({ kind: fc.constant('bill' as const), shp: pick })),
  w(3, fc.record({ kind: fc.constant('receipt' as const), customer: fc.constantFrom('C-1', 'C-2', 'C-3'), inv: pick, amount: money, discount: fc.constantFrom(undefined, '5.00'), deduct: fc.constantFrom(undefined, '10.00') })),
  w(1, fc.record({ kind: fc.constant('apply' as const), cr: pick, inv: pick, amount: money })),
  w(1, fc.record({ kind: fc.constant('reverse' as const), cr: pick })),
  w(1, fc.record({ kind: fc.constant('credit' as const), inv: pick, amount: money })),
  w(1, fc.record({ kind: fc.constant('resolve' as const), ded: pick, accept: fc.boolean() })),
  w(1, fc.record({ kind: fc.constant('void' as const), inv: pick })),
  w(1, fc.record({ kind: fc.constant('cancel_line' as const), so: pick })),
  w(2, fc.record({ kind: fc.constant('rma' as const), inv: pick, qty: fc.integer({ min: 1, max: 5 }), step: fc.constantFrom('request', 'approve', 'receive', 'inspect', 'credit') })),
  w(2, fc.record({ kind: fc.constant('next_day' as const) })),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

function play(actions: readonly Action[]) {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-o2c-prop-')), 'o2c.db');
  const { erp, api } = openTestErp(file);
  const t = seedSales(api);
  stock(api, t, 'VALVE-1', 'WH1', 80, '40.00');
  stock(api, t, 'VALVE-1', 'WH2', 20, '42.00');
  stock(api, t, 'SEAL-L', 'WH1', 30, '3.00', { lot: 'L-1', expiry: '2027-03-31' });
  const count = (table: string) => (erp.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  // Targets are picked among the documents that exist, newest first, so most actions land on something.
  const nth = (prefix: string, table: string, n: number) => {
    const of = count(table);
    return `${prefix}-${String(Math.max(of - (n % Math.max(of, 1)), 1)).padStart(6, '0')}`;
  };
  const post = (token: string, path: string, body: object = {}) => call(api, token, 'POST', path, body);
  for (const a of actions) {
    switch (a.kind) {
      case 'order':
        post(t.ben, '/sales-orders', { customer: a.customer, ship_to: 'ST1', lines: [{ item: a.seal ? 'SEAL-L' : 'VALVE-1', qty: a.qty, ...(a.cheap ? { unit_price: '1.00' } : {}) }] });
        break;
      case 'release': post(t.ben, `/sales-orders/${nth('SO', 'sales_orders', a.so)}/release`); break;
      case 'allocate': post(t.ben, `/sales-orders/${nth('SO', 'sales_orders', a.so)}/allocate`); break;
      case 'hold': post(t.ben, `/sales-orders/${nth('SO', 'sales_orders', a.so)}/holds`, { reason: 'other' }); break;
      case 'release_hold': {
        const holds = api.read.sales.openHolds(nth('SO', 'sales_orders', a.so));
        if (holds[0]) post(t[a.as], `/sales-order-holds/${holds[0].id}/release`, { note: 'checked' });
        break;
      }
      case 'ship': {
        const so = nth('SO', 'sales_orders', a.so);
        const lines = api.read.sales.allocationsOf(so).filter((x) => x.warehouse === a.warehouse && x.qty > 0).map((x) => ({ so_line: x.line, qty: a.part ? Math.max(1, Math.floor(x.qty / 2)) : x.qty }));
        post(t.luis, '/shipments', { sales_order: so, warehouse: a.warehouse, lines: lines.length ? lines : [{ so_line: 1, qty: 1 }], freight_charge: '12.50' });
        break;
      }
      case 'bill': post(t.lena, `/shipments/${nth('SHP', 'shipments', a.shp)}/invoice`); break;
      case 'receipt':
        post(t.lena, '/cash-receipts', {
          customer: a.customer, bank_account: 'BANK-OP', amount: a.amount, reference: 'R',
          applications: [{ invoice: nth('ARINV', 'ar_invoices', a.inv), amount: a.amount, discount: a.discount, ...(a.deduct ? { deduction: { amount: a.deduct, reason: 'damaged' } } : {}) }],
        });
        break;
      case 'apply': post(t.lena, `/cash-receipts/${nth('CR', 'cash_receipts', a.cr)}/apply`, { applications: [{ invoice: nth('ARINV', 'ar_invoices', a.inv), amount: a.amount }] }); break;
      case 'reverse': post(t.lena, `/cash-receipts/${nth('CR', 'cash_receipts', a.cr)}/reverse`, { reason: 'nsf' }); break;
      case 'credit': {
        const inv = api.read.receivables.invoice(nth('ARINV', 'ar_invoices', a.inv));
        post(t.lena, '/ar-credit-memos', { customer: inv?.customer ?? 'C-1', reason: 'price_adjustment', amount: a.amount, invoice: inv?.id });
        break;
      }
      case 'resolve': post(t.ruth, `/deductions/${nth('DED', 'deductions', a.ded)}/resolve`, { resolution: a.accept ? 'accepted' : 'rejected', note: 'x' }); break;
      case 'void': post(t.lena, `/ar-invoices/${nth('ARINV', 'ar_invoices', a.inv)}/void`, { reason: 'entered_in_error' }); break;
      case 'cancel_line': post(t.ben, `/sales-orders/${nth('SO', 'sales_orders', a.so)}/lines/1/cancel`, { reason: 'customer_request' }); break;
      case 'rma': {
        const rma = nth('RMA', 'rmas', 0);
        if (a.step === 'request') post(t.ben, '/rmas', { invoice: nth('ARINV', 'ar_invoices', a.inv), reason: 'damaged', lines: [{ invoice_line: 1, qty: a.qty }] });
        else if (a.step === 'approve') post(t.ben, `/rmas/${rma}/approve`);
        else if (a.step === 'receive') post(t.luis, `/rmas/${rma}/receive`, { warehouse: 'WH1' });
        else if (a.step === 'inspect') {
          const lines = api.read.shipments.rmaLines(rma).map((l) => ({ line: l.line, accepted_qty: Math.floor(l.received_qty / 2), result: 'checked' }));
          post(t.luis, `/rmas/${rma}/inspection`, { lines: lines.length ? lines : [{ line: 1, accepted_qty: 0, result: 'x' }] });
        } else post(t.ben, `/rmas/${rma}/credit-memo`, { restocking_fee_bp: 1500 });
        break;
      }
      case 'next_day': {
        const d = new Date(`${api.today()}T00:00:00Z`);
        do d.setUTCDate(d.getUTCDate() + 1); while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
        advanceTo(api, d.toISOString().slice(0, 10));
        break;
      }
      default: { const never: never = a; throw new Error(`unknown action ${JSON.stringify(never)}`); }
    }
  }
  return { erp, api, t, file };
}

function invariants({ erp, api, t, file }: ReturnType<typeof play>): void {
  const sums = erp.db.prepare('SELECT COALESCE(SUM(debit), 0) AS d, COALESCE(SUM(credit), 0) AS c FROM gl_lines').get() as { d: number; c: number };
  expect(sums.d).toBe(sums.c);
  const ties = call(api, t.grace, 'GET', '/reports/control-ties').body;
  expect(ties.rows.map((r: any) => [r.account, r.difference])).toEqual([['1000', 0], ['1010', 0], ['1200', 0], ['1300', 0], ['2000', 0], ['2100', 0]]);
  for (const row of erp.db.prepare('SELECT id, total, open_amount, status FROM ar_invoices').all() as any[]) {
    expect(row.open_amount).toBeGreaterThanOrEqual(0);
    expect(row.open_amount).toBeLessThanOrEqual(row.total);
    const moved = (erp.db.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM ar_transactions WHERE invoice = ?').get(row.id) as { s: number }).s;
    expect(moved).toBe(row.open_amount);
  }
  for (const s of erp.db.prepare('SELECT item, warehouse, SUM(qty) AS q FROM inventory_transactions GROUP BY item, warehouse').all() as { item: string; warehouse: string; q: number }[]) {
    expect(s.q).toBeGreaterThanOrEqual(-1e-9);
    expect(api.read.sales.allocatedQty(s.item, s.warehouse)).toBeLessThanOrEqual(s.q + 1e-9);
  }
  const aging = call(api, t.grace, 'GET', '/reports/ar-aging').body;
  expect(Math.round(aging.totals.total * 100)).toBe(api.read.receivables.arBalanceAsOf(api.today()));
  const replay = checkReplay(file, erp.db, createAppRegistry());
  expect(replay.differingTables).toEqual([]);
}

describe('random sequences of order-to-cash actions, valid and invalid', () => {
  it('never unbalance the ledger, untie AR or inventory, settle or ship beyond what there is, or differ from their replay', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 5, maxLength: 40 }), (actions) => {
      invariants(play(actions));
    }), { numRuns: RUNS });
  });

  it('give the same read models when the same sequence is played twice', () => {
    expectSameReadModelsTwice(action, play, Math.max(3, Math.floor(RUNS / 4)));
  });

  it('hold for a cycle that orders, ships in two parts, bills, pays short, returns, credits and has a payment returned', () => {
    const c = play([
      { kind: 'order', customer: 'C-2', qty: 30, seal: false, cheap: false }, { kind: 'release', so: 0 }, { kind: 'allocate', so: 0 },
      { kind: 'ship', so: 0, part: true, warehouse: 'WH1' }, { kind: 'bill', shp: 0 }, { kind: 'ship', so: 0, part: false, warehouse: 'WH1' }, { kind: 'bill', shp: 0 },
      { kind: 'receipt', customer: 'C-2', inv: 1, amount: '400.00', discount: '5.00', deduct: '10.00' }, { kind: 'resolve', ded: 0, accept: true },
      { kind: 'rma', inv: 0, qty: 4, step: 'request' }, { kind: 'rma', inv: 0, qty: 4, step: 'approve' }, { kind: 'rma', inv: 0, qty: 4, step: 'receive' },
      { kind: 'rma', inv: 0, qty: 4, step: 'inspect' }, { kind: 'rma', inv: 0, qty: 4, step: 'credit' }, { kind: 'next_day' },
      { kind: 'receipt', customer: 'C-2', inv: 1, amount: '100.00', discount: undefined, deduct: undefined }, { kind: 'reverse', cr: 0 },
    ]);
    invariants(c);
    expect(c.api.read.sales.order('SO-000001')!.status).toBe('invoiced');
    expect(c.api.read.arCash.deduction('DED-000001')!.status).toBe('accepted');
    expect(c.api.read.shipments.rma('RMA-000001')!.status).toBe('credited');
    expect(c.api.read.arCash.receipt('CR-000002')!.status).toBe('reversed');
  });
});
