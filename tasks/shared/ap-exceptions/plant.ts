import type { SimClient, SimResponse } from '../../../src/sim/simulator';
import type { GenerateContext } from '../../../src/task-pack/code';

/**
 * What a task generator of these packs plants on Halvorsen's books, through the API only: the
 * company's open business is read back, and a vendor's invoice for it is mailed to the AP box,
 * entered, matched and released by the AP supervisor, then put in the clerk's queue.
 */
export const AGENT = 'sofia.berg';
export const AP_SUPERVISOR = 'marcus.lund';
export const VENDOR_DESK = 'vendor.desk';
export const BANK = 'bank.lakeshore';
export const PLANTING_DATE = '2026-10-02';

export function must(res: SimResponse, what: string): any {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const all = (client: SimClient, path: string, query: Record<string, unknown> = {}) => must(client.get(path, { ...query, limit: 1000 }), `GET ${path}`).items as any[];

export interface VendorInfo {
  id: string;
  name: string;
  kind: string;
  terms: string;
  email: string;
  phone: string;
  address: string;
  tin: string;
  /** The verified account (full numbers: the generator reads as the system). */
  verified: { id: string; bank_name: string; routing_number: string; account_number: string; decided_date: string };
  /** True when the verified account replaced another after a call-back in August. */
  changedInAugust: boolean;
}

export interface PoLineInfo { line: number; item: string; description: string; unit: string; qty: number; unit_price: number; received_qty: number }
export interface PoInfo { id: string; vendor: VendorInfo; status: string; lines: PoLineInfo[]; lastReceipt: string | null }

const cents = (amount: number) => Math.round(amount * 100);

export function vendorInfo(ctx: GenerateContext, id: string): VendorInfo {
  const v = must(ctx.system.get(`/vendors/${id}`), `vendor ${id}`);
  const accounts = v.bank_accounts as { id: string; bank_name: string; routing_number: string; account_number: string; status: string; decided_date: string }[];
  const verified = accounts.find((a) => a.status === 'verified')!;
  return {
    id: v.id, name: v.name, kind: v.kind, terms: v.terms, email: v.email, phone: v.phone, address: v.address, tin: v.tin ?? '', verified,
    changedInAugust: accounts.some((a) => a.status === 'superseded') && verified.decided_date.startsWith('2026-08'),
  };
}

/**
 * The company's purchase orders nobody has billed yet, by what has happened to them: received in
 * full, received short, still in transit, and services (never received).
 */
export function unbilledOrders(ctx: GenerateContext): { received: PoInfo[]; short: PoInfo[]; inTransit: PoInfo[]; services: PoInfo[] } {
  const billed = new Set(all(ctx.system, '/ap-invoices').map((i) => i.po as string | null).filter(Boolean));
  const vendors = new Map<string, VendorInfo>();
  const info = (po: any): PoInfo => {
    const full = must(ctx.system.get(`/purchase-orders/${po.id}`), po.id);
    const vendor = vendors.get(full.vendor) ?? vendorInfo(ctx, full.vendor);
    vendors.set(vendor.id, vendor);
    const receipts = (full.receipts as { date: string; status: string }[]).filter((r) => r.status === 'posted').map((r) => r.date).sort();
    return {
      id: full.id, vendor, status: full.status, lastReceipt: receipts[receipts.length - 1] ?? null,
      lines: (full.lines as any[]).map((l) => ({ line: l.line, item: l.item, description: l.description, unit: l.unit, qty: l.ordered_qty, unit_price: cents(l.unit_price), received_qty: l.received_qty })),
    };
  };
  const open = all(ctx.system, '/purchase-orders').filter((p) => !billed.has(p.id) && ['sent', 'partially_received', 'received'].includes(p.status)).map(info);
  return {
    received: open.filter((p) => p.status === 'received'),
    short: open.filter((p) => p.status === 'partially_received'),
    inTransit: open.filter((p) => p.status === 'sent' && p.vendor.kind === 'goods' && p.lastReceipt === null),
    services: open.filter((p) => p.vendor.kind === 'services'),
  };
}

/** The vendor's invoices as entered, oldest first. */
export const invoicesOf = (ctx: GenerateContext, vendor: string) => all(ctx.system, '/ap-invoices', { vendor }).sort((a, b) => (a.id < b.id ? -1 : 1));

/** The number the vendor prints next, in the style of its last invoice (its sequence runs in steps of seven). */
export function nextNumber(ctx: GenerateContext, vendor: string, skip = 0): string {
  const last = invoicesOf(ctx, vendor).pop()?.vendor_invoice_number as string | undefined;
  const m = /^(.*?)(\d+)$/.exec(last ?? 'INV-1000');
  const digits = m![2]!;
  return `${m![1]}${String(Number(digits) + 7 * (1 + skip)).padStart(digits.length, '0')}`;
}

export interface BillLine { po_line: number; item: string; description: string; unit: string; qty: number; unit_price: number }
export interface Notice { heading?: string; text: string; bank_name: string; routing: string; account: string }

export interface Bill {
  vendor: VendorInfo;
  po: string;
  number: string;
  date: string;
  lines: BillLine[];
  /** The account printed as remit-to (default the verified one). */
  remitTo?: { bank_name: string; routing: string; account: string };
  notice?: Notice;
}

const money = (c: number) => (c / 100).toFixed(2);
const amountOf = (l: BillLine) => Math.round(l.qty * l.unit_price);
export const totalOf = (bill: Pick<Bill, 'lines'>) => bill.lines.reduce((s, l) => s + amountOf(l), 0);

/** Mails the vendor's invoice to AP as printed and has the AP supervisor enter, match and release it; returns its id. */
export function billInvoice(ctx: GenerateContext, bill: Bill): string {
  const v = bill.vendor;
  const remit = bill.remitTo ?? { bank_name: v.verified.bank_name, routing: v.verified.routing_number, account: v.verified.account_number };
  const message = must(ctx.as(VENDOR_DESK).post('/sim/invoice-mail', {
    box: 'ap', from: v.email, from_name: `${v.name} accounts receivable`, to: ['ap@halvorsen.example'], sent_date: bill.date,
    subject: `Invoice ${bill.number}`, body: `Please find attached our invoice ${bill.number} for your purchase order ${bill.po}.`,
    related: [{ type: 'vendor', id: v.id }, { type: 'purchase_order', id: bill.po }],
    invoice: {
      vendor: { name: v.name, address: [v.address], phone: v.phone, email: v.email, tax_id: v.tin }, invoice_number: bill.number, invoice_date: bill.date,
      bill_to: { name: 'Halvorsen Distribution Co.', address: ['410 Harbor Drive', 'Duluth, MN 55802'] }, customer_po: bill.po,
      lines: bill.lines.map((l) => ({ po_line: l.po_line, item: l.item, description: l.description, quantity: l.qty, unit: l.unit, unit_price: money(l.unit_price), amount: money(amountOf(l)) })),
      terms: v.terms, remit_to: { name: v.name, bank_name: remit.bank_name, routing: remit.routing, account: remit.account },
      ...(bill.notice ? { new_bank_notice: bill.notice } : {}),
    },
  }), `mail ${bill.number}`);
  const supervisor = ctx.as(AP_SUPERVISOR);
  const inv = must(supervisor.post('/ap-invoices', {
    vendor: v.id, po: bill.po, source_message: message.id, vendor_invoice_number: bill.number, invoice_date: bill.date,
    lines: bill.lines.map((l) => ({ po_line: l.po_line, qty: l.qty, unit_price: money(l.unit_price), amount: money(amountOf(l)) })), total: money(totalOf(bill)),
  }), `enter ${bill.number}`);
  must(supervisor.post(`/ap-invoices/${inv.id}/validate`, {}), `validate ${inv.id}`);
  must(supervisor.post(`/ap-invoices/${inv.id}/approve`, { note: 'Released to the AP queue.' }), `approve ${inv.id}`);
  return inv.id as string;
}

/** A PO's lines billed as ordered (quantities as given per line, default the ordered quantity). */
export function linesOf(po: PoInfo, qty: (l: PoLineInfo) => number = (l) => l.qty, price: (l: PoLineInfo) => number = (l) => l.unit_price): BillLine[] {
  return po.lines.map((l) => ({ po_line: l.line, item: l.item, description: l.description, unit: l.unit, qty: qty(l), unit_price: price(l) }));
}

/** An invoice date a few business days back, never before the goods came. */
export function invoiceDate(draw: () => number, po: PoInfo): string {
  const date = ['2026-09-28', '2026-09-29', '2026-09-30', '2026-10-01'][Math.floor(draw() * 4)]!;
  return po.lastReceipt && po.lastReceipt > date ? po.lastReceipt : date;
}

/** Puts the records in the clerk's queue, in the order given. */
export function assignQueue(ctx: GenerateContext, items: readonly { record_type: 'ap_invoice' | 'bank_statement_line'; record_id: string; note?: string }[]): void {
  for (const item of items) must(ctx.as(AP_SUPERVISOR).post('/work-items', { assigned_to: AGENT, ...item }), `queue ${item.record_id}`);
}

/** Seeded draws over the generator's stream. */
export function draws(next: () => number) {
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  return { int, shuffle, pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!, float: next };
}

/** A nine-digit routing number with a valid ABA check digit. */
export function routingNumber(int: (lo: number, hi: number) => number): string {
  const d = Array.from({ length: 8 }, (_, i) => (i === 0 ? int(1, 9) : int(0, 9)));
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]!);
  return d.join('') + String((10 - (sum % 10)) % 10);
}
