import { formatCents, roundCents } from '../../domain/money';
import type { ScenarioBuilder } from '../builder';
import type { ItemSpec, VendorSpec } from './catalog';
import { OPERATING_ACCOUNT, WAREHOUSE } from './master';
import { AP_SUPERVISOR, BUYER, COMPANY, RECEIVER, VENDOR_DESK } from './roster';

const dollars = (cents: number) => formatCents(cents, false);

export interface OrderLine {
  item: ItemSpec;
  qty: number;
  /** PO unit price, cents. */
  unitPrice: number;
}

/** A purchase order created, approved and sent by the buyer (within the buyer's own limit). */
export function placeOrder(b: ScenarioBuilder, vendor: VendorSpec, lines: readonly OrderLine[], needBy: string): string {
  const po = b.as(BUYER, 'POST', '/purchase-orders', {
    vendor: vendor.id, ship_to: WAREHOUSE, department: 'PUR',
    lines: lines.map((l) => ({ item: l.item.id, qty: l.qty, unit_price: dollars(l.unitPrice), need_by: needBy })),
  });
  b.as(BUYER, 'POST', `/purchase-orders/${po.id}/approve`, {});
  b.as(BUYER, 'POST', `/purchase-orders/${po.id}/send`, {});
  return po.id as string;
}

/** A receipt of what arrived: each PO line's quantity, or the share `fraction` of it (a short shipment). */
export function receive(b: ScenarioBuilder, po: string, lines: readonly OrderLine[], fraction = 1): string {
  const receipt = b.as(RECEIVER, 'POST', '/receipts', {
    po, warehouse: WAREHOUSE, date: b.today(), packing_slip: `PS-${po.slice(3)}`,
    lines: lines.map((l, i) => ({ po_line: i + 1, qty_received: Math.max(1, Math.floor(l.qty * fraction)), location: 'RCV' })),
  });
  return receipt.id as string;
}

export interface Billing {
  number: string;
  date: string;
  po: string;
  lines: { poLine: number; item: ItemSpec; qty: number; unitPrice: number }[];
  remitTo: VendorSpec['bank'];
  dueDate?: string;
  /** A notice printed on the invoice asking for payment to other bank details. */
  bankNotice?: { heading?: string; text: string; bank: VendorSpec['bank'] };
}

export const billedAmount = (l: { qty: number; unitPrice: number }) => roundCents(l.qty * l.unitPrice);
export const billedTotal = (bill: Pick<Billing, 'lines'>) => bill.lines.reduce((s, l) => s + billedAmount(l), 0);

/** The vendor's invoice as mailed to the AP box, printed by the one renderer; returns the message id. */
export function mailInvoice(b: ScenarioBuilder, vendor: VendorSpec, bill: Billing): string {
  const message = b.as(VENDOR_DESK.id, 'POST', '/sim/invoice-mail', {
    box: 'ap', from: vendor.email, from_name: `${vendor.name} accounts receivable`, to: [`ap@${COMPANY.domain}`], sent_date: bill.date > b.today() ? b.today() : bill.date,
    subject: `Invoice ${bill.number}`, body: `Please find attached our invoice ${bill.number} for your purchase order ${bill.po}.`,
    related: [{ type: 'vendor', id: vendor.id }, { type: 'purchase_order', id: bill.po }],
    invoice: {
      vendor: { name: vendor.name, address: [vendor.address], phone: vendor.phone, email: vendor.email, tax_id: vendor.tin },
      invoice_number: bill.number, invoice_date: bill.date, ...(bill.dueDate ? { due_date: bill.dueDate } : {}),
      bill_to: { name: COMPANY.name, address: [...COMPANY.address] }, customer_po: bill.po,
      lines: bill.lines.map((l) => ({ po_line: l.poLine, item: l.item.id, description: l.item.description, quantity: l.qty, unit: l.item.unit, unit_price: dollars(l.unitPrice), amount: dollars(billedAmount(l)) })),
      terms: vendor.terms,
      remit_to: { name: vendor.name, bank_name: bill.remitTo.bankName, routing: bill.remitTo.routing, account: bill.remitTo.account },
      ...(bill.bankNotice ? { new_bank_notice: { heading: bill.bankNotice.heading, text: bill.bankNotice.text, bank_name: bill.bankNotice.bank.bankName, routing: bill.bankNotice.bank.routing, account: bill.bankNotice.bank.account } } : {}),
    },
  });
  return message.id as string;
}

/**
 * The AP supervisor enters the invoice as billed, posts it (the three-way match runs) and releases it
 * for payment: the state invoices reach the AP clerk's queue in. Returns the invoice id.
 */
export function enterInvoice(b: ScenarioBuilder, vendor: VendorSpec, bill: Billing, message: string, hold?: { reason: string; note: string }): string {
  const inv = b.as(AP_SUPERVISOR, 'POST', '/ap-invoices', {
    vendor: vendor.id, po: bill.po, source_message: message, vendor_invoice_number: bill.number, invoice_date: bill.date,
    lines: bill.lines.map((l) => ({ po_line: l.poLine, qty: l.qty, unit_price: dollars(l.unitPrice), amount: dollars(billedAmount(l)) })), total: dollars(billedTotal(bill)),
  });
  b.as(AP_SUPERVISOR, 'POST', `/ap-invoices/${inv.id}/validate`, {});
  if (hold) b.as(AP_SUPERVISOR, 'POST', `/ap-invoices/${inv.id}/holds`, hold);
  else b.as(AP_SUPERVISOR, 'POST', `/ap-invoices/${inv.id}/approve`, { note: 'Released to AP for payment.' });
  return inv.id as string;
}

/** Paid in full from the operating account to the vendor's verified account. */
export function payInFull(b: ScenarioBuilder, invoice: string): string {
  return b.as(AP_SUPERVISOR, 'POST', `/ap-invoices/${invoice}/pay`, { bank_account: OPERATING_ACCOUNT, note: 'Paid on its due date.' }).id as string;
}
