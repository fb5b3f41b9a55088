import { jsPDF } from 'jspdf';

/** The printed fields of an invoice, decimal money as strings (POST /sim/invoice-mail's `invoice`). */
export interface PrintedInvoice {
  vendor: { name: string; address: string[]; phone?: string; email?: string };
  invoice_number: string;
  invoice_date: string;
  bill_to: { name: string; address: string[] };
  customer_po: string | null;
  lines: { po_line?: number; item: string | null; description: string; quantity: number; unit?: string; unit_price: string; amount: string }[];
  tax?: string;
  tax_label?: string;
  total: string;
  terms: string;
  remit_to?: { name?: string; bank_name?: string; routing?: string; account?: string };
  notes?: string[];
}

/** A fixed creation date and file id: the same invoice prints to the same bytes on every run. */
const PRINTED = new Date(Date.UTC(2026, 9, 1));
const FILE_ID = '4E4F52544847415445415042414B4C47';

const masked = (digits: string) => '*'.repeat(Math.max(0, digits.length - 4)) + digits.slice(-4);

/** The invoice as a one-page PDF, as the vendor's billing system prints it. */
export function invoicePdf(doc: PrintedInvoice): string {
  const pdf = new jsPDF({ unit: 'pt', format: 'letter', compress: true });
  pdf.setCreationDate(PRINTED);
  pdf.setFileId(FILE_ID);
  pdf.setProperties({ title: `Invoice ${doc.invoice_number}`, author: doc.vendor.name, creator: `${doc.vendor.name} billing` });
  let y = 54;
  const at = (text: string, x: number, size = 9, style: 'normal' | 'bold' = 'normal', align: 'left' | 'right' = 'left') => {
    pdf.setFont('helvetica', style);
    pdf.setFontSize(size);
    pdf.text(text, x, y, { align });
  };
  const next = (dy = 12) => { y += dy; };
  at(doc.vendor.name, 48, 15, 'bold'); at('INVOICE', 564, 18, 'bold', 'right'); next(16);
  for (const a of doc.vendor.address) { at(a, 48); next(); }
  if (doc.vendor.phone || doc.vendor.email) { at([doc.vendor.phone, doc.vendor.email].filter(Boolean).join('  ·  '), 48); next(); }
  next(10);
  const meta: [string, string][] = [['Invoice no.', doc.invoice_number], ['Invoice date', doc.invoice_date], ['Terms', doc.terms], ['Your PO', doc.customer_po ?? 'none']];
  const top = y;
  at('Bill to', 48, 9, 'bold'); next();
  at(doc.bill_to.name, 48); next();
  for (const a of doc.bill_to.address) { at(a, 48); next(); }
  const after = y;
  y = top;
  for (const [k, v] of meta) { at(k, 380, 9, 'bold'); at(v, 564, 9, 'normal', 'right'); next(); }
  y = Math.max(after, y) + 14;
  const withPoLine = doc.lines.some((l) => l.po_line !== undefined);
  const cols = withPoLine
    ? { ln: 48, item: 76, desc: 170, qty: 400, unit: 408, price: 500, amount: 564 }
    : { ln: -1, item: 48, desc: 150, qty: 400, unit: 408, price: 500, amount: 564 };
  pdf.setLineWidth(0.6);
  pdf.line(48, y - 9, 564, y - 9);
  if (withPoLine) at('PO Ln', cols.ln, 8, 'bold');
  at('Item', cols.item, 8, 'bold'); at('Description', cols.desc, 8, 'bold'); at('Qty', cols.qty, 8, 'bold', 'right'); at('Unit', cols.unit, 8, 'bold');
  at('Unit price', cols.price, 8, 'bold', 'right'); at('Amount', cols.amount, 8, 'bold', 'right');
  next(4); pdf.line(48, y, 564, y); next(12);
  for (const l of doc.lines) {
    if (withPoLine) at(l.po_line === undefined ? '' : String(l.po_line), cols.ln);
    at(l.item ?? '', cols.item); at(l.description.length > 44 ? `${l.description.slice(0, 43)}…` : l.description, cols.desc);
    at(String(l.quantity), cols.qty, 9, 'normal', 'right'); at(l.unit ?? '', cols.unit);
    at(`$${l.unit_price}`, cols.price, 9, 'normal', 'right'); at(`$${l.amount}`, cols.amount, 9, 'normal', 'right');
    next(13);
  }
  pdf.line(48, y - 6, 564, y - 6); next(6);
  const subtotal = doc.lines.reduce((s, l) => s + Math.round(Number(l.amount) * 100), 0);
  const totals: [string, string][] = [['Subtotal', (subtotal / 100).toFixed(2)]];
  if (doc.tax) totals.push([doc.tax_label ?? 'Sales tax', doc.tax]);
  totals.push(['Total due', doc.total]);
  for (const [k, v] of totals) { at(k, 470, 9, k === 'Total due' ? 'bold' : 'normal', 'right'); at(`$${v}`, 564, 9, k === 'Total due' ? 'bold' : 'normal', 'right'); next(13); }
  next(10);
  if (doc.remit_to?.account) {
    at('Remit to', 48, 9, 'bold'); next();
    at(`${doc.remit_to.name ?? doc.vendor.name}, ${doc.remit_to.bank_name ?? ''}, routing ${masked(doc.remit_to.routing ?? '')}, account ${masked(doc.remit_to.account)}`, 48); next(16);
  }
  for (const note of doc.notes ?? []) {
    for (const line of pdf.splitTextToSize(note, 516) as string[]) { at(line, 48); next(); }
    next(4);
  }
  return Buffer.from(pdf.output('arraybuffer')).toString('base64');
}
