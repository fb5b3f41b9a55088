import { addDays, addMonths } from '../../../domain/calendar';
import { monthsThrough, nextPeriod, straightLineTarget } from '../../../domain/ledger/schedules';
import { formatCents } from '../../../domain/money';
import type { ScenarioBuilder } from '../../builder';
import type { Rng } from '../../random';
import type { NorthgateMaster } from '../master';
import { isValve } from '../production-design';

const dollars = (cents: number) => formatCents(cents, false);

/**
 * A manual journal entry through its whole flow, as the accounting team does it: the staff
 * accountant drafts it with support and submits it, the controller approves, the accountant posts.
 */
export function postJournalEntry(b: ScenarioBuilder, date: string, memo: string, lines: { account: string; debit?: number; credit?: number; department?: string }[], support: string): string {
  const je = b.as('lena.park', 'POST', '/journal-entries', {
    date, memo, attachments: [{ kind: 'file', ref: support, description: memo }],
    lines: lines.map((l) => ({ account: l.account, ...(l.debit ? { debit: dollars(l.debit) } : {}), ...(l.credit ? { credit: dollars(l.credit) } : {}), ...(l.department ? { department: l.department } : {}) })),
  });
  b.as('lena.park', 'POST', `/journal-entries/${je.id}/submit`, {});
  const total = lines.reduce((s, l) => s + (l.debit ?? 0), 0);
  // The controller approves entries up to $250,000; the president above.
  b.as(total <= 25_000_000 ? 'grace.lin' : 'daniel.okafor', 'POST', `/journal-entries/${je.id}/approve`, {});
  b.as('lena.park', 'POST', `/journal-entries/${je.id}/post`, {});
  return je.id as string;
}

/** The accounts an asset class posts to: cost, accumulated depreciation, and the department its depreciation is charged to. */
const CLASSES = {
  machinery: { cost: '1500', accumulated: '1510', department: 'PROD' },
  buildings: { cost: '1520', accumulated: '1530', department: 'OPS' },
  vehicles: { cost: '1540', accumulated: '1545', department: 'WH' },
  computers: { cost: '1550', accumulated: '1555', department: 'IT' },
} as const;
export type AssetClass = keyof typeof CLASSES;
export const DEPRECIATION_ACCOUNT = '6700';

/** The fixed assets on the books when history starts: [description, class, in service, life in months, lowest and highest cost in dollars]. */
const OPENING_ASSETS: [string, AssetClass, string, number, number, number][] = [
  ['CNC machining center, vertical, 40-taper', 'machinery', '2018-05-14', 120, 310_000, 360_000],
  ['CNC machining center, vertical, compact', 'machinery', '2021-03-08', 120, 240_000, 290_000],
  ['CNC turning center with bar feeder', 'machinery', '2019-09-16', 120, 280_000, 330_000],
  ['Valve assembly and test line', 'machinery', '2020-06-22', 120, 380_000, 460_000],
  ['Hydrostatic pressure test benches (3)', 'machinery', '2022-10-03', 84, 90_000, 130_000],
  ['Bar saw and deburring cell', 'machinery', '2023-04-17', 84, 60_000, 90_000],
  ['Plant and warehouse building', 'buildings', '2012-07-01', 468, 2_500_000, 3_000_000],
  ['Delivery truck, 14,500 lb box', 'vehicles', '2022-02-14', 60, 55_000, 70_000],
  ['Forklift, LPG, 5,000 lb', 'vehicles', '2023-08-21', 60, 30_000, 40_000],
  ['Servers, storage and network rack', 'computers', '2023-11-06', 36, 25_000, 40_000],
  ['Laptops and shop-floor workstations', 'computers', '2024-09-09', 36, 12_000, 20_000],
];

export interface AssetSpec {
  description: string;
  cls: AssetClass;
  inService: string;
  life: number;
  cost: number;
}

/** Registers an asset whose cost is already posted (by `source`), with what it had depreciated by `before` (YYYY-MM). */
export function registerAsset(b: ScenarioBuilder, a: AssetSpec, source: string, before?: string): string {
  const c = CLASSES[a.cls];
  const opening = before ? straightLineTarget(a.cost, monthsThrough(nextPeriod(a.inService), before), a.life) : 0;
  return b.as('lena.park', 'POST', '/fixed-assets', {
    description: a.description, cost_account: c.cost, accumulated_account: c.accumulated, expense_account: DEPRECIATION_ACCOUNT, department: c.department,
    cost: dollars(a.cost), life_months: a.life, in_service_date: a.inService, opening_accumulated: dollars(opening), source,
  }).id as string;
}

/** The insurance policy in force when history starts: a year from July, paid in advance. */
export const INSURANCE_YEAR_START = '2025-07';

/**
 * The books on the first day of history: cash deposited against opening equity, stock counted in
 * at standard cost (subassemblies too; the finished valves are the sales opening's, sales-opening.ts),
 * fixed assets (cost less depreciation to date, one register entry per asset) and the unexpired
 * insurance premium by journal entries through their approval flow.
 */
export function openBooks(b: ScenarioBuilder, master: NorthgateMaster, r: Rng): void {
  const date = b.today();
  b.as('lena.park', 'POST', '/bank-accounts/BANK-OP/deposits', { date, amount: dollars(r.cents(90_000_000, 110_000_000, 100)), credit_account: '3200', reference: 'Opening balance', memo: 'Opening balance of the operating account' });
  b.as('lena.park', 'POST', '/bank-accounts/BANK-PR/deposits', { date, amount: dollars(r.cents(15_000_000, 25_000_000, 100)), credit_account: '3200', reference: 'Opening balance', memo: 'Opening balance of the payroll account' });
  for (const item of master.items) {
    if (item.type !== 'stock' || item.phantom || isValve(item.id)) continue;
    // Bought items: a month or two of use, plus what the lead time needs covered until the first
    // replenishment arrives. Made items: a couple of weeks, so the plant is at work from the first month.
    const months = item.category === 'made' ? 0.4 + r.float() * 0.3 : 1 + r.float() + item.leadTimeDays / 30;
    const qty = Math.max(item.category === 'made' ? 1 : item.moq, Math.round(item.monthlyUse * months));
    b.as('luis.romero', 'POST', '/inventory/adjustments', {
      item: item.id, warehouse: 'DAY', qty, unit_cost: dollars(item.standardCost), reason: 'opening_balance', account: '3200', date,
      ...(item.lotControlled ? { lot: `OPEN-${item.id}`, expiry: addDays(date, item.shelfLifeDays ?? 365) } : {}),
    });
  }
  // Depreciation and amortization taken through the month before history starts.
  const before = addMonths(date, -1).slice(0, 7);
  const assets: AssetSpec[] = OPENING_ASSETS.map(([description, cls, inService, life, lo, hi]) => ({ description, cls, inService, life, cost: r.cents(lo * 100, hi * 100, 100) }));
  const byAccount = new Map<string, number>();
  const add = (account: string, cents: number) => byAccount.set(account, (byAccount.get(account) ?? 0) + cents);
  for (const a of assets) {
    add(CLASSES[a.cls].cost, a.cost);
    add(CLASSES[a.cls].accumulated, -straightLineTarget(a.cost, monthsThrough(nextPeriod(a.inService), before), a.life));
  }
  const lines = [...byAccount.entries()].map(([account, net]) => (net > 0 ? { account, debit: net } : { account, credit: -net }));
  const netBook = [...byAccount.values()].reduce((s, v) => s + v, 0);
  const je = postJournalEntry(b, date, 'Opening balances of fixed assets, at cost less depreciation to date', [...lines, { account: '3200', credit: netBook }], 'fixed-asset register');
  for (const a of assets) registerAsset(b, a, je, before);

  const premium = r.cents(4_200_000, 5_400_000, 100);
  const monthsGone = monthsThrough(INSURANCE_YEAR_START, before);
  const unexpired = premium - straightLineTarget(premium, monthsGone, 12);
  const prepaid = postJournalEntry(b, date, 'Opening balance of prepaid insurance: property and liability, July to June', [{ account: '1410', debit: unexpired }, { account: '3200', credit: unexpired }], 'insurance policy schedule');
  b.as('lena.park', 'POST', '/prepaid-schedules', {
    description: `Property and liability insurance, ${INSURANCE_YEAR_START} for twelve months`, prepaid_account: '1410', expense_account: '6400', department: 'OPS',
    amount: dollars(premium), start_period: INSURANCE_YEAR_START, months: 12, opening_amortized: dollars(premium - unexpired), source: prepaid,
  });
}
