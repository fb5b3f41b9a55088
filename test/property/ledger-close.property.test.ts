import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advanceTo } from '../../src/api/control-app';
import { addDays, addMonths } from '../../src/domain/calendar';
import { openDatabase } from '../../src/events/database';
import { createAppRegistry } from '../../src/projections';
import { checkReplay, replayInto } from '../../src/projections/replay';
import '../../src/sim/behaviours/payables';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld } from '../../src/sim/world';
import { seedCloseBooks } from '../support/close-fixture';
import { call, openTestErp } from '../support/erp';
import { expectSameReadModelsTwice } from '../support/property';

/**
 * Random sequences of record-to-report actions, valid and invalid alike: journal entries (some
 * reversing, some plugs to a control account) taken through their flow, cash in and out and
 * between accounts, the bank's statement and its matching, reconciliations, registers and their
 * monthly runs, pay runs, closes and reopenings, days passing. Whatever happens, the ledger
 * balances in every month, every month's trial balance equals its replay's, a closed month never
 * changes while it stays closed, and control accounts tie unless a plug was posted.
 */
const RUNS = Number(process.env.R2R_RUNS ?? 12);

const cents = fc.integer({ min: 1, max: 90_000 }).map((c) => (c / 100).toFixed(2));
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const action = fc.oneof(
  w(4, fc.record({ kind: fc.constant('entry' as const), amount: cents, account: fc.constantFrom('6100', '6500', '1410', '6400'), reversing: fc.boolean(), backdate: fc.nat({ max: 40 }) })),
  w(1, fc.record({ kind: fc.constant('plug' as const), amount: cents })),
  w(6, fc.record({ kind: fc.constant('entry_step' as const), step: fc.constantFrom('submit', 'approve', 'post', 'return', 'cancel', 'reverse') })),
  w(2, fc.record({ kind: fc.constant('cash' as const), amount: cents, way: fc.constantFrom('deposit', 'withdrawal', 'transfer') })),
  w(2, fc.record({ kind: fc.constant('match' as const) })),
  w(1, fc.record({ kind: fc.constant('reconcile' as const), account: fc.constantFrom('BANK-OP', 'BANK-PR') })),
  w(1, fc.record({ kind: fc.constant('asset' as const), amount: cents, life: fc.integer({ min: 1, max: 24 }) })),
  w(1, fc.record({ kind: fc.constant('prepaid' as const), amount: cents, months: fc.integer({ min: 1, max: 12 }) })),
  w(2, fc.record({ kind: fc.constant('monthly_run' as const), which: fc.constantFrom('depreciation-runs', 'amortization-runs') })),
  w(1, fc.record({ kind: fc.constant('payroll' as const), gross: fc.integer({ min: 10_000, max: 400_000 }) })),
  w(2, fc.record({ kind: fc.constant('close' as const) })),
  w(1, fc.record({ kind: fc.constant('reopen' as const) })),
  w(3, fc.record({ kind: fc.constant('days' as const), n: fc.integer({ min: 1, max: 12 }) })),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

function play(actions: readonly Action[]) {
  const file = join(mkdtempSync(join(tmpdir(), 'bb-erp-r2r-')), 'r2r.db');
  const { erp, api } = openTestErp(file);
  const t = seedCloseBooks(api, '2026-09-01');
  call(api, t.lena, 'POST', '/bank-accounts/BANK-OP/deposits', { date: '2026-09-01', amount: '50000.00', credit_account: '3000', reference: 'Opening' });
  call(api, t.lena, 'POST', '/bank-accounts/BANK-PR/deposits', { date: '2026-09-01', amount: '20000.00', credit_account: '3000', reference: 'Opening' });
  const world = emptyWorld('r2r', 0);
  world.users = ['first.bank'];
  const credentials = { 'first.bank': t.bank };
  world.actors = { bank: { statements: { as: 'first.bank' } } };
  let plugged = false;
  let payPeriodEnd = '2026-08-31';
  const lastEntry = () => {
    const n = api.read.idCounters.last('JE');
    return n ? `JE-${String(n).padStart(6, '0')}` : undefined;
  };
  const previousMonth = () => addMonths(api.today(), -1).slice(0, 7);
  for (const a of actions) {
    const today = api.today();
    switch (a.kind) {
      case 'entry':
        call(api, t.lena, 'POST', '/journal-entries', {
          date: addDays(today, -a.backdate), memo: 'Accrual', lines: [{ account: a.account, debit: a.amount, department: 'OPS' }, { account: '2300', credit: a.amount }],
          attachments: [{ kind: 'file', ref: 'support' }], ...(a.reversing ? { auto_reverse_on: addMonths(`${addDays(today, -a.backdate).slice(0, 7)}-01`, 1) } : {}),
        });
        break;
      case 'plug': {
        const res = call(api, t.lena, 'POST', '/journal-entries', { memo: 'Plug AP', lines: [{ account: '2000', debit: a.amount }, { account: '6500', credit: a.amount }], attachments: [{ kind: 'file', ref: 'aging' }] });
        if (res.status !== 201) break;
        call(api, t.lena, 'POST', `/journal-entries/${res.body.id}/submit`, {});
        call(api, t.grace, 'POST', `/journal-entries/${res.body.id}/approve`, {});
        if (call(api, t.lena, 'POST', `/journal-entries/${res.body.id}/post`, {}).status === 200) plugged = true;
        break;
      }
      case 'entry_step': {
        const id = lastEntry();
        if (!id) break;
        const token = a.step === 'approve' || a.step === 'return' ? t.grace : t.lena;
        const body = a.step === 'return' || a.step === 'cancel' || a.step === 'reverse' ? { reason: 'review' } : {};
        call(api, token, 'POST', `/journal-entries/${id}/${a.step}`, body);
        break;
      }
      case 'cash':
        if (a.way === 'transfer') call(api, t.grace, 'POST', '/bank-transfers', { from_account: 'BANK-OP', to_account: 'BANK-PR', amount: a.amount });
        else if (a.way === 'deposit') call(api, t.lena, 'POST', '/bank-accounts/BANK-OP/deposits', { date: today, amount: a.amount, credit_account: '4000', reference: `Lockbox ${today}` });
        else call(api, t.lena, 'POST', '/bank-accounts/BANK-OP/withdrawals', { date: today, amount: a.amount, debit_account: '6100', reference: `Wire ${today}` });
        break;
      case 'match':
        for (const account of ['BANK-OP', 'BANK-PR']) {
          for (const line of api.read.cash.unmatchedLines(account)) {
            const book = api.read.cash.transactionsByReference(line.reference).find((b) => b.bank_account === account && b.amount === line.amount && b.statement_line === null);
            if (book) call(api, t.lena, 'POST', `/bank-statement-lines/${line.id}/match`, { reference: book.id });
          }
        }
        break;
      case 'reconcile': call(api, t.lena, 'POST', '/bank-reconciliations', { bank_account: a.account, as_of: today }); break;
      case 'asset':
        call(api, t.lena, 'POST', '/fixed-assets', { description: 'Tool', cost_account: '1500', accumulated_account: '1510', expense_account: '6700', cost: a.amount, life_months: a.life, in_service_date: today, source: 'test' });
        break;
      case 'prepaid':
        call(api, t.lena, 'POST', '/prepaid-schedules', { description: 'Policy', prepaid_account: '1410', expense_account: '6400', amount: a.amount, start_period: today.slice(0, 7), months: a.months, source: 'test' });
        break;
      case 'monthly_run': call(api, t.lena, 'POST', `/${a.which}`, { period: previousMonth() }); break;
      case 'payroll': {
        const start = addDays(payPeriodEnd, 1);
        if (start > today) break;
        const res = call(api, t.mia, 'POST', '/payroll-runs', {
          period_start: start, period_end: today, bank_account: 'BANK-PR',
          lines: [{ employee: 'lena.park', gross: (a.gross / 100).toFixed(2), employee_taxes: (Math.round(a.gross * 0.2) / 100).toFixed(2), employer_taxes: (Math.round(a.gross * 0.08) / 100).toFixed(2) }],
        });
        if (res.status === 201) payPeriodEnd = today;
        break;
      }
      case 'close': call(api, t.grace, 'POST', `/periods/${previousMonth()}/close`, {}); break;
      case 'reopen': {
        const closed = api.read.ledger.periods().filter((p) => p.status === 'closed').pop();
        if (closed) call(api, t.grace, 'POST', `/periods/${closed.period}/reopen`, { reason: 'late_invoice' });
        break;
      }
      case 'days': advanceTo(api, addDays(today, a.n), createSimulator(world, credentials)); break;
      default: { const never: never = a; throw new Error(`unknown action ${JSON.stringify(never)}`); }
    }
  }
  return { erp, api, t, file, plugged };
}

type Totals = { period: string; account: string; d: number; c: number }[];
const periodTotals = (db: ReturnType<typeof openDatabase>): Totals =>
  db.prepare('SELECT period, account, SUM(debit) AS d, SUM(credit) AS c FROM gl_lines GROUP BY period, account ORDER BY period, account').all() as Totals;

function invariants({ erp, api, t, file, plugged }: ReturnType<typeof play>): void {
  const months = erp.db.prepare('SELECT period, SUM(debit) AS d, SUM(credit) AS c FROM gl_lines GROUP BY period').all() as { period: string; d: number; c: number }[];
  for (const m of months) {
    expect([m.period, m.d]).toEqual([m.period, m.c]);
    expect(call(api, t.grace, 'GET', '/reports/trial-balance', undefined, { query: { period: m.period } }).body.balanced).toBe(true);
  }
  const replayed = openDatabase(':memory:');
  replayInto(replayed, file, createAppRegistry());
  expect(periodTotals(replayed)).toEqual(periodTotals(erp.db));
  expect(checkReplay(file, erp.db, createAppRegistry()).differingTables).toEqual([]);
  // A month closed and never reopened after has no posting written after its close.
  for (const p of api.read.ledger.periods().filter((row) => row.status === 'closed')) {
    const closedAt = p.status_history.filter((s) => s.status === 'closed').pop()!.event_id;
    const later = erp.db.prepare('SELECT COUNT(*) AS n FROM gl_lines WHERE period = ? AND event_id > ?').get(p.period, closedAt) as { n: number };
    expect([p.period, later.n]).toEqual([p.period, 0]);
  }
  if (!plugged) expect(call(api, t.grace, 'GET', '/reports/control-ties').body.tied).toBe(true);
}

describe('random sequences of record-to-report actions, valid and invalid', () => {
  it('keep every month balanced, equal to its replay, and frozen once closed', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 5, maxLength: 45 }), (actions) => invariants(play(actions))), { numRuns: RUNS });
  });

  it('give the same read models when the same sequence is played twice', () => {
    expectSameReadModelsTwice(action, play, Math.max(3, Math.floor(RUNS / 4)));
  });

  it('hold for a month of accruals, cash, a reconciliation, registers, payroll and a close', () => {
    const played = play([
      { kind: 'entry', amount: '120.00', account: '6500', reversing: true, backdate: 0 }, { kind: 'entry_step', step: 'submit' }, { kind: 'entry_step', step: 'approve' },
      { kind: 'cash', amount: '300.00', way: 'withdrawal' }, { kind: 'cash', amount: '900.00', way: 'transfer' }, { kind: 'asset', amount: '1200.00', life: 12 },
      { kind: 'prepaid', amount: '600.00', months: 6 }, { kind: 'payroll', gross: 250_000 }, { kind: 'days', n: 12 }, { kind: 'days', n: 12 }, { kind: 'days', n: 10 },
      { kind: 'entry_step', step: 'post' }, { kind: 'match' }, { kind: 'monthly_run', which: 'depreciation-runs' }, { kind: 'monthly_run', which: 'amortization-runs' },
      { kind: 'reconcile', account: 'BANK-OP' }, { kind: 'close' }, { kind: 'reopen' }, { kind: 'close' },
    ]);
    invariants(played);
    expect(played.api.read.ledger.period('2026-09')!.status_history.map((s) => s.status)).toEqual(['open', 'closed', 'open', 'closed']);
    expect(played.api.read.journalEntries.entry('JE-000001')).toMatchObject({ status: 'reversed', reversal_date: '2026-10-01' });
    expect(played.api.read.cash.lastReconciliation('BANK-OP')).toMatchObject({ as_of: '2026-10-05' });
  });
});
