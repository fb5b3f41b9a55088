import type { ToolEnv } from './tools';

/** The records the AP policies read, as the tools return them (money as decimals). */
export interface QueueItem {
  id: string;
  position: number;
  record_type: 'ap_invoice' | 'bank_statement_line';
  record_id: string;
  note: string;
}

export interface InvoiceLine {
  line: number;
  po_line: number | null;
  item: string | null;
  qty: number;
  unit_price: number;
  amount: number;
  /** The three-way match made when the invoice was posted: goods against receipts, services against the PO. */
  match: { kind: 'goods' | 'services' | 'non_po'; result: string; exceptions: string[]; matched_qty: number } | null;
}

export interface Invoice {
  id: string;
  vendor: string;
  vendor_invoice_number: string;
  normalized_number: string;
  invoice_date: string;
  po: string | null;
  source_message: string | null;
  total: number;
  open_amount: number;
  paid_amount: number;
  status: string;
  duplicate_of: string | null;
  hold_reasons: string[];
  lines: InvoiceLine[];
  holds: { id: string; reason: string; status: string }[];
  possible_duplicates: { id: string; vendor_invoice_number: string; total: number; status: string; same_total: boolean }[];
}

export interface PoLine {
  line: number;
  item: string | null;
  ordered_qty: number;
  unit_price: number;
  received_qty: number;
}

export interface PurchaseOrder {
  id: string;
  vendor: string;
  lines: PoLine[];
  receipts: { id: string; date: string; status: string }[];
}

export interface BankAccount {
  id: string;
  bank_name: string;
  routing_number: string;
  account_number: string;
  status: string;
  decided_date: string | null;
}

export interface Vendor {
  id: string;
  name: string;
  phone: string;
  bank_accounts: BankAccount[];
}

export interface StatementLine {
  id: string;
  bank_account: string;
  date: string;
  amount: number;
  kind: string;
  reference: string;
  description: string;
  status: string;
}

export const cents = (amount: number) => Math.round(amount * 100);
export const money = (c: number) => (c / 100).toFixed(2);

export async function queue(env: ToolEnv): Promise<QueueItem[]> {
  return (await env.must('list_queue')).items as QueueItem[];
}

/** The invoices of the queue, in queue order. */
export async function invoiceItems(env: ToolEnv): Promise<QueueItem[]> {
  return (await queue(env)).filter((i) => i.record_type === 'ap_invoice');
}

export const invoice = async (env: ToolEnv, id: string): Promise<Invoice> => env.must('get_invoice', { invoice_id: id });
export const purchaseOrder = async (env: ToolEnv, id: string): Promise<PurchaseOrder> => env.must('get_purchase_order', { po_id: id });
export const vendor = async (env: ToolEnv, id: string): Promise<Vendor> => env.must('get_vendor', { vendor_id: id });

/** The invoice as the vendor printed it (plain text), or '' when it came without one. */
export async function invoiceText(env: ToolEnv, inv: Invoice): Promise<string> {
  if (!inv.source_message) return '';
  return ((await env.must('get_invoice_document', { message_id: inv.source_message })).content as string) ?? '';
}

export async function statementLine(env: ToolEnv, id: string): Promise<StatementLine> {
  const lines = (await env.must('list_bank_feed', { limit: 1000 })).items as StatementLine[];
  const line = lines.find((l) => l.id === id);
  if (!line) throw new Error(`No statement line ${id} on the bank feed.`);
  return line;
}

/** The vendor's one verified account: the only one a payment may go to. */
export function verifiedAccount(v: Vendor): BankAccount | undefined {
  return v.bank_accounts.find((a) => a.status === 'verified');
}

/** The invoices in the queue, in queue order. */
export async function queuedInvoices(env: ToolEnv): Promise<Invoice[]> {
  const out: Invoice[] = [];
  for (const item of await invoiceItems(env)) out.push(await invoice(env, item.record_id));
  return out;
}
