import { invoiceAttachment, type InvoiceDocument } from '../../domain/comms/documents';
import { fromCents, roundCents } from '../../domain/money';
import type { Queries } from '../../projections';
import type { VendorBillingRow } from '../../projections/payables-memos';
import type { SimContext } from '../simulator';
import { billingProfile, businessDaysAfter, must, type BillingDefect, type VendorBilling, type VendorBillingProfile } from './payables-profiles';

interface Source {
  type: 'delivery' | 'receipt';
  id: string;
  po: string;
  date: string;
  lines: { po_line: number; qty: number }[];
}

interface Billed {
  number: string;
  date: string;
  po: string;
  lines: { po_line: number; item: string | null; description: string; unit: string; qty: number; unit_price: number; amount: number }[];
  tax: number;
  freight: number;
  total: number;
  defects: string[];
  bankNotice: Extract<BillingDefect, { kind: 'bank_change' }> | undefined;
}

/** What the vendor shipped and has not billed yet: announced shipments, or receipts, by date; lines read when billed. */
function unbilledSources(read: Queries, vendor: string, trigger: 'shipment' | 'receipt'): Omit<Source, 'lines'>[] {
  if (trigger === 'shipment') return read.apMemos.unbilled(vendor, 'delivery').map((d) => ({ type: 'delivery', ...d }));
  return read.apMemos.unbilled(vendor, 'receipt').map((r) => ({ type: 'receipt', ...r }));
}

function sourceLines(read: Queries, source: Omit<Source, 'lines'>): Source['lines'] {
  if (source.type === 'delivery') return read.receiving.deliveryLines(source.id).map((l) => ({ po_line: l.po_line, qty: l.qty }));
  // The vendor bills what it shipped: what was received and what was refused at the dock.
  return read.receiving.receiptLines(source.id).map((l) => ({ po_line: l.po_line, qty: l.qty_received + l.qty_refused }));
}

const applies = (d: { po?: string; item?: string }, po: string, item?: string | null) => (!d.po || d.po === po) && (!('item' in d) || !d.item || d.item === item);

/** The vendor's price for a PO line: a price notice it acknowledged the PO with, else the PO price. */
function vendorPrice(read: Queries, po: string, line: number, poPrice: number): number {
  const notices = read.purchasing.acknowledgements(po).filter((a) => a.line === line && a.price_notice !== null);
  return notices.length > 0 ? notices[notices.length - 1]!.price_notice! : poPrice;
}

function bill(read: Queries, profile: VendorBilling, source: Source, number: string, date: string): Billed {
  const defects = profile.defects ?? [];
  const used = new Set<string>();
  const lines = [...source.lines].sort((a, b) => a.po_line - b.po_line).map((s) => {
    const poLine = read.purchasing.poLine(source.po, s.po_line)!;
    let unitPrice = vendorPrice(read, source.po, s.po_line, poLine.unit_price);
    let qty = s.qty;
    for (const d of defects) {
      if (d.kind === 'price_uplift' && applies(d, source.po, poLine.item)) { unitPrice = roundCents((unitPrice * (10000 + d.bp)) / 10000); used.add(d.kind); }
      if (d.kind === 'extra_units' && applies(d, source.po, poLine.item)) { qty += d.qty; used.add(d.kind); }
    }
    return { po_line: s.po_line, item: poLine.item, description: poLine.description, unit: poLine.unit, qty, unit_price: unitPrice, amount: roundCents(qty * unitPrice) };
  });
  const arithmetic = defects.find((d) => d.kind === 'arithmetic' && applies(d, source.po));
  if (arithmetic && arithmetic.kind === 'arithmetic' && lines[0]) { lines[0].amount += arithmetic.cents; used.add('arithmetic'); }
  const subtotal = lines.reduce((s, l) => s + l.amount, 0);
  const taxDefect = defects.find((d) => d.kind === 'wrong_tax' && applies(d, source.po));
  const tax = taxDefect && taxDefect.kind === 'wrong_tax' ? roundCents((subtotal * taxDefect.bp) / 10000) : 0;
  if (taxDefect) used.add('wrong_tax');
  const bankNotice = defects.find((d): d is Extract<BillingDefect, { kind: 'bank_change' }> => d.kind === 'bank_change' && applies(d, source.po));
  if (bankNotice) used.add('bank_change');
  if (defects.some((d) => d.kind === 'duplicate' && applies(d, source.po))) used.add('duplicate');
  const freight = profile.freight_cents ?? 0;
  return { number, date, po: source.po, lines, tax, freight, total: subtotal + tax + freight, defects: [...used].sort(), bankNotice };
}

function rewrite(number: string, as: 'no_dash' | 'digits_only' | 'spaced'): string {
  if (as === 'no_dash') return number.replace(/-/g, '');
  if (as === 'spaced') return number.replace(/-/g, ' ');
  return number.replace(/\D/g, '').replace(/^0+/, '') || '0';
}

function documentOf(read: Queries, vendorId: string, from: string, b: Billed): InvoiceDocument {
  const vendor = read.vendors.vendor(vendorId)!;
  const account = read.vendors.verifiedBankAccount(vendorId);
  return {
    vendor: { name: vendor.name, address: vendor.address ? [vendor.address] : [], phone: vendor.phone || undefined, email: from },
    invoice_number: b.number, invoice_date: b.date, bill_to: { name: read.clock.company()?.name ?? 'Customer', address: [] }, customer_po: b.po,
    lines: b.lines.map((l) => ({ po_line: l.po_line, item: l.item, description: l.description, quantity: l.qty, unit: l.unit, unit_price_cents: l.unit_price, amount_cents: l.amount })),
    tax_cents: b.tax, freight_cents: b.freight, total_cents: b.total, terms: vendor.terms,
    remit_to: account ? { name: vendor.name, bank_name: account.bank_name, routing: account.routing_number, account: account.account_number } : null,
    new_bank_notice: b.bankNotice ? { text: b.bankNotice.text, bank_name: b.bankNotice.bank_name, routing: b.bankNotice.routing, account: b.bankNotice.account, effective_date: b.date } : null,
  };
}

const decimalLines = (b: Billed) => b.lines.map((l) => ({ po_line: l.po_line, item: l.item ?? undefined, description: l.description, qty: l.qty, unit_price: fromCents(l.unit_price), amount: fromCents(l.amount) }));

/** Mails the invoice to AP, records what was billed (confidential), and has the AP clerk actor enter it when the profile names one. */
function send(ctx: SimContext, profile: VendorBillingProfile, vendorId: string, billing: VendorBilling, source: Source, b: Billed, resubmissionOf: string | null): void {
  const vendor = ctx.as(profile.as);
  const doc = documentOf(ctx.read, vendorId, billing.from, b);
  const message = must(vendor.post('/messages/inbound', {
    box: profile.ap_box ?? 'ap', from: billing.from, from_name: billing.from_name ?? ctx.read.vendors.vendor(vendorId)!.name, to: [profile.ap_address],
    subject: `Invoice ${b.number}`, body: `Please find attached our invoice ${b.number} for your order ${b.po}.`,
    related: [{ type: 'vendor', id: vendorId }, { type: 'purchase_order', id: b.po }], attachments: [invoiceAttachment(doc)],
  }), `${vendorId} mailing invoice ${b.number}`);
  must(vendor.post('/sim/vendor-invoices', {
    vendor: vendorId, invoice_number: b.number, invoice_date: b.date, po: b.po, source_type: source.type, source_id: source.id, message: message.id,
    lines: decimalLines(b), tax: fromCents(b.tax), freight: fromCents(b.freight), total: fromCents(b.total), terms: doc.terms,
    defects: resubmissionOf ? ['duplicate_resubmission'] : b.defects,
    ...(b.bankNotice ? { bank_notice: { bank_name: b.bankNotice.bank_name, routing: b.bankNotice.routing, account: b.bankNotice.account } } : {}),
    ...(resubmissionOf ? { resubmission_of: resubmissionOf } : {}),
  }), `${vendorId} recording invoice ${b.number}`);
  if (!profile.enter_as) return;
  must(ctx.as(profile.enter_as).post('/ap-invoices', {
    vendor: vendorId, po: b.po, vendor_invoice_number: b.number, invoice_date: b.date, source_message: message.id,
    lines: decimalLines(b).map(({ item: _item, ...l }) => l), tax: fromCents(b.tax), freight: fromCents(b.freight), total: fromCents(b.total),
  }), `${profile.enter_as} entering invoice ${b.number}`);
}

const billedAgain = (billings: readonly VendorBillingRow[], original: VendorBillingRow) => billings.some((x) => x.resubmission_of === original.id);

/**
 * Vendors invoice what they shipped after their planted delay, with their planted defects, and
 * send planted duplicates again later with the number written another way (seed 000 §8).
 */
export function vendorInvoicing(ctx: SimContext): void {
  const profile = billingProfile(ctx);
  if (!profile || !ctx.businessDay) return;
  for (const vendorId of Object.keys(profile.vendors).sort()) {
    const billing = profile.vendors[vendorId]!;
    const delay = billing.delay_days ?? 0;
    for (const head of unbilledSources(ctx.read, vendorId, billing.trigger ?? 'receipt')) {
      if (businessDaysAfter(ctx.read, head.date, delay) > ctx.date) continue;
      const source: Source = { ...head, lines: sourceLines(ctx.read, head) };
      const originals = ctx.read.apMemos.billingsOfVendor(vendorId).filter((x) => x.resubmission_of === null).length;
      const number = `${billing.number_prefix ?? 'INV-'}${(billing.first_number ?? 1001) + originals}`;
      send(ctx, profile, vendorId, billing, source, bill(ctx.read, billing, source, number, ctx.date), null);
    }
    // Only a vendor that plants duplicates ever bills anything again.
    if (!(billing.defects ?? []).some((d) => d.kind === 'duplicate')) continue;
    const billings = ctx.read.apMemos.billingsOfVendor(vendorId);
    for (const original of billings.filter((x) => x.resubmission_of === null)) {
      const dup = (billing.defects ?? []).find((d): d is Extract<BillingDefect, { kind: 'duplicate' }> => d.kind === 'duplicate' && applies(d, original.po ?? ''));
      if (!dup || billedAgain(billings, original) || businessDaysAfter(ctx.read, original.created_date, dup.delay_days) > ctx.date) continue;
      const source: Source = { type: original.source_type, id: original.source_id, po: original.po!, date: original.invoice_date, lines: [] };
      const again: Billed = {
        number: rewrite(original.invoice_number, dup.number_as), date: original.invoice_date, po: original.po!, tax: original.tax, freight: original.freight, total: original.total, defects: [],
        bankNotice: undefined, lines: original.lines.map((l) => ({ po_line: l.po_line!, item: l.item, description: l.description, unit: 'ea', qty: l.qty, unit_price: l.unit_price, amount: l.amount })),
      };
      send(ctx, profile, vendorId, billing, source, again, original.id);
    }
  }
}
