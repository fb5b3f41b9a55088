import type { ApInvoiceLineRow, ApInvoiceRow, ApTransactionRow, HoldRow } from './payables-invoices';
import { roundQty } from './quantities';
import { orderClause, type TableAccess } from './table-access';
import { decodeRow } from './table-spec';

export interface ApPolicyRow {
  price_tolerance_bp: number;
  price_variance_account: string;
  quantity_variance_account: string;
  freight_account: string;
  tax_account: string;
  write_off_account: string;
  discount_account: string;
}

/** The accounts and tolerance AP uses until the handbook's are set (POST /payables/policy). */
export const DEFAULT_AP_POLICY: ApPolicyRow = {
  price_tolerance_bp: 0,
  price_variance_account: '5100',
  quantity_variance_account: '5110',
  freight_account: '5200',
  tax_account: '2200',
  write_off_account: '4950',
  discount_account: '4900',
};

type Inv = ApInvoiceRow & Record<string, unknown>;
type Line = ApInvoiceLineRow & Record<string, unknown>;
type Hold = HoldRow & Record<string, unknown>;

export interface InvoiceFilter {
  status?: string;
  vendor?: string;
  po?: string;
  /** Normalized vendor invoice number. */
  number?: string;
  due_before?: string;
  discount_before?: string;
  on_hold?: boolean;
  /** Approved, with no open hold, no open dispute and something left to pay. */
  payable?: boolean;
  /** ORDER BY terms over ap_invoices (checked by the route); default by id. */
  order?: readonly string[];
  offset: number;
  limit: number;
}

export interface OpenItem {
  vendor: string;
  invoice: string | null;
  amount: number;
}

/** Invoices that are neither rejected nor voided: the ones a duplicate would be live beside. */
const LIVE = ['entered', 'matched', 'approved', 'paid'];

export function apQueries(t: TableAccess) {
  const sum = (sql: string, ...params: unknown[]): number => (t.db.prepare(sql).get(...params) as { s: number | null }).s ?? 0;
  return {
    invoice: (id: string) => t.get<Inv>('ap_invoices', id),
    lines: (invoice: string) => t.find<Line>('ap_invoice_lines', { invoice }),
    hold: (id: string) => t.get<Hold>('holds', id),
    holds: (invoice: string) => t.find<Hold>('holds', { invoice }),
    openHolds: (invoice: string) => t.find<Hold>('holds', { invoice, status: 'open' }),
    notes: (invoice: string) => t.find<{ event_id: number; text: string; by: string; date: string }>('ap_invoice_notes', { invoice }),
    transactionsOf: (invoice: string) => t.find<ApTransactionRow & Record<string, unknown>>('ap_transactions', { invoice }, { orderBy: ['event_id', 'n'] }),
    invoicesOfPo: (po: string) => t.find<Inv>('ap_invoices', { po }),
    /** The tolerance and accounts in force: the handbook's once set, the defaults before. */
    policy(): ApPolicyRow {
      const row = t.get<ApPolicyRow & Record<string, unknown>>('ap_policy', 1);
      if (!row) return { ...DEFAULT_AP_POLICY };
      const { price_tolerance_bp, price_variance_account, quantity_variance_account, freight_account, tax_account, write_off_account, discount_account } = row;
      return { price_tolerance_bp, price_variance_account, quantity_variance_account, freight_account, tax_account, write_off_account, discount_account };
    },
    /** Live invoices of the vendor with the same normalized number (seed 004 duplicate rule), oldest first. */
    sameNumber: (vendor: string, normalized: string) =>
      t.find<Inv>('ap_invoices', { vendor, normalized_number: normalized, lifecycle: LIVE }),
    /**
     * Quantity and value (cents) of a PO line that validated invoices have taken out of GRNI, net of
     * voids. Receiving must not reverse a receipt below this (GRNI would go negative).
     */
    grniMatched(po: string, line: number): { qty: number; value: number } {
      const row = t.db.prepare('SELECT COALESCE(SUM(qty), 0) AS q, COALESCE(SUM(value), 0) AS v FROM grni_matches WHERE po = ? AND po_line = ?').get(po, line) as { q: number; v: number };
      return { qty: roundQty(row.q), value: row.v };
    },
    /** What an invoice took out of GRNI, per PO line, net of any earlier void. */
    grniMatchedOfInvoice(invoice: string): { po: string; po_line: number; invoice: string; qty: number; value: number }[] {
      return (t.db.prepare('SELECT po, po_line, invoice, SUM(qty) AS qty, SUM(value) AS value FROM grni_matches WHERE invoice = ? GROUP BY po, po_line ORDER BY po, po_line').all(invoice) as { po: string; po_line: number; invoice: string; qty: number; value: number }[])
        .map((r) => ({ ...r, qty: roundQty(r.qty) }))
        .filter((r) => r.qty !== 0 || r.value !== 0);
    },
    /** Quantity of a PO line matched by invoices that are posted and not voided (goods and services alike). */
    invoicedQty(po: string, line: number): number {
      return roundQty(sum(
        `SELECT SUM(l.matched_qty) AS s FROM ap_invoice_lines l JOIN ap_invoices i ON i.id = l.invoice WHERE l.po = ? AND l.po_line = ? AND i.posted = 1 AND i.lifecycle != 'voided'`,
        po, line,
      ));
    },
    /** GRNI value matched by invoices, net of voids, dated on or before `asOf`. */
    grniMatchedAsOf: (asOf: string) => sum('SELECT SUM(value) AS s FROM grni_matches WHERE date <= ?', asOf),
    grniMatchedByLineAsOf(asOf: string): { po: string; po_line: number; qty: number; value: number }[] {
      return (t.db.prepare('SELECT po, po_line, SUM(qty) AS qty, SUM(value) AS value FROM grni_matches WHERE date <= ? GROUP BY po, po_line ORDER BY po, po_line').all(asOf) as { po: string; po_line: number; qty: number; value: number }[])
        .map((r) => ({ ...r, qty: roundQty(r.qty) }));
    },
    /** The AP subledger: every AP movement dated on or before `asOf` (open invoices less credits on account). */
    apBalanceAsOf: (asOf: string) => sum('SELECT SUM(amount) AS s FROM ap_transactions WHERE date <= ?', asOf),
    vendorBalanceAsOf: (vendor: string, asOf: string) => sum('SELECT SUM(amount) AS s FROM ap_transactions WHERE vendor = ? AND date <= ?', vendor, asOf),
    /** Non-zero open items as of a date: per invoice, and per vendor for credit held on account (invoice null). */
    openItemsAsOf(asOf: string): OpenItem[] {
      return (t.db.prepare(
        'SELECT vendor, invoice, SUM(amount) AS amount FROM ap_transactions WHERE date <= ? GROUP BY vendor, invoice HAVING SUM(amount) != 0 ORDER BY vendor, invoice',
      ).all(asOf) as OpenItem[]);
    },
    invoicePage(f: InvoiceFilter): { items: ApInvoiceRow[]; total: number } {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (clause: string, ...values: unknown[]) => { where.push(clause); params.push(...values); };
      if (f.status) add('status = ?', f.status);
      if (f.vendor) add('vendor = ?', f.vendor);
      if (f.po) add('po = ?', f.po);
      if (f.number) add('normalized_number = ?', f.number);
      if (f.due_before) add('due_date <= ?', f.due_before);
      if (f.discount_before) add('discount_date IS NOT NULL AND discount_date <= ?', f.discount_before);
      if (f.on_hold !== undefined) add(f.on_hold ? 'open_holds > 0' : 'open_holds = 0');
      if (f.payable) add(`lifecycle = 'approved' AND open_holds = 0 AND open_amount > 0 AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.invoice = ap_invoices.id AND d.status = 'open')`);
      const sql = `FROM ap_invoices${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
      const total = (t.db.prepare(`SELECT COUNT(*) AS n ${sql}`).get(...params) as { n: number }).n;
      const spec = t.spec('ap_invoices');
      const rows = t.db.prepare(`SELECT * ${sql} ORDER BY ${orderClause(f.order ?? ['id'])} LIMIT ? OFFSET ?`).all(...params, f.limit, f.offset) as Record<string, unknown>[];
      return { items: rows.map((r) => decodeRow(spec, r) as unknown as ApInvoiceRow), total };
    },
  };
}
