import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advanceTo } from '../../src/api/control-app';
import { canonicalHash } from '../../src/events/canonical-hash';
import { registerSubledger, subledgerFor } from '../../src/domain/ledger/subledgers';
import { createAppRegistry } from '../../src/projections';
import { checkReplay } from '../../src/projections/replay';
import '../../src/sim/behaviours/payables';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld } from '../../src/sim/world';
import { nextWorkday } from '../support/books-fixture';
import { call, openTestErp } from '../support/erp';
import { givenReceipt, givenSentPo, seedPayables } from '../support/payables-fixture';

if (!subledgerFor('inventory')) registerSubledger('inventory', (read, _account, asOf) => read.inventory.valueAsOf(asOf));

/**
 * Random sequences of procure-to-pay actions, valid and invalid alike (refusals are part of the
 * point): whatever happens, the ledger balances, every control account ties to its subledger,
 * on-hand is the sum of its transactions, no invoice is settled beyond its amount, GRNI is never
 * negative on a PO line, replaying the file gives the same read models, and so does playing the
 * same sequence again.
 */
const RUNS = Number(process.env.P2P_RUNS ?? 25);

const pick = fc.nat({ max: 7 });
const money = fc.integer({ min: -500, max: 60000 }).map((c) => (c / 100).toFixed(2));
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const action = fc.oneof(
  w(3, fc.record({ kind: fc.constant('receive' as const), qty: fc.integer({ min: 1, max: 12 }) })),
  w(4, fc.record({ kind: fc.constant('enter' as const), line: fc.constantFrom(1, 2), qty: fc.integer({ min: 0, max: 12 }), upliftBp: fc.constantFrom(0, 0, 150, 800), freight: fc.constantFrom(0, 0, 15), badTotal: fc.boolean() })),
  w(1, fc.record({ kind: fc.constant('enter_non_po' as const), amount: money })),
  w(4, fc.record({ kind: fc.constant('validate' as const), inv: pick })),
  w(2, fc.record({ kind: fc.constant('hold' as const), inv: pick, reason: fc.constantFrom('price_variance', 'duplicate', 'tax') })),
  w(2, fc.record({ kind: fc.constant('release_hold' as const), hold: pick })),
  w(4, fc.record({ kind: fc.constant('approve' as const), inv: pick })),
  w(3, fc.record({ kind: fc.constant('run' as const), inv: pick, amount: fc.option(money, { nil: undefined }), discount: fc.constantFrom(undefined, '1.00') })),
  w(6, fc.record({ kind: fc.constant('run_step' as const), run: pick, step: fc.constantFrom('submit', 'approve', 'release', 'cancel', 'self_approve') })),
  w(2, fc.record({ kind: fc.constant('pay' as const), inv: pick, amount: fc.option(money, { nil: undefined }) })),
  w(1, fc.record({ kind: fc.constant('void' as const), inv: pick })),
  w(1, fc.record({ kind: fc.constant('write_off' as const), inv: pick, amount: money })),
  w(1, fc.record({ kind: fc.constant('debit_memo' as const), inv: pick, qty: fc.integer({ min: 1, max: 4 }) })),
  w(1, fc.record({ kind: fc.constant('credit' as const), inv: fc.option(pick, { nil: undefined }), amount: money })),
  w(1, fc.record({ kind: fc.constant('reject' as const), inv: pick })),
  w(2, fc.record({ kind: fc.constant('next_day' as const), returnIt: fc.boolean() })),
  w(8, fc.record({ kind: fc.constant('progress' as const) })),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

function play(actions: readonly Action[]) {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-prop-')), 'p2p.db');
  const { erp, api } = openTestErp(file);
  const t = seedPayables(api);
  givenSentPo(erp, 'PO-000001', [
    { line: 1, item: 'SEAL-1', qty: 40, unit_price: 1200, account: '1300' },
    { line: 2, item: 'CAL-SVC', qty: 3, unit_price: 45000, account: '6500' },
  ]);
  const world = emptyWorld('prop', 0);
  const credentials = { 'first.bank': t.bank };
  world.users = Object.keys(credentials);
  let receipts = 0;
  let invoices = 0;
  const count = (table: string) => (erp.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  // Targets are picked among the documents that exist, newest first, so most actions land on something.
  const nth = (prefix: string, n: number, of: number) => `${prefix}-${String(Math.max(of - (n % Math.max(of, 1)), 1)).padStart(6, '0')}`;
  const inv = (n: number) => nth('APINV', n, invoices);
  const id = (prefix: string, n: number) => nth(prefix, n, count(prefix === 'HOLD' ? 'holds' : 'payment_runs'));
  /** The next step of the newest run, else of the newest invoice: what a clerk would do next. */
  const progress = () => {
    const runs = count('payment_runs');
    const run = runs ? api.read.payments.run(nth('PR', 0, runs)) : undefined;
    const other = run?.created_by === 'hannah.brooks' ? t.grace : t.hannah;
    if (run?.status === 'draft' || run?.status === 'returned') call(api, t.omar, 'POST', `/payment-runs/${run.id}/submit`, {});
    else if (run?.status === 'submitted') call(api, other, 'POST', `/payment-runs/${run.id}/approve`, {});
    else if (run?.status === 'approved') call(api, other, 'POST', `/payment-runs/${run.id}/release`, {});
    else if (invoices > 0) {
      const last = api.read.payables.invoice(inv(0))!;
      if (last.lifecycle === 'entered') call(api, t.omar, 'POST', `/ap-invoices/${last.id}/validate`, {});
      else if (last.lifecycle === 'matched') call(api, t.hannah, 'POST', `/ap-invoices/${last.id}/approve`, {});
      else if (last.lifecycle === 'approved') call(api, t.omar, 'POST', '/payment-runs', { payment_date: api.today(), bank_account: 'BANK-OP', items: [{ invoice: last.id }] });
    }
  };
  for (const a of actions) {
    switch (a.kind) {
      case 'receive':
        receipts += 1;
        givenReceipt(erp, `RCV-${String(receipts).padStart(6, '0')}`, 'PO-000001', [{ po_line: 1, item: 'SEAL-1', qty: a.qty, unit_price: 1200, account: '1300', stock: true }], api.today());
        break;
      case 'enter': {
        const price = a.line === 1 ? 1200 : 45000;
        const unit = Math.round((price * (10000 + a.upliftBp)) / 10000);
        const amount = a.qty * unit;
        const res = call(api, t.omar, 'POST', '/ap-invoices', {
          vendor: 'V-0142', po: 'PO-000001', vendor_invoice_number: `MS-${invoices}`, invoice_date: api.today(), freight: a.freight,
          lines: [{ po_line: a.line, qty: a.qty, unit_price: unit / 100, amount: amount / 100 }], total: a.badTotal ? 0 : (amount / 100 + a.freight),
        });
        if (res.status === 201) invoices += 1;
        break;
      }
      case 'enter_non_po': {
        const res = call(api, t.omar, 'POST', '/ap-invoices', { vendor: 'V-0142', vendor_invoice_number: `R-${invoices}`, invoice_date: api.today(), lines: [{ qty: 1, unit_price: a.amount, amount: a.amount, account: '6100', department: 'OPS' }], total: a.amount });
        if (res.status === 201) invoices += 1;
        break;
      }
      case 'validate': call(api, t.omar, 'POST', `/ap-invoices/${inv(a.inv)}/validate`, {}); break;
      case 'hold': call(api, t.omar, 'POST', `/ap-invoices/${inv(a.inv)}/holds`, { reason: a.reason }); break;
      case 'release_hold': call(api, t.omar, 'POST', `/holds/${id('HOLD', a.hold)}/release`, { note: 'checked' }); break;
      case 'approve': call(api, t.hannah, 'POST', `/ap-invoices/${inv(a.inv)}/approve`, {}); break;
      case 'run': call(api, a.inv % 2 ? t.hannah : t.omar, 'POST', '/payment-runs', { payment_date: api.today(), bank_account: 'BANK-OP', items: [{ invoice: inv(a.inv), amount: a.amount, discount: a.discount }] }); break;
      case 'run_step': {
        const run = id('PR', a.run);
        const path = `/payment-runs/${run}/${a.step === 'self_approve' ? 'approve' : a.step}`;
        const preparer = api.read.payments.run(run)?.created_by === 'hannah.brooks' ? t.hannah : t.omar;
        const token = a.step === 'submit' || a.step === 'cancel' ? t.omar : a.step === 'self_approve' ? preparer : preparer === t.omar ? t.hannah : t.grace;
        call(api, token, 'POST', path, a.step === 'cancel' ? { reason: 'not_needed' } : {});
        break;
      }
      case 'pay': call(api, t.hannah, 'POST', `/ap-invoices/${inv(a.inv)}/pay`, { bank_account: 'BANK-OP', amount: a.amount }); break;
      case 'void': call(api, t.hannah, 'POST', `/ap-invoices/${inv(a.inv)}/void`, { reason: 'entered_in_error' }); break;
      case 'write_off': call(api, t.hannah, 'POST', `/ap-invoices/${inv(a.inv)}/write-off`, { amount: a.amount, reason: 'settled' }); break;
      case 'debit_memo': call(api, t.omar, 'POST', '/debit-memos', { invoice: inv(a.inv), lines: [{ po_line: 1, qty: a.qty }], reason: 'not_received' }); break;
      case 'credit': call(api, t.omar, 'POST', '/vendor-credits', { vendor: 'V-0142', vendor_reference: 'CM', amount: a.amount, invoice: a.inv === undefined ? undefined : inv(a.inv) }); break;
      case 'reject': call(api, t.hannah, 'POST', `/ap-invoices/${inv(a.inv)}/reject`, { reason: 'not_ours' }); break;
      case 'next_day':
        world.actors = { bank: { payments: { as: 'first.bank', returns: a.returnIt ? [{ vendor: 'V-0142', reason: 'account_closed' }] : [] } } };
        advanceTo(api, nextWorkday(api.today()), createSimulator(world, credentials));
        break;
      case 'progress': progress(); break;
      default: { const never: never = a; throw new Error(`unknown action ${JSON.stringify(never)}`); }
    }
  }
  return { erp, api, t, file };
}

function invariants({ erp, api, t, file }: ReturnType<typeof play>): void {
  const sums = erp.db.prepare('SELECT COALESCE(SUM(debit), 0) AS d, COALESCE(SUM(credit), 0) AS c FROM gl_lines').get() as { d: number; c: number };
  expect(sums.d).toBe(sums.c);
  const ties = call(api, t.grace, 'GET', '/reports/control-ties').body;
  expect(ties.rows.filter((r: any) => r.subledger !== 'ar').map((r: any) => [r.account, r.difference])).toEqual([['1000', 0], ['1010', 0], ['1300', 0], ['2000', 0], ['2100', 0]]);
  const onHand = erp.db.prepare(`SELECT COALESCE(SUM(qty), 0) AS q FROM inventory_transactions WHERE item = 'SEAL-1'`).get() as { q: number };
  expect(api.read.inventory.onHand('SEAL-1')).toBeCloseTo(onHand.q, 6);
  for (const row of erp.db.prepare('SELECT id, posted, lifecycle, total, open_amount, ap_balance FROM ap_invoices').all() as any[]) {
    expect(row.open_amount).toBeGreaterThanOrEqual(0);
    expect(row.open_amount).toBeLessThanOrEqual(row.total);
    const moved = (erp.db.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM ap_transactions WHERE invoice = ?').get(row.id) as { s: number }).s;
    expect(moved).toBe(row.ap_balance);
  }
  for (const line of [1, 2]) {
    const received = api.read.receiving.receivedAsOf('PO-000001', line, api.today()).value;
    expect(received - api.read.payables.grniMatched('PO-000001', line).value).toBeGreaterThanOrEqual(0);
  }
  const replay = checkReplay(file, erp.db, createAppRegistry());
  expect(replay.differingTables).toEqual([]);
}

describe('random sequences of procure-to-pay actions, valid and invalid', () => {
  it('never unbalance the ledger, untie a control account, settle beyond an amount, or differ from their replay', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 5, maxLength: 40 }), (actions) => {
      invariants(play(actions));
    }), { numRuns: RUNS });
  });

  it('give the same read models when the same sequence is played twice', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 5, maxLength: 30 }), (actions) => {
      const [a, b] = [play(actions), play(actions)];
      const tables = a.erp.registry.tableNames();
      expect(canonicalHash(a.erp.db, { tables })).toBe(canonicalHash(b.erp.db, { tables }));
    }), { numRuns: Math.max(3, Math.floor(RUNS / 4)) });
  });

  it('hold for a cycle that receives, invoices, approves, pays, clears and returns', () => {
    invariants(play([
      { kind: 'receive', qty: 10 }, { kind: 'enter', line: 1, qty: 12, upliftBp: 800, freight: 15, badTotal: false }, { kind: 'validate', inv: 0 },
      { kind: 'debit_memo', inv: 0, qty: 2 }, { kind: 'approve', inv: 0 }, { kind: 'run', inv: 0, amount: undefined, discount: '1.00' },
      { kind: 'run_step', run: 0, step: 'submit' }, { kind: 'run_step', run: 0, step: 'approve' }, { kind: 'run_step', run: 0, step: 'release' },
      { kind: 'next_day', returnIt: true }, { kind: 'pay', inv: 0, amount: undefined }, { kind: 'next_day', returnIt: false },
    ]));
  });
});
