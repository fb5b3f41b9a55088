import type { Queries } from '../../projections';
import { withDecimals } from '../decimal-view';
import { fromCents } from '../money';

export function creditView(read: Queries, id: string) {
  const credit = read.apMemos.credit(id);
  if (!credit) return undefined;
  const { created_wall: _wall, ...row } = credit as typeof credit & { created_wall?: string };
  const applications = read.apMemos.applicationsOf(id).map((a) => ({ invoice: a.invoice, amount: fromCents(a.amount), date: a.date, by: a.by }));
  return {
    ...withDecimals(row, ['amount', 'applied_amount', 'unapplied_amount']),
    applications,
    links: [
      { rel: 'vendor', type: 'vendor', id: credit.vendor },
      ...applications.map((a) => ({ rel: 'applied_to', type: 'ap_invoice', id: a.invoice })),
      ...(credit.dispute ? [{ rel: 'dispute', type: 'dispute', id: credit.dispute }] : []),
      ...(credit.source_message ? [{ rel: 'source_message', type: 'message', id: credit.source_message }] : []),
    ],
  };
}

export function debitMemoView(read: Queries, id: string) {
  const memo = read.apMemos.debitMemo(id);
  if (!memo) return undefined;
  const { created_wall: _wall, ...row } = memo as typeof memo & { created_wall?: string };
  return {
    ...withDecimals(row, ['amount']),
    lines: memo.lines.map((l) => withDecimals(l, ['unit_price', 'amount'])),
    links: [{ rel: 'vendor', type: 'vendor', id: memo.vendor }, { rel: 'invoice', type: 'ap_invoice', id: memo.invoice }],
  };
}

export function disputeView(read: Queries, id: string) {
  const dispute = read.apMemos.dispute(id);
  if (!dispute) return undefined;
  const { created_wall: _wall, ...row } = dispute as typeof dispute & { created_wall?: string };
  return {
    ...withDecimals(row, ['amount']),
    links: [
      { rel: 'vendor', type: 'vendor', id: dispute.vendor },
      { rel: 'invoice', type: 'ap_invoice', id: dispute.invoice },
      ...(dispute.credit ? [{ rel: 'credit', type: 'vendor_credit', id: dispute.credit }] : []),
    ],
  };
}
