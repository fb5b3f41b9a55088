import { AP_ADDRESS, COMPANY_ADDRESS, COMPANY_NAME, arAddress, type CastVendor } from './cast';
import { invoicePdf } from './pdf';

/** A vendor's invoice as the generator plants it: every figure as printed, in integer cents. */
export interface PlantedLine {
  po_line?: number;
  item: string | null;
  description: string;
  qty: number;
  unit: string;
  unit_price: number;
  amount: number;
}

export type Layout = 'po_lines' | 'items' | 'services';

export interface PlantedInvoice {
  vendor: CastVendor;
  vendorId: string;
  phone: string;
  address: string;
  number: string;
  date: string;
  po: string | null;
  layout: Layout;
  lines: PlantedLine[];
  tax: number;
  taxLabel?: string;
  billTo?: { name: string; address: readonly string[] };
  /** The PO number printed, when it is not ours (an invoice meant for another company). */
  printedPo?: string;
  notes?: string[];
  remit: { bank_name: string; routing: string; account: string };
}

const money = (c: number) => (c / 100).toFixed(2);
export const lineAmount = (qty: number, unitPrice: number) => Math.round(qty * unitPrice);
export const subtotalOf = (inv: Pick<PlantedInvoice, 'lines'>) => inv.lines.reduce((s, l) => s + l.amount, 0);
export const totalOf = (inv: Pick<PlantedInvoice, 'lines' | 'tax'>) => subtotalOf(inv) + inv.tax;

/** The fields of POST /sim/invoice-mail's `invoice`: what the ERP prints as the text attachment. */
export function printed(inv: PlantedInvoice) {
  return {
    vendor: { name: inv.vendor.name, address: [inv.address], phone: inv.phone, email: arAddress(inv.vendor) },
    invoice_number: inv.number, invoice_date: inv.date,
    bill_to: inv.billTo ? { name: inv.billTo.name, address: [...inv.billTo.address] } : { name: COMPANY_NAME, address: [...COMPANY_ADDRESS] },
    customer_po: inv.printedPo ?? inv.po,
    lines: inv.lines.map((l) => ({
      ...(inv.layout === 'po_lines' && l.po_line !== undefined ? { po_line: l.po_line } : {}),
      item: inv.layout === 'services' ? null : l.item, description: l.description, quantity: l.qty, unit: l.unit, unit_price: money(l.unit_price), amount: money(l.amount),
    })),
    ...(inv.tax ? { tax: money(inv.tax), tax_label: inv.taxLabel ?? 'Sales tax 7.25%' } : {}),
    total: money(totalOf(inv)),
    terms: inv.vendor.terms,
    remit_to: { name: inv.vendor.name, bank_name: inv.remit.bank_name, routing: inv.remit.routing, account: inv.remit.account },
    ...(inv.notes ? { notes: inv.notes } : {}),
  };
}

/** The request that mails the invoice to the AP box: the ERP's text rendering, with the PDF a person would open beside it. */
export function invoiceMail(inv: PlantedInvoice, mail: { subject?: string; body?: string; sentDate: string }) {
  const doc = printed(inv);
  const safe = inv.number.replace(/[^A-Za-z0-9._-]+/g, '_');
  return {
    box: 'ap', from: arAddress(inv.vendor), from_name: `${inv.vendor.name} accounts receivable`, to: [AP_ADDRESS], sent_date: mail.sentDate,
    subject: mail.subject ?? `Invoice ${inv.number}`,
    body: mail.body ?? `Please find attached our invoice ${inv.number}${inv.printedPo ?? inv.po ? ` for purchase order ${inv.printedPo ?? inv.po}` : ''}. The PDF copy is attached as well.`,
    invoice: doc,
    attachments: [{ filename: `invoice-${safe}.pdf`, content_type: 'application/pdf', encoding: 'base64' as const, content: invoicePdf(doc) }],
  };
}
