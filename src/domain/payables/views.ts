import type { MatchLine } from '../../events/contracts/payables';
import type { Queries } from '../../projections';
import type { ApInvoiceRow } from '../../projections/payables-invoices';
import { withDecimals } from '../decimal-view';
import { fromCents } from '../money';
import { matchInvoice } from './match';

const INVOICE_MONEY = [
  'lines_total', 'tax', 'freight', 'total', 'discount_amount', 'ap_balance', 'open_amount', 'paid_amount', 'discount_taken', 'credited_amount',
  'debit_memo_amount', 'written_off_amount',
] as const;
const MATCH_MONEY = ['billed_unit_price', 'billed_amount', 'arithmetic_difference', 'po_unit_price', 'matched_value', 'price_variance', 'quantity_variance'] as const;

export function invoiceSummary(inv: ApInvoiceRow) {
  const { created_wall: _wall, posting: _posting, ...row } = inv as ApInvoiceRow & { created_wall?: string };
  return withDecimals(row, [...INVOICE_MONEY]);
}

export const matchView = (m: MatchLine) => withDecimals(m, [...MATCH_MONEY]);

/** What validating the invoice today would find, line by line (nothing is stored). */
export function matchPreview(read: Queries, id: string, glDate: string) {
  const inv = read.payables.invoice(id);
  if (!inv) return undefined;
  const lines = read.payables.lines(id);
  const outcome = matchInvoice(read, { id, po: inv.po, lines, tax: inv.tax, freight: inv.freight, total: inv.total }, glDate, read.payables.policy());
  return {
    invoice: id,
    gl_date: glDate,
    price_tolerance_bp: read.payables.policy().price_tolerance_bp,
    lines: outcome.lines.map(matchView),
    arithmetic: withDecimals(outcome.arithmetic, ['lines_total', 'tax', 'freight', 'computed_total', 'billed_total', 'difference']),
    exceptions: [...new Set(outcome.lines.flatMap((l) => l.exceptions).concat(outcome.arithmetic.difference !== 0 ? ['arithmetic'] : []))].sort(),
  };
}

/**
 * GET /ap-invoices/{id}: the invoice as billed with its match (stored at validation, or a preview
 * before), holds, notes, disputes, memos, payments, possible duplicates, status history and links.
 */
export function invoiceView(read: Queries, id: string) {
  const inv = read.payables.invoice(id);
  if (!inv) return undefined;
  const lines = read.payables.lines(id).map(({ match, ...l }) => ({ ...withDecimals(l, ['unit_price', 'amount']), match: match ? matchView(match) : null }));
  const payments = read.payments.paymentsOfInvoice(id).map((p) => ({
    id: p.id, method: p.method, run: p.run, date: p.date, status: p.status, vendor_bank_account: p.vendor_bank_account,
    amount: fromCents(p.allocated), discount: fromCents(p.allocated_discount),
  }));
  const proposals = read.payments.liveProposals(id).map((i) => ({ run: i.run, amount: fromCents(i.amount), discount: fromCents(i.discount) }));
  const credits = read.apMemos.applicationsTo(id).map((a) => ({ credit: a.credit, amount: fromCents(a.amount), date: a.date }));
  const debitMemos = read.apMemos.debitMemosOf(id).map((m) => ({ id: m.id, amount: fromCents(m.amount), reason: m.reason, date: m.gl_date }));
  const disputes = read.apMemos.disputesOf(id).map((d) => ({ id: d.id, reason: d.reason, amount: fromCents(d.amount), status: d.status, credit: d.credit }));
  const duplicates = read.payables.sameNumber(inv.vendor, inv.normalized_number).filter((o) => o.id !== id)
    .map((o) => ({ id: o.id, vendor_invoice_number: o.vendor_invoice_number, total: fromCents(o.total), status: o.status, same_total: o.total === inv.total }));
  const links = [
    { rel: 'vendor', type: 'vendor', id: inv.vendor },
    ...(inv.po ? [{ rel: 'purchase_order', type: 'purchase_order', id: inv.po }] : []),
    ...(inv.po ? read.receiving.receiptsOfPo(inv.po).map((r) => ({ rel: 'receipt', type: 'receipt', id: r.id })) : []),
    ...(inv.source_message ? [{ rel: 'source_message', type: 'message', id: inv.source_message }] : []),
    ...(inv.duplicate_of ? [{ rel: 'duplicate_of', type: 'ap_invoice', id: inv.duplicate_of }] : []),
    ...payments.map((p) => ({ rel: 'payment', type: 'payment', id: p.id })),
    ...proposals.map((p) => ({ rel: 'payment_run', type: 'payment_run', id: p.run })),
  ];
  return {
    ...invoiceSummary(inv),
    lines,
    match_preview: inv.posted || inv.lifecycle !== 'entered' ? null : matchPreview(read, id, read.clock.today()),
    holds: read.payables.holds(id).map(({ created_wall: _w, ...h }) => h),
    notes: read.payables.notes(id).map((n) => ({ event_id: n.event_id, text: n.text, by: n.by, date: n.date })),
    disputes,
    credits,
    debit_memos: debitMemos,
    payments,
    proposed_in: proposals,
    possible_duplicates: duplicates,
    links,
  };
}
