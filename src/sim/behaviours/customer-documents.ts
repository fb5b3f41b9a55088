import { formatCents } from '../../domain/money';
import type { Queries } from '../../projections';

/**
 * The structured documents customers send by email (seed 000 §8: structured order lines in the
 * message): a purchase order, a remittance advice, a return request, each a JSON attachment beside
 * a plain-text body a person reads. Money is decimal, as the API shows it.
 */
export interface PurchaseOrderDoc {
  kind: 'purchase_order';
  customer: string;
  customer_po: string;
  ship_to: string;
  lines: { item: string; qty: number; requested_date: string; unit_price?: number }[];
}

export interface RemittanceDoc {
  kind: 'remittance';
  /** The customer account paying, as it knows its number with us. */
  customer: string;
  reference: string;
  date: string;
  amount: number;
  lines: { reference: string; amount: number; discount: number; deduction?: { amount: number; reason: string } }[];
}

export interface ReturnRequestDoc {
  kind: 'return_request';
  customer: string;
  invoice: string;
  reason: string;
  lines: { invoice_line: number; item: string; qty: number }[];
}

export type CustomerDoc = PurchaseOrderDoc | RemittanceDoc | ReturnRequestDoc;

export const DOC_FILES: Record<CustomerDoc['kind'], string> = { purchase_order: 'purchase-order.json', remittance: 'remittance.json', return_request: 'return-request.json' };

export function docAttachment(doc: CustomerDoc) {
  return { filename: DOC_FILES[doc.kind], content_type: 'application/json', content: JSON.stringify(doc, null, 2) };
}

/** The customer document attached to a message, if any. */
export function docOf(read: Queries, message: string): CustomerDoc | undefined {
  for (const a of read.messages.attachments(message)) {
    if (a.content_type !== 'application/json' || !Object.values(DOC_FILES).includes(a.filename)) continue;
    try {
      return JSON.parse(read.messages.attachment(message, a.n)!.content) as CustomerDoc;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The text a person reads beside the document. */
export function docBody(doc: CustomerDoc, customerName: string): string {
  if (doc.kind === 'purchase_order') {
    return [`Please enter our purchase order ${doc.customer_po}, ship to ${doc.ship_to}:`, '', ...doc.lines.map((l) => `  ${l.qty} × ${l.item}, needed by ${l.requested_date}${l.unit_price !== undefined ? ` at ${l.unit_price.toFixed(2)}` : ''}`), '', customerName].join('\n');
  }
  if (doc.kind === 'remittance') {
    return [`Remittance advice: payment ${doc.reference} of ${formatCents(Math.round(doc.amount * 100))} on ${doc.date}.`, '',
      ...doc.lines.map((l) => `  ${l.reference}: paid ${l.amount.toFixed(2)}${l.discount ? `, discount ${l.discount.toFixed(2)}` : ''}${l.deduction ? `, deducted ${l.deduction.amount.toFixed(2)} (${l.deduction.reason.replace(/_/g, ' ')})` : ''}`), '', customerName].join('\n');
  }
  return [`We would like to return goods billed on ${doc.invoice} (${doc.reason.replace(/_/g, ' ')}):`, '', ...doc.lines.map((l) => `  line ${l.invoice_line}: ${l.qty} × ${l.item}`), '', customerName].join('\n');
}
