import { addDays } from '../../../domain/calendar';
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

/**
 * The books on the first day of history: cash deposited against opening equity, stock counted in
 * at standard cost (subassemblies too; the finished valves are the sales opening's, sales-opening.ts),
 * and fixed assets by a journal entry through its approval flow.
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
  const assets = [
    { account: '1500', debit: r.cents(120_000_000, 160_000_000, 100) },
    { account: '1520', debit: r.cents(250_000_000, 300_000_000, 100) },
    { account: '1540', debit: r.cents(8_000_000, 12_000_000, 100) },
    { account: '1550', debit: r.cents(3_000_000, 6_000_000, 100) },
  ];
  const total = assets.reduce((s, a) => s + a.debit, 0);
  postJournalEntry(b, date, 'Opening balances of fixed assets', [...assets, { account: '3200', credit: total }], 'fixed-asset register');
}
