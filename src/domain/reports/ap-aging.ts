import { daysBetween } from '../calendar';
import { VendorIdInput } from '../master/inputs';
import { fromCents } from '../money';
import { DateInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

export const AGING_BUCKETS = ['current', '1_30', '31_60', '61_90', 'over_90'] as const;
type Bucket = (typeof AGING_BUCKETS)[number];

export function agingBucket(daysPastDue: number): Bucket {
  if (daysPastDue <= 0) return 'current';
  if (daysPastDue <= 30) return '1_30';
  if (daysPastDue <= 60) return '31_60';
  if (daysPastDue <= 90) return '61_90';
  return 'over_90';
}

const zero = (): Record<Bucket, number> => ({ current: 0, '1_30': 0, '31_60': 0, '61_90': 0, over_90: 0 });
const decimals = (b: Record<Bucket, number>) => Object.fromEntries(AGING_BUCKETS.map((k) => [k, fromCents(b[k])]));

/**
 * Open AP as of a date, per vendor and invoice, by days past due. Open amounts come from the AP
 * subledger's movements dated on or before the date, so the report's total is the AP subledger and
 * ties to the AP control account. Credit held on account is shown per vendor and reduces its total.
 */
export const apAging = defineReport({
  id: 'ap-aging',
  summary: 'Open AP invoices as of a date (default today) per vendor and invoice, in buckets current / 1-30 / 31-60 / 61-90 / over 90 days past due',
  params: ReportParams({ as_of: Opt(DateInput), vendor: Opt(VendorIdInput) }),
  permission: null,
  run: (ctx, params) => {
    const asOf = params.as_of ?? ctx.today;
    const vendors = new Map<string, { buckets: Record<Bucket, number>; credits: number; invoices: object[] }>();
    const totals = zero();
    let credits = 0;
    for (const item of ctx.read.payables.openItemsAsOf(asOf)) {
      if (params.vendor && item.vendor !== params.vendor) continue;
      const v = vendors.get(item.vendor) ?? { buckets: zero(), credits: 0, invoices: [] };
      vendors.set(item.vendor, v);
      if (item.invoice === null) {
        v.credits += item.amount;
        credits += item.amount;
        continue;
      }
      const inv = ctx.read.payables.invoice(item.invoice)!;
      const days = daysBetween(inv.due_date, asOf);
      const bucket = agingBucket(days);
      v.buckets[bucket] += item.amount;
      totals[bucket] += item.amount;
      v.invoices.push({
        invoice: inv.id, vendor_invoice_number: inv.vendor_invoice_number, invoice_date: inv.invoice_date, due_date: inv.due_date,
        days_past_due: Math.max(0, days), bucket, open_amount: fromCents(item.amount), status: inv.status,
      });
    }
    const rows = [...vendors.entries()].map(([vendor, v]) => ({
      vendor, name: ctx.read.vendors.vendor(vendor)?.name ?? vendor, ...decimals(v.buckets), credits_on_account: fromCents(v.credits),
      total: fromCents(AGING_BUCKETS.reduce((s, k) => s + v.buckets[k], 0) + v.credits), invoices: v.invoices,
    }));
    const total = AGING_BUCKETS.reduce((s, k) => s + totals[k], 0) + credits;
    return { as_of: asOf, buckets: AGING_BUCKETS, vendors: rows, totals: { ...decimals(totals), credits_on_account: fromCents(credits), total: fromCents(total) } };
  },
});
