import type { Queries } from '../../projections';
import type { ArInvoiceRow } from '../../projections/receivables-invoices';
import type { PromiseToPayRow } from '../../projections/receivables-collections';
import { daysBetween } from '../calendar';
import { withDecimals } from '../decimal-view';
import { fromCents } from '../money';
import { agingBucket } from '../reports/ap-aging';

const INVOICE_MONEY = ['discount_amount', 'subtotal', 'tax', 'freight', 'total', 'cost', 'open_amount', 'paid_amount', 'discount_taken', 'credited_amount', 'deductions_accepted'] as const;

export function arInvoiceSummary(inv: ArInvoiceRow, today: string) {
  const { created_wall: _w, posting: _p, ...row } = inv as ArInvoiceRow & { created_wall?: string };
  const days = daysBetween(inv.due_date, today);
  return { ...withDecimals(row, [...INVOICE_MONEY]), days_past_due: inv.status === 'open' ? Math.max(0, days) : 0, bucket: inv.status === 'open' ? agingBucket(days) : null };
}

/** GET /ar-invoices/{id}: the invoice with its lines, what was applied to it, its deductions, credit memos, returns and links. */
export function arInvoiceView(read: Queries, id: string) {
  const inv = read.receivables.invoice(id);
  if (!inv) return undefined;
  const applications = read.arCash.applicationsTo(id).map((a) => ({
    receipt: a.receipt, date: a.date, amount: fromCents(a.amount), discount: fromCents(a.discount), deduction: a.deduction, live: a.live,
  }));
  const credits = read.arCash.creditMemosOf(id).map((m) => ({ id: m.id, reason: m.reason, date: m.date, total: fromCents(m.total) }));
  const deductions = read.arCash.deductionsOf(id).map((d) => ({ id: d.id, amount: fromCents(d.amount), reason: d.reason, status: d.status }));
  const rmas = read.shipments.rmasOfInvoice(id).map((r) => ({ id: r.id, status: r.status }));
  return {
    ...arInvoiceSummary(inv, read.clock.today()),
    lines: read.receivables.lines(id).map(({ invoice: _i, ...l }) => withDecimals(l, ['unit_price', 'amount', 'cost'])),
    applications, deductions, credit_memos: credits, rmas,
    links: [
      { rel: 'customer', type: 'customer', id: inv.customer },
      ...(inv.sales_order ? [{ rel: 'sales_order', type: 'sales_order', id: inv.sales_order }] : []),
      ...(inv.shipment ? [{ rel: 'shipment', type: 'shipment', id: inv.shipment }] : []),
      ...[...new Set(applications.map((a) => a.receipt))].map((r) => ({ rel: 'cash_receipt', type: 'cash_receipt', id: r })),
      ...credits.map((c) => ({ rel: 'ar_credit_memo', type: 'ar_credit_memo', id: c.id })),
    ],
  };
}

export function receiptView(read: Queries, id: string) {
  const r = read.arCash.receipt(id);
  if (!r) return undefined;
  const { created_wall: _w, ...row } = r as typeof r & { created_wall?: string };
  return {
    ...withDecimals(row, ['amount', 'applied_amount', 'unapplied_amount']),
    applications: read.arCash.applicationsOf(id).map((a) => ({
      invoice: a.invoice, customer: a.customer, date: a.date, amount: fromCents(a.amount), discount: fromCents(a.discount),
      deduction: a.deduction && { id: a.deduction, amount: fromCents(a.deduction_amount), reason: a.deduction_reason }, live: a.live,
    })),
    links: [
      { rel: 'customer', type: 'customer', id: r.customer }, { rel: 'bank_account', type: 'bank_account', id: r.bank_account },
      ...(r.statement_line ? [{ rel: 'bank_statement_line', type: 'bank_statement_line', id: r.statement_line }] : []),
      ...(r.source_message ? [{ rel: 'source_message', type: 'message', id: r.source_message }] : []),
    ],
  };
}

export function creditMemoView(read: Queries, id: string) {
  const m = read.arCash.creditMemo(id);
  if (!m) return undefined;
  const { created_wall: _w, ...row } = m as typeof m & { created_wall?: string };
  return {
    ...withDecimals(row, ['subtotal', 'tax', 'restocking_fee', 'total', 'unapplied_amount']),
    lines: (m.lines as Record<string, unknown>[]).map((l) => withDecimals(l, ['unit_price', 'amount', 'cost'])),
    applied_to: read.receivables.transactionsOfDocument(id).filter((t) => t.invoice !== null).map((t) => ({ invoice: t.invoice, amount: fromCents(-t.amount), date: t.date })),
    links: [
      { rel: 'customer', type: 'customer', id: m.customer },
      ...(m.invoice ? [{ rel: 'ar_invoice', type: 'ar_invoice', id: m.invoice }] : []),
      ...(m.rma ? [{ rel: 'rma', type: 'rma', id: m.rma }] : []),
      ...(m.rebate_agreement ? [{ rel: 'rebate_agreement', type: 'rebate_agreement', id: m.rebate_agreement }] : []),
    ],
  };
}

export function deductionView(read: Queries, id: string) {
  const d = read.arCash.deduction(id);
  if (!d) return undefined;
  const { created_wall: _w, ...row } = d as typeof d & { created_wall?: string };
  return { ...withDecimals(row, ['amount']), links: [{ rel: 'ar_invoice', type: 'ar_invoice', id: d.invoice }, { rel: 'cash_receipt', type: 'cash_receipt', id: d.receipt }] };
}

/** Whether a promise was kept: the customer's receipts from the day it was made to its date cover it. */
export function promiseStatus(read: Queries, p: PromiseToPayRow, today: string): 'open' | 'kept' | 'broken' {
  const paid = read.arCash.receiptsOf(p.customer).filter((r) => r.status !== 'reversed' && r.date >= p.created_date && r.date <= p.promise_date).reduce((s, r) => s + r.amount, 0);
  if (paid >= p.amount) return 'kept';
  return p.promise_date < today ? 'broken' : 'open';
}

export function collectionDocView(read: Queries, kind: 'dunning' | 'promise', id: string) {
  if (kind === 'dunning') {
    const d = read.collections.dunningAction(id);
    if (!d) return undefined;
    const { created_wall: _w, ...row } = d as typeof d & { created_wall?: string };
    const promise = read.collections.promiseFor(id);
    return {
      ...withDecimals(row, ['total_overdue']), invoices: d.invoices.map((i) => withDecimals(i, ['open_amount'])), promise: promise?.id ?? null,
      links: [{ rel: 'customer', type: 'customer', id: d.customer }, ...d.invoices.map((i) => ({ rel: 'ar_invoice', type: 'ar_invoice', id: i.invoice }))],
    };
  }
  const p = read.collections.promise(id);
  if (!p) return undefined;
  const { created_wall: _w, ...row } = p as typeof p & { created_wall?: string };
  return { ...withDecimals(row, ['amount']), status: promiseStatus(read, p, read.clock.today()), links: [{ rel: 'customer', type: 'customer', id: p.customer }] };
}

/**
 * GET /customers/{id}/account: what the customer owes and how it stands against its limit: open
 * invoices by bucket, cash and credit on account, open orders, credit holds, dunning and promises.
 */
export function accountView(read: Queries, id: string) {
  const c = read.customers.customer(id);
  if (!c) return undefined;
  const today = read.clock.today();
  const balance = read.receivables.customerBalance(id);
  const openOrders = read.sales.openOrderValue(id);
  const hold = read.collections.openCreditHold(id);
  return {
    customer: id, name: c.name, credit_limit: fromCents(c.credit_limit), terms: c.terms, parent: c.parent, subsidiaries: read.customers.subsidiaries(id).map((s) => s.id),
    balance: fromCents(balance), on_account: fromCents(read.receivables.onAccount(id)), open_orders: fromCents(openOrders), exposure: fromCents(balance + openOrders),
    available_credit: fromCents(c.credit_limit - balance - openOrders),
    credit_hold: hold ? { id: hold.id, reason: hold.reason, placed_date: hold.placed_date, note: hold.note } : null,
    open_invoices: read.receivables.openInvoices(id).map((i) => {
      const s = arInvoiceSummary(i, today);
      return { id: i.id, invoice_date: i.invoice_date, due_date: i.due_date, total: s.total, open_amount: s.open_amount, days_past_due: s.days_past_due, bucket: s.bucket };
    }),
    on_account_documents: read.arCash.onAccountDocuments(id).map((d) => ({ ...d, amount: fromCents(d.amount) })),
    orders_on_hold: read.sales.ordersOfCustomerOnHold(id),
    dunning: read.collections.dunningOf(id).map((d) => ({ id: d.id, level: d.level, date: d.created_date, total_overdue: fromCents(d.total_overdue) })),
    promises: read.collections.promisesOf(id).map((p) => ({ id: p.id, promise_date: p.promise_date, amount: fromCents(p.amount), status: promiseStatus(read, p, today) })),
    links: [{ rel: 'customer', type: 'customer', id }],
  };
}
