import type { ErpClient } from '../../src/client/http-client';
import { cents, get } from '../shared/http';
import { AFTER, BEFORE } from './generate';

/** MB-1.1's accounts: net sales and cost of sales. */
export const REVENUE = ['4000', '4010', '4500', '4600'];
export const COST = ['5000', '5100', '5110', '5120', '5130', '5200', '5300'];

export interface Driver { amount: number; document: string }
/** The bridge as a reader of the ledger finds it, amounts in cents (what each did to margin). */
export interface Bridge {
  before: number;
  after: number;
  price: Driver;
  rebate: Driver;
  writeOff: Driver;
  mix: number;
  /** The receipts the price increase was billed on (a wrong source a careless reader cites). */
  receipts: string[];
}

interface TbRow { account: string; period_debit: number; period_credit: number }
interface GlLine { document_id: string | null; debit: number; credit: number; source_type: string }
interface ItemRow { item: string | null; net_revenue: number; margin: number }

/** Gross margin of a month under MB-1.1, from the month's trial balance. */
export async function grossMargin(client: ErpClient, period: string, accounts: { revenue: string[]; cost: string[] } = { revenue: REVENUE, cost: COST }): Promise<number> {
  const tb = await get<{ rows: TbRow[] }>(client, '/reports/trial-balance', { period });
  const net = (codes: string[]) => tb.rows.filter((r) => codes.includes(r.account)).reduce((s, r) => s + cents(r.period_debit) - cents(r.period_credit), 0);
  return -net(accounts.revenue) - net(accounts.cost);
}

async function glLines(client: ErpClient, account: string, period: string): Promise<GlLine[]> {
  return (await get<{ items: GlLine[] }>(client, '/gl-lines', { account, period, limit: 1000 })).items;
}

/** What the lines of one account did to margin in a month, per document (a cost or contra account: debits lower it). */
async function byDocument(client: ErpClient, account: string, period: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const l of await glLines(client, account, period)) {
    const doc = l.document_id ?? '';
    out.set(doc, (out.get(doc) ?? 0) - (cents(l.debit) - cents(l.credit)));
  }
  return out;
}

function only(map: Map<string, number>, what: string): Driver {
  const entries = [...map.entries()].filter(([, v]) => v !== 0);
  if (entries.length !== 1) throw new Error(`Expected one ${what} in ${AFTER}, found ${entries.length}.`);
  return { document: entries[0]![0], amount: entries[0]![1] };
}

/** MB-1.3's mix: later item sales at each item's earlier margin rate, less the same sales at the earlier overall rate. */
export async function mixEffect(client: ErpClient): Promise<number> {
  const items = async (month: string) => (await get<{ rows: ItemRow[] }>(client, '/reports/sales-margin', { from: month, to: month, by: 'item' })).rows.filter((r) => r.item !== null);
  const before = new Map((await items(BEFORE)).map((r) => [r.item!, { net: cents(r.net_revenue), margin: cents(r.margin) }]));
  const after = await items(AFTER);
  const netBefore = [...before.values()].reduce((s, r) => s + r.net, 0);
  const rate = ([...before.values()].reduce((s, r) => s + r.margin, 0)) / netBefore;
  let mix = 0;
  for (const r of after) {
    const b = before.get(r.item!);
    const itemRate = b && b.net > 0 ? b.margin / b.net : rate;
    mix += cents(r.net_revenue) * (itemRate - rate);
  }
  return Math.round(mix);
}

/** Reads the bridge from the books as the handbook defines it. */
export async function readBridge(client: ErpClient): Promise<Bridge> {
  const priceDocs = await byDocument(client, '5100', AFTER);
  const rises = new Map<string, number>();
  let receipts: string[] = [];
  for (const [doc, amount] of priceDocs) {
    if (!doc.startsWith('AP')) continue;
    const inv = await get<{ vendor: string; lines: { description: string; account: string | null }[] }>(client, `/ap-invoices/${doc}`);
    if (!inv.lines.some((l) => l.account === '5100' && /price increase/i.test(l.description))) continue;
    rises.set(doc, amount);
    receipts = (await get<{ items: { id: string; date: string }[] }>(client, '/receipts', { vendor: inv.vendor, limit: 1000 })).items.filter((r) => r.date.startsWith(AFTER)).map((r) => r.id);
  }
  return {
    before: await grossMargin(client, BEFORE),
    after: await grossMargin(client, AFTER),
    price: only(rises, 'price-increase invoice'),
    rebate: only(await byDocument(client, '4600', AFTER), 'rebate entry'),
    writeOff: only(await byDocument(client, '5110', AFTER), 'inventory write-off'),
    mix: await mixEffect(client),
    receipts,
  };
}

/** Cents as the answer writes them: 1,234.56, a decrease in parentheses. */
export function money(c: number): string {
  const abs = (Math.abs(c) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return c < 0 ? `(${abs})` : abs;
}
