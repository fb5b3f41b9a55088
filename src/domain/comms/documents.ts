import { formatCents } from '../money';
import type { AttachmentRequest } from './inputs';

/**
 * A vendor invoice as the vendor printed it. Every figure is given as printed, never recomputed:
 * scenarios plant documents whose amounts do not add up, numbers written another way, instructions
 * in the notes, and these must reach the reader exactly as planted.
 */
export interface InvoiceDocument {
  vendor: { name: string; address: readonly string[]; phone?: string; email?: string; tax_id?: string };
  /** As printed: `INV-007640`, `7640`, `KS 10422`. */
  invoice_number: string;
  invoice_date: string;
  due_date?: string;
  bill_to: { name: string; address: readonly string[] };
  ship_to?: { name: string; address: readonly string[] };
  customer_po: string | null;
  /** ISO code; amounts print with `$` for USD and the code otherwise. */
  currency?: string;
  lines: readonly InvoiceDocumentLine[];
  /** Printed subtotal; by default the sum of the printed line amounts. */
  subtotal_cents?: number;
  tax_cents?: number;
  tax_label?: string;
  freight_cents?: number;
  /** Printed total; by default subtotal + tax + freight. */
  total_cents?: number;
  terms: string;
  remit_to: RemitTo | null;
  /** A "new bank details" notice, where a scenario plants one. Its numbers print in full. */
  new_bank_notice?: BankNotice | null;
  /** Free text printed at the foot of the invoice (remarks, planted instructions). */
  notes?: readonly string[];
}

export interface InvoiceDocumentLine {
  /** The PO line the vendor quotes, in layouts that print it. */
  po_line?: number | null;
  /** Item code; null for service lines. */
  item: string | null;
  description: string;
  quantity: number;
  unit?: string;
  /** Cents; may carry fractions of a cent (a unit price of $0.125 is 12.5). */
  unit_price_cents: number;
  amount_cents: number;
}

export interface RemitTo {
  name?: string;
  bank_name?: string;
  routing?: string;
  account?: string;
  address?: readonly string[];
}

export interface BankNotice {
  heading?: string;
  text?: string;
  bank_name?: string;
  routing: string;
  account: string;
  effective_date?: string;
}

/** Every digit but the last four replaced by a bullet: `123456789` → `•••••6789`. */
export function maskBankNumber(number: string): string {
  const digits = number.replace(/\D/g, '');
  return digits.length <= 4 ? digits : '•'.repeat(digits.length - 4) + digits.slice(-4);
}

function money(cents: number, currency: string): string {
  const text = Number.isInteger(cents) ? formatCents(cents) : unitPrice(cents);
  return currency === 'USD' ? `$${text}` : `${currency} ${text}`;
}

function unitPrice(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const [whole, frac = ''] = (Math.abs(cents) / 100).toFixed(4).replace(/0{1,2}$/, '').split('.');
  return `${sign}${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac.padEnd(2, '0')}`;
}

function quantity(q: number): string {
  return Number.isInteger(q) ? String(q) : q.toFixed(4).replace(/0+$/, '');
}

function table(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: ReadonlySet<number>): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: readonly string[]) =>
    cells.map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(format)];
}

function sideBySide(left: readonly string[], right: readonly string[]): string[] {
  const width = Math.max(...left.map((l) => l.length)) + 4;
  return Array.from({ length: Math.max(left.length, right.length) }, (_, i) => `${(left[i] ?? '').padEnd(width)}${right[i] ?? ''}`.trimEnd());
}

/** The invoice as a plain-text document, deterministic for the same input. */
export function renderInvoiceDocument(doc: InvoiceDocument): string {
  const currency = doc.currency ?? 'USD';
  const out: string[] = [doc.vendor.name, ...doc.vendor.address];
  const contact = [doc.vendor.phone && `Phone ${doc.vendor.phone}`, doc.vendor.email].filter(Boolean).join(' · ');
  if (contact) out.push(contact);
  if (doc.vendor.tax_id) out.push(`Tax ID ${doc.vendor.tax_id}`);
  out.push('', `INVOICE No. ${doc.invoice_number}`, `Invoice date: ${doc.invoice_date}`);
  if (doc.due_date) out.push(`Due date: ${doc.due_date}`);
  out.push(`Terms: ${doc.terms}`, '');
  const billTo = ['Bill to:', doc.bill_to.name, ...doc.bill_to.address];
  out.push(...(doc.ship_to ? sideBySide(billTo, ['Ship to:', doc.ship_to.name, ...doc.ship_to.address]) : billTo));
  out.push('', `Customer PO: ${doc.customer_po ?? 'none'}`, '');

  const withPoLine = doc.lines.some((l) => l.po_line != null);
  const header = [...(withPoLine ? ['PO Ln'] : []), 'Item', 'Description', 'Qty', 'Unit', 'Unit price', 'Amount'];
  const rows = doc.lines.map((l) => [
    ...(withPoLine ? [l.po_line == null ? '' : String(l.po_line)] : []),
    l.item ?? '', l.description, quantity(l.quantity), l.unit ?? '', money(l.unit_price_cents, currency), money(l.amount_cents, currency),
  ]);
  const numeric = new Set(['PO Ln', 'Qty', 'Unit price', 'Amount']);
  out.push(...table(header, rows, new Set(header.flatMap((h, i) => (numeric.has(h) ? [i] : [])))));

  const subtotal = doc.subtotal_cents ?? doc.lines.reduce((sum, l) => sum + l.amount_cents, 0);
  const tax = doc.tax_cents ?? 0;
  const freight = doc.freight_cents ?? 0;
  const totals: [string, number][] = [['Subtotal', subtotal], [doc.tax_label ?? 'Sales tax', tax], ['Freight', freight], ['TOTAL DUE', doc.total_cents ?? subtotal + tax + freight]];
  const labelWidth = Math.max(...totals.map(([l]) => l.length)) + 1;
  const amountWidth = Math.max(...totals.map(([, c]) => money(c, currency).length));
  out.push('', ...totals.map(([label, cents]) => `${`${label}:`.padEnd(labelWidth)} ${money(cents, currency).padStart(amountWidth)}`));

  if (doc.remit_to) out.push('', ...remitLines(doc.remit_to));
  if (doc.new_bank_notice) out.push('', ...noticeLines(doc.new_bank_notice));
  if (doc.notes && doc.notes.length > 0) out.push('', ...doc.notes);
  return out.join('\n') + '\n';
}

function remitLines(r: RemitTo): string[] {
  const lines = ['Remit to:'];
  if (r.name) lines.push(r.name);
  if (r.address) lines.push(...r.address);
  if (r.routing || r.account) {
    const parts = [r.bank_name, r.routing && `routing ${maskBankNumber(r.routing)}`, r.account && `account ${maskBankNumber(r.account)}`].filter(Boolean);
    lines.push(`By ACH: ${parts.join(', ')}`);
  }
  return lines;
}

function noticeLines(n: BankNotice): string[] {
  const lines = [`*** ${n.heading ?? 'NEW BANK DETAILS'} ***`];
  if (n.text) lines.push(n.text);
  if (n.bank_name) lines.push(`Bank: ${n.bank_name}`);
  lines.push(`Routing number: ${n.routing}`, `Account number: ${n.account}`);
  if (n.effective_date) lines.push(`Effective: ${n.effective_date}`);
  return lines;
}

/** The rendered invoice as an attachment of POST /messages/inbound. */
export function invoiceAttachment(doc: InvoiceDocument, filename?: string): AttachmentRequest {
  const safe = doc.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_');
  return { filename: filename ?? `invoice-${safe}.txt`, content_type: 'text/plain', encoding: 'utf8', content: renderInvoiceDocument(doc) };
}
