import { daysBetween } from '../calendar';
import { fromCents } from '../money';
import { DateInput, IdInput, Opt } from '../schemas';
import { agingBucket, AGING_BUCKETS } from './ap-aging';
import { defineReport, ReportParams } from './registry';

type Bucket = (typeof AGING_BUCKETS)[number];
const zero = (): Record<Bucket, number> => ({ current: 0, '1_30': 0, '31_60': 0, '61_90': 0, over_90: 0 });
const decimals = (b: Record<Bucket, number>) => Object.fromEntries(AGING_BUCKETS.map((k) => [k, fromCents(b[k])]));

/**
 * Open AR as of a date, per customer and invoice, by days past due (seed 000 C4). Open amounts come
 * from the AR subledger's movements dated on or before the date, so the total is the AR subledger
 * and ties to the AR control account; cash and credit on a customer's account reduce its total.
 */
export const arAging = defineReport({
  id: 'ar-aging',
  summary: 'Open AR invoices as of a date (default today) per customer and invoice, in buckets current / 1-30 / 31-60 / 61-90 / over 90 days past due, with cash and credit on account',
  params: ReportParams({ as_of: Opt(DateInput), customer: Opt(IdInput) }),
  permission: null,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const customers = new Map<string, { buckets: Record<Bucket, number>; onAccount: number; invoices: object[] }>();
    const totals = zero();
    let onAccount = 0;
    for (const item of ctx.read.receivables.openItemsAsOf(asOf)) {
      if (params.customer && item.customer !== params.customer) continue;
      const c = customers.get(item.customer) ?? { buckets: zero(), onAccount: 0, invoices: [] };
      customers.set(item.customer, c);
      if (item.invoice === null) {
        c.onAccount += item.amount;
        onAccount += item.amount;
        continue;
      }
      const inv = ctx.read.receivables.invoice(item.invoice)!;
      const days = daysBetween(inv.due_date, asOf);
      const bucket = agingBucket(days);
      c.buckets[bucket] += item.amount;
      totals[bucket] += item.amount;
      c.invoices.push({
        invoice: inv.id, customer_po: inv.customer_po, invoice_date: inv.invoice_date, due_date: inv.due_date, days_past_due: Math.max(0, days), bucket,
        open_amount: fromCents(item.amount), total: fromCents(inv.total),
      });
    }
    const rows = [...customers.entries()].map(([customer, c]) => ({
      customer, name: ctx.read.customers.customer(customer)?.name ?? customer, ...decimals(c.buckets), on_account: fromCents(c.onAccount),
      total: fromCents(AGING_BUCKETS.reduce((s, k) => s + c.buckets[k], 0) + c.onAccount), invoices: c.invoices,
    }));
    const total = AGING_BUCKETS.reduce((s, k) => s + totals[k], 0) + onAccount;
    return { as_of: asOf, buckets: AGING_BUCKETS, customers: rows, totals: { ...decimals(totals), on_account: fromCents(onAccount), total: fromCents(total) } };
  },
});
