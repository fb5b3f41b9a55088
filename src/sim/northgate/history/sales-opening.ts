import { addDays } from '../../../domain/calendar';
import { formatCents } from '../../../domain/money';
import type { ScenarioBuilder } from '../../builder';
import type { Rng } from '../../random';
import type { NorthgateMaster } from '../master';
import { openFinishedGoods } from './finished-goods';

const dollars = (cents: number) => formatCents(cents, false);
/** What Northgate sells in a month, about: the opening AR is a month and a half of it. */
const MONTHLY_SALES_CENTS = 33_000_000;

/**
 * What customers owed when the books began (seed 000 §2: aging from the first turn): one or two
 * invoices of August and September per customer, in proportion to its weight, posted on the first
 * day against opening equity, so collections start on day one; and the finished valves on hand.
 */
export function openSales(b: ScenarioBuilder, master: NorthgateMaster, r: Rng): void {
  const date = b.today();
  const weights = master.customers.map((c) => master.sales.customers[c.id]!.weight);
  const total = weights.reduce((s, w) => s + w, 0);
  master.customers.forEach((c, i) => {
    const owed = Math.round((MONTHLY_SALES_CENTS * 1.5 * weights[i]!) / total);
    const n = owed > 1_000_000 ? 2 : 1;
    for (let k = 0; k < n; k++) {
      const amount = Math.round((owed / n) * (0.8 + r.float() * 0.4));
      const invoiceDate = addDays(date, -r.int(k === 0 ? 5 : 30, k === 0 ? 28 : 50));
      b.as('lena.park', 'POST', '/ar-invoices', {
        customer: c.id, invoice_date: invoiceDate, gl_date: date, customer_po: `${c.id.replace('C-', 'P')}-25${String(900 + k).padStart(3, '0')}`,
        lines: [{ description: `Opening balance: invoice of ${invoiceDate}`, amount: dollars(amount), account: '3200' }],
      });
    }
  });
  openFinishedGoods(b, master, date);
}
