import type { Journal } from '../events/contracts/ledger';
import { ArInvoiceBilled, ArInvoiceVoided, SalesPolicySet, type ArInvoiceLine, type ArMovement } from '../events/contracts/receivables';
import type { EventRow } from '../events/event-row';
import { statusChange, type StatusChange } from './history';
import { journalOf, UnpostableJournal } from './ledger';
import { defineReadModel, on, onEvery, type ProjectionTx } from './read-model';
import { controlNet, listOf } from './subledger-movements';
import type { TableAccess } from './table-access';

export type ArInvoiceStatus = 'open' | 'paid' | 'voided';

export interface ArInvoiceRow {
  id: string;
  customer: string;
  kind: 'shipment' | 'manual';
  sales_order: string | null;
  shipment: string | null;
  customer_po: string;
  ship_to: string | null;
  invoice_date: string;
  gl_date: string;
  period: string;
  terms: string;
  due_date: string;
  discount_date: string | null;
  discount_amount: number;
  subtotal: number;
  tax_code: string | null;
  tax_rate_bp: number;
  tax: number;
  freight: number;
  total: number;
  /** The inventory cost of what it billed. */
  cost: number;
  /** Its journal as posted: what a void reverses. */
  posting: Journal;
  status: ArInvoiceStatus;
  /** What the customer still owes on it: the sum of its AR movements. */
  open_amount: number;
  paid_amount: number;
  discount_taken: number;
  credited_amount: number;
  deductions_accepted: number;
  last_payment_date: string | null;
  reason: string | null;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface ArInvoiceLineRow extends ArInvoiceLine {
  invoice: string;
}

export interface ArTransactionRow extends ArMovement {
  id: string;
  event_id: number;
  n: number;
  date: string;
  period: string;
  source_type: string;
  posted_by: string;
}

export interface SalesPolicyRow {
  default_price_list: string | null;
  revenue_account: string;
  freight_account: string;
  tax_account: string;
  discount_account: string;
  returns_account: string;
  restocking_account: string;
  rebate_account: string;
  allowance_account: string;
  cogs_account: string;
}

/** The accounts sales and receivables post to until the handbook's policy says otherwise (docs/receivables.md). */
export const DEFAULT_SALES_POLICY: SalesPolicyRow = {
  default_price_list: null, revenue_account: '4000', freight_account: '4100', tax_account: '2200', discount_account: '4400', returns_account: '4500',
  restocking_account: '4120', rebate_account: '4600', allowance_account: '4500', cogs_account: '5000',
};

type Inv = ArInvoiceRow & Record<string, unknown>;

/** What each kind of movement on an invoice settles, by the column that counts it. */
const SETTLED_BY: Partial<Record<ArMovement['kind'], 'paid_amount' | 'discount_taken' | 'credited_amount' | 'deductions_accepted'>> = {
  payment: 'paid_amount', receipt_reversed: 'paid_amount', discount: 'discount_taken', discount_reversed: 'discount_taken', credit_memo: 'credited_amount', credit_applied: 'credited_amount',
  deduction_accepted: 'deductions_accepted',
};

function applyMovement(tx: ProjectionTx, m: ArMovement, event: EventRow, date: string): void {
  if (m.invoice === null) return;
  if (!tx.get('ar_invoices', m.invoice)) throw new UnpostableJournal(`${event.type}: AR movement for unknown invoice ${m.invoice}.`);
  tx.update<Inv>('ar_invoices', m.invoice, (r) => {
    r.open_amount += m.amount;
    const column = SETTLED_BY[m.kind];
    if (column) r[column] -= m.amount;
    if (m.kind === 'payment') r.last_payment_date = date;
    const status: ArInvoiceStatus = m.kind === 'void' ? 'voided' : r.status === 'voided' ? 'voided' : r.open_amount === 0 ? 'paid' : 'open';
    if (status !== r.status) {
      r.status = status;
      r.status_history.push(statusChange(status, event, m.kind));
    }
  });
}

/**
 * AR invoices as billed and the AR subledger: ar_transactions holds every `ar` movement any event
 * carries, checked against the event's own journal, so AR ties to its control account by
 * construction. Also the sales policy: the accounts sales and receivables post to.
 */
export const arInvoices = defineReadModel({
  name: 'ar-invoices',
  tables: [
    {
      name: 'ar_invoices',
      columns: {
        id: 'text', customer: 'text', kind: 'text', sales_order: 'text', shipment: 'text', customer_po: 'text', ship_to: 'text', invoice_date: 'text',
        gl_date: 'text', period: 'text', terms: 'text', due_date: 'text', discount_date: 'text', discount_amount: 'integer', subtotal: 'integer', tax_code: 'text',
        tax_rate_bp: 'integer', tax: 'integer', freight: 'integer', total: 'integer', cost: 'integer', posting: 'json', status: 'text', open_amount: 'integer', paid_amount: 'integer',
        discount_taken: 'integer', credited_amount: 'integer', deductions_accepted: 'integer', last_payment_date: 'text', reason: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['customer', 'status'], ['status', 'due_date'], ['sales_order'], ['shipment'], ['customer_po'], ['period']],
    },
    {
      name: 'ar_invoice_lines',
      columns: {
        invoice: 'text', line: 'integer', so_line: 'integer', item: 'text', description: 'text', qty: 'real', unit_price: 'integer', amount: 'integer',
        account: 'text', cost: 'integer',
      },
      key: ['invoice', 'line'],
      indexes: [['item']],
    },
    {
      name: 'ar_transactions',
      columns: {
        id: 'text', event_id: 'integer', n: 'integer', date: 'text', period: 'text', customer: 'text', invoice: 'text', kind: 'text', amount: 'integer',
        document_type: 'text', document_id: 'text', source_type: 'text', posted_by: 'text',
      },
      key: ['id'],
      indexes: [['invoice'], ['customer', 'date'], ['date'], ['document_id']],
    },
    {
      name: 'sales_policy',
      columns: {
        id: 'integer', default_price_list: 'text', revenue_account: 'text', freight_account: 'text', tax_account: 'text', discount_account: 'text',
        returns_account: 'text', restocking_account: 'text', rebate_account: 'text', allowance_account: 'text', cogs_account: 'text', set_by: 'text', set_date: 'text',
      },
      key: ['id'],
    },
  ],
  handlers: [
    on(ArInvoiceBilled, (tx, d, e) => {
      const { lines, journal, ar: _ar, ...header } = d;
      tx.insert('ar_invoices', {
        ...header, period: d.gl_date.slice(0, 7), posting: journal, cost: lines.reduce((s, l) => s + l.cost, 0), status: 'open', open_amount: 0, paid_amount: 0, discount_taken: 0,
        credited_amount: 0, deductions_accepted: 0, last_payment_date: null, reason: null,
        created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime, status_history: [statusChange('open', e)],
      });
      for (const l of lines) tx.insert('ar_invoice_lines', { invoice: d.id, ...l });
    }),
    on(ArInvoiceVoided, (tx, d) => tx.update<Inv>('ar_invoices', d.id, (r) => { r.reason = d.reason; })),
    on(SalesPolicySet, (tx, d, e) => {
      const row = { id: 1, ...d, set_by: e.actor, set_date: e.businessDate };
      tx.upsert('sales_policy', row, (r) => Object.assign(r, row));
    }),
    onEvery((tx, event) => {
      const ar = listOf<ArMovement>(event.data, 'ar');
      if (ar.length === 0) return;
      const date = journalOf(event.data)?.date ?? event.businessDate;
      const total = ar.reduce((s, m) => s + m.amount, 0);
      const net = controlNet(tx, event, 'ar');
      if (total !== net) throw new UnpostableJournal(`${event.type}: its AR movements (${total}) differ from what its journal posts to AR (${net}).`);
      ar.forEach((m, i) => {
        tx.insert('ar_transactions', {
          id: `ART-${String(event.seq).padStart(6, '0')}-${i + 1}`, event_id: event.seq, n: i + 1, date, period: date.slice(0, 7), ...m,
          source_type: event.type, posted_by: event.actor,
        });
        applyMovement(tx, m, event, date);
      });
    }),
  ],
  queries: (t) => arQueries(t),
});

/** An open AR item as of a date: an invoice's open amount, or (invoice null) cash and credit on the customer's account. */
export interface ArOpenItem {
  customer: string;
  invoice: string | null;
  amount: number;
}

function arQueries(t: TableAccess) {
  return {
    invoice: (id: string) => t.get<Inv>('ar_invoices', id),
    lines: (id: string) => t.find<ArInvoiceLineRow & Record<string, unknown>>('ar_invoice_lines', { invoice: id }, { orderBy: 'line' }),
    invoicesOfOrder: (order: string) => t.find<Inv>('ar_invoices', { sales_order: order }, { orderBy: 'id' }),
    invoicesOfShipment: (shipment: string) => t.find<Inv>('ar_invoices', { shipment }, { orderBy: 'id' }),
    transactionsOfDocument: (documentId: string) => t.find<ArTransactionRow & Record<string, unknown>>('ar_transactions', { document_id: documentId }, { orderBy: ['event_id', 'n'] }),
    transactionsOf: (invoice: string) => t.find<ArTransactionRow & Record<string, unknown>>('ar_transactions', { invoice }, { orderBy: ['event_id', 'n'] }),
    /** Open invoices of a customer (or of several), oldest due first. */
    openInvoices(customers: string | readonly string[]): Inv[] {
      return t.find<Inv>('ar_invoices', { customer: typeof customers === 'string' ? customers : [...customers], status: 'open' }, { orderBy: ['due_date', 'id'] });
    },
    /** Every open invoice, oldest due first: what collections and the customers' payments work through. */
    allOpenInvoices: () => t.find<Inv>('ar_invoices', { status: 'open' }, { orderBy: ['due_date', 'id'] }),
    /** The customer's most recent invoice that billed a shipment. */
    latestShipmentInvoice: (customer: string) => t.find<Inv>('ar_invoices', { customer, kind: 'shipment' }, { orderBy: 'id desc', limit: 1 })[0],
    invoicesByCustomerPo: (customer: string, customerPo: string) => t.find<Inv>('ar_invoices', { customer, customer_po: customerPo }, { orderBy: 'id' }),
    policy(): SalesPolicyRow {
      const row = t.get<SalesPolicyRow & Record<string, unknown>>('sales_policy', 1);
      return row ? { ...DEFAULT_SALES_POLICY, ...Object.fromEntries(Object.entries(row).filter(([k]) => k in DEFAULT_SALES_POLICY)) } as SalesPolicyRow : DEFAULT_SALES_POLICY;
    },
    /** The AR subledger: every AR movement dated on or before `asOf`. */
    arBalanceAsOf(asOf: string): number {
      return (t.prepared('SELECT COALESCE(SUM(amount), 0) AS s FROM ar_transactions WHERE date <= ?').get(asOf) as { s: number }).s;
    },
    /** What one customer owes: its invoices' open amounts less cash and credit on its account. */
    customerBalance(customer: string, asOf?: string): number {
      const row = asOf === undefined
        ? t.prepared('SELECT COALESCE(SUM(amount), 0) AS s FROM ar_transactions WHERE customer = ?').get(customer)
        : t.prepared('SELECT COALESCE(SUM(amount), 0) AS s FROM ar_transactions WHERE customer = ? AND date <= ?').get(customer, asOf);
      return (row as { s: number }).s;
    },
    /** Cash and credit held on a customer's account (positive), not applied to any invoice. */
    onAccount(customer: string): number {
      return 0 - (t.prepared('SELECT COALESCE(SUM(amount), 0) AS s FROM ar_transactions WHERE customer = ? AND invoice IS NULL').get(customer) as { s: number }).s || 0;
    },
    /**
     * Net sales of goods to a customer between two posting dates (inclusive), in cents: invoice lines
     * that bill items, less credit memos other than rebates. What volume rebates are measured on.
     */
    netGoodsSales(customer: string, from: string, to: string): number {
      const billed = t.prepared(`SELECT COALESCE(SUM(l.amount), 0) AS s FROM ar_invoice_lines l JOIN ar_invoices i ON i.id = l.invoice
        WHERE i.customer = ? AND i.status <> 'voided' AND i.gl_date >= ? AND i.gl_date <= ? AND l.item IS NOT NULL`).get(customer, from, to) as { s: number };
      const credited = t.prepared(`SELECT COALESCE(SUM(subtotal), 0) AS s FROM ar_credit_memos WHERE customer = ? AND reason <> 'rebate' AND date >= ? AND date <= ?`).get(customer, from, to) as { s: number };
      return billed.s - credited.s;
    },
    /**
     * The sales margin's rows for months from … to: billed goods (invoice lines with an item, by the
     * invoice's posting month), credit memo lines (returns by item with the cost they came back at,
     * rebates and allowances without), and accepted deductions.
     */
    salesLines(from: string, to: string): { month: string; customer: string; item: string | null; qty: number; revenue: number; returns: number; allowances: number; cost: number }[] {
      return t.prepared(`
        SELECT i.period AS month, i.customer, l.item, l.qty, l.amount AS revenue, 0 AS returns, 0 AS allowances, l.cost
          FROM ar_invoice_lines l JOIN ar_invoices i ON i.id = l.invoice WHERE l.item IS NOT NULL AND i.status <> 'voided' AND i.period >= ? AND i.period <= ?
        UNION ALL
        SELECT substr(m.date, 1, 7), m.customer, json_extract(j.value, '$.item'), -json_extract(j.value, '$.qty') * (json_extract(j.value, '$.item') IS NOT NULL),
               0, CASE WHEN json_extract(j.value, '$.item') IS NOT NULL THEN json_extract(j.value, '$.amount') ELSE 0 END,
               CASE WHEN json_extract(j.value, '$.item') IS NULL THEN json_extract(j.value, '$.amount') ELSE 0 END, -json_extract(j.value, '$.cost')
          FROM ar_credit_memos m, json_each(m.lines) j WHERE substr(m.date, 1, 7) >= ? AND substr(m.date, 1, 7) <= ?
        UNION ALL
        SELECT substr(resolved_date, 1, 7), customer, NULL, 0, 0, 0, amount, 0 FROM deductions
          WHERE status = 'accepted' AND substr(resolved_date, 1, 7) >= ? AND substr(resolved_date, 1, 7) <= ?`).all(from, to, from, to, from, to) as never;
    },
    /** Open items as of a date, per customer and invoice (null for on-account), nothing zero. */
    openItemsAsOf(asOf: string): ArOpenItem[] {
      return (t.prepared(`SELECT customer, invoice, SUM(amount) AS amount FROM ar_transactions WHERE date <= ? GROUP BY customer, invoice HAVING SUM(amount) <> 0
        ORDER BY customer, invoice IS NULL, invoice`).all(asOf) as ArOpenItem[]);
    },
  };
}
