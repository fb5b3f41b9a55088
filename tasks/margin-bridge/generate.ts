import type { SimClient } from '../../src/sim/simulator';
import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { must } from '../shared/http';

/** The controller reads on the Monday after September's close; the drivers are booked in September. */
export const AGENT = 'nadia.brandt';
export const BEFORE = '2026-08';
export const AFTER = '2026-09';
const MONTH_END = '2026-09-30';
/** A vendor's price rise on the 1st of September, billed on top of the PO price for September's receipts. */
const PRICE_RISE_BP = 800;
/** The rebate tier the customer's year passed in September: the rate on every 2026 purchase rises by this much. */
const TIER_STEP_BP = 100;
/** Share of the item's on-hand written off. */
const WRITE_OFF_SHARE = 0.06;

const dollars = (c: number) => (c / 100).toFixed(2);

interface Row { [k: string]: unknown }
const items = (res: unknown) => (res as { items: Row[] }).items;

/** Every page of a list, as the system actor reads it. */
function all(sys: SimClient, path: string, query: Record<string, string | number> = {}): Row[] {
  const out: Row[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = items(must(sys.get(path, { ...query, limit: 500, offset }), path));
    out.push(...page);
    if (page.length < 500) return out;
  }
}

/** The stock item a vendor received most of (by value) in September, and how many of it. */
function septemberReceipts(sys: SimClient): { vendor: string; item: string; qty: number; unitPrice: number; receipts: string[] } {
  const receipts = all(sys, '/receipts').filter((r) => String(r.date).startsWith(AFTER) && r.status === 'posted');
  const by = new Map<string, { vendor: string; item: string; qty: number; value: number; unitPrice: number; receipts: string[] }>();
  for (const r of receipts) {
    const full = must(sys.get(`/receipts/${String(r.id)}`), 'receipt') as { vendor: string; lines: Row[] };
    for (const l of full.lines) {
      if (!l.stock || !l.item) continue;
      const key = `${full.vendor}\u0000${String(l.item)}`;
      const g = by.get(key) ?? { vendor: full.vendor, item: String(l.item), qty: 0, value: 0, unitPrice: Math.round(Number(l.unit_price) * 100), receipts: [] };
      g.qty += Number(l.qty_received);
      g.value += Math.round(Number(l.amount) * 100);
      if (!g.receipts.includes(String(r.id))) g.receipts.push(String(r.id));
      by.set(key, g);
    }
  }
  const best = [...by.values()].sort((a, b) => b.value - a.value || (a.item < b.item ? -1 : 1))[0];
  if (!best) throw new Error('No stock was received in September to raise a price on.');
  return best;
}

/** The reader of the answer: a controller who may read everything and change nothing. */
function addReader(ctx: GenerateContext): void {
  must(ctx.system.post('/roles', { id: 'finance_read_only', name: 'Finance, read only', permissions: ['ledger.read', 'audit.read', 'bank.read'] }), 'read-only role');
  must(ctx.system.post('/users', {
    id: AGENT, name: 'Nadia Brandt', title: 'Assistant Controller', email: 'nadia.brandt@northgatevalve.example', department: 'FIN', manager: 'grace.lin', roles: ['finance_read_only'],
  }), 'reader');
  ctx.issueToken(AGENT);
}

/**
 * Books four drivers into September, which history closed on 2 October: the controller reopens it
 * for late entries and the accountant closes it again. A vendor's price rise from the 1st, billed
 * on top of September's receipts; a customer passing a rebate tier, retroactive to January; stock
 * written off; and the month's own mix of items, which history made and the truth measures.
 */
export function generate(ctx: GenerateContext): Truth {
  addReader(ctx);
  const lena = ctx.as('lena.park');
  must(lena.post(`/periods/${AFTER}/reopen`, { reason: 'late_entries', note: 'Late September entries: a vendor price rise, a rebate tier and a stock write-off' }), 'reopen September');

  // The price rise: the vendor bills the difference on every unit received in September.
  const rise = septemberReceipts(ctx.system);
  const perUnit = Math.round((rise.unitPrice * PRICE_RISE_BP) / 10_000);
  const priceCents = Math.round(perUnit * rise.qty);
  const omar = ctx.as('omar.haddad');
  const inv = must(omar.post('/ap-invoices', {
    vendor: rise.vendor, vendor_invoice_number: `PX-${rise.item}-0926`, invoice_date: MONTH_END, total: dollars(priceCents),
    lines: [{ description: `Price increase effective 1 September 2026 on ${rise.item}: ${dollars(perUnit)} a unit on ${rise.qty} units received in September`, qty: rise.qty, unit_price: dollars(perUnit), amount: dollars(priceCents), account: '5100', department: 'PUR' }],
  }), 'price-rise invoice');
  must(omar.post(`/ap-invoices/${String(inv.id)}/validate`, { gl_date: MONTH_END }), 'validate price-rise invoice');
  must(ctx.as('grace.lin').post(`/ap-invoices/${String(inv.id)}/approve`, { note: 'Price increase notified by the vendor in August.' }), 'approve price-rise invoice');

  // The rebate tier: the customer's 2026 billing through September, one more point on all of it.
  const invoices = all(ctx.system, '/ar-invoices').filter((i) => String(i.period) >= '2026-01' && String(i.period) <= AFTER && i.status !== 'voided');
  const byCustomer = new Map<string, number>();
  for (const i of invoices) byCustomer.set(String(i.customer), (byCustomer.get(String(i.customer)) ?? 0) + Math.round(Number(i.subtotal) * 100));
  const [customer, ytd] = [...byCustomer.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
  const rebateCents = Math.round((ytd * TIER_STEP_BP) / 10_000);
  const je = must(lena.post('/journal-entries', {
    date: MONTH_END,
    memo: `Retroactive rebate tier: ${customer}'s 2026 purchases of ${dollars(ytd)} passed the next tier in September; one more point on every 2026 purchase`,
    lines: [{ account: '4600', debit: dollars(rebateCents), department: 'SALES' }, { account: '2300', credit: dollars(rebateCents) }],
    attachments: [{ kind: 'file', ref: `rebate-tier-${customer}`, description: 'Customer rebate schedule and 2026 sales to date' }],
  }), 'rebate entry');
  must(lena.post(`/journal-entries/${String(je.id)}/submit`, {}), 'submit rebate entry');
  must(ctx.as('grace.lin').post(`/journal-entries/${String(je.id)}/approve`, { note: 'Tier reached; support attached.' }), 'approve rebate entry');
  must(lena.post(`/journal-entries/${String(je.id)}/post`, {}), 'post rebate entry');

  // The write-off: part of the stock item holding the most value.
  const stock = items(must(ctx.system.get('/inventory/on-hand'), 'on-hand')).filter((s) => Number(s.qty) >= 20);
  const biggest = stock.sort((a, b) => Number(b.value) - Number(a.value) || (String(a.item) < String(b.item) ? -1 : 1))[0];
  if (!biggest) throw new Error('No stock to write off.');
  const qty = Math.max(5, Math.floor(Number(biggest.qty) * WRITE_OFF_SHARE));
  const adj = must(ctx.as('tessa.nguyen').post('/inventory/adjustments', {
    item: biggest.item, warehouse: biggest.warehouse, ...(biggest.location ? { location: biggest.location } : {}), ...(biggest.lot ? { lot: biggest.lot } : {}),
    qty: -qty, reason: 'write_off', account: '5110', date: '2026-09-28', note: `Corroded in the yard after the September storm: ${qty} ${String(biggest.item)} scrapped`,
  }), 'write-off');

  must(lena.post(`/periods/${AFTER}/close`, { note: 'Closed again after the late entries' }), 'close September again');
  return {
    planted: [
      { id: 'price-rise', clauses: ['MB-1.2/price'], description: `${rise.vendor} raised ${rise.item} by ${dollars(perUnit)} a unit from 1 September: ${String(inv.id)}, ${dollars(priceCents)}` },
      { id: 'rebate-tier', clauses: ['MB-1.2/rebate', 'MB-1.3'], description: `${customer} passed a rebate tier: ${String(je.id)}, ${dollars(rebateCents)}` },
      { id: 'write-off', clauses: ['MB-1.2/write_off'], description: `${qty} ${String(biggest.item)} written off: ${String(adj.id)}` },
      { id: 'mix', clauses: ['MB-1.2/mix', 'MB-1.3'], description: 'The change in September\'s mix of items at August\'s margin rates' },
      { id: 'margins', clauses: ['MB-1.1', 'MB-2.1'], description: 'Both months\' gross margin and the change' },
    ],
  };
}
