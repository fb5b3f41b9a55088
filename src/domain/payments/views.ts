import type { Queries } from '../../projections';
import { withDecimals } from '../decimal-view';
import { fromCents } from '../money';

/** A vendor bank account as a payment shows it; the pipeline masks its numbers for most readers. */
function vendorAccount(read: Queries, id: string | null) {
  if (!id) return null;
  const a = read.vendors.bankAccount(id);
  return a ? { id: a.id, bank_name: a.bank_name, routing_number: a.routing_number, account_number: a.account_number, status: a.status } : { id };
}

export function paymentView(read: Queries, id: string) {
  const p = read.payments.payment(id);
  if (!p) return undefined;
  const { created_wall: _wall, ...row } = p as typeof p & { created_wall?: string };
  const allocations = read.payments.allocations(id).map((a) => ({ invoice: a.invoice, amount: fromCents(a.amount), discount: fromCents(a.discount) }));
  return {
    ...withDecimals(row, ['amount', 'discount']),
    paid_to: vendorAccount(read, p.vendor_bank_account),
    allocations,
    links: [
      { rel: 'vendor', type: 'vendor', id: p.vendor },
      ...(p.run ? [{ rel: 'payment_run', type: 'payment_run', id: p.run }] : []),
      ...allocations.map((a) => ({ rel: 'invoice', type: 'ap_invoice', id: a.invoice })),
      { rel: 'bank_account', type: 'bank_account', id: p.bank_account },
      { rel: 'bank_transaction', type: 'bank_transaction', id: p.bank_transaction },
      ...(p.statement_line ? [{ rel: 'statement_line', type: 'bank_statement_line', id: p.statement_line }] : []),
    ],
  };
}

/** A run with its items, each shown with the invoice as it now stands (status, open amount, open holds). */
export function runView(read: Queries, id: string) {
  const run = read.payments.run(id);
  if (!run) return undefined;
  const { created_wall: _wall, ...row } = run as typeof run & { created_wall?: string };
  const items = read.payments.runItems(id).map((i) => {
    const inv = read.payables.invoice(i.invoice);
    return {
      ...withDecimals(i, ['amount', 'discount', 'open_amount']),
      vendor_invoice_number: inv?.vendor_invoice_number ?? null, due_date: inv?.due_date ?? null, discount_date: inv?.discount_date ?? null,
      invoice_status: inv?.status ?? null, invoice_open_amount: inv ? fromCents(inv.open_amount) : null,
      open_holds: read.payables.openHolds(i.invoice).map((h) => ({ id: h.id, reason: h.reason })),
    };
  });
  const payments = [...new Set(items.map((i) => i.payment).filter((p): p is string => p !== null))].sort();
  return {
    ...withDecimals(row, ['total_amount', 'total_discount']),
    preparer: run.created_by,
    items,
    payments: payments.map((p) => paymentView(read, p)),
    links: [
      { rel: 'bank_account', type: 'bank_account', id: run.bank_account },
      ...payments.map((p) => ({ rel: 'payment', type: 'payment', id: p })),
    ],
  };
}
