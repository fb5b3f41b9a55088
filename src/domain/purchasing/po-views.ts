import type { Queries } from '../../projections';
import { openQtyOf, type PoAcknowledgementRow, type PoLineRow, type PurchaseOrderRow, type VendorRequestRow } from '../../projections/purchasing-orders';
import { withDecimals } from '../decimal-view';
import { roundCents } from '../money';
import { fromCents } from '../money';

export const poLineView = (l: PoLineRow) => ({
  ...withDecimals(l, ['unit_price', 'amount']),
  ordered_qty: l.qty,
  open_qty: openQtyOf(l),
  open_value: fromCents(roundCents(openQtyOf(l) * l.unit_price)),
});

export const poHeaderView = (po: PurchaseOrderRow) => withDecimals(po, ['total']);

export const vendorRequestView = (r: VendorRequestRow) => r;

/**
 * A purchase order as GET /purchase-orders/{id} shows it: lines with ordered, received and open
 * quantities, the vendor's acknowledgements, requests to the vendor, deliveries, receipts, status
 * history and links. Invoiced quantities are the payables area's to add.
 */
export function poView(read: Queries, id: string) {
  const po = read.purchasing.po(id);
  if (!po) return undefined;
  const lines = read.purchasing.poLines(id);
  const receipts = read.receiving.receiptsOfPo(id);
  const deliveries = read.receiving.deliveriesOfPo(id);
  const requisitions = [...new Set(lines.flatMap((l) => l.requisition_lines.map((r) => r.requisition)))].sort();
  return {
    ...poHeaderView(po),
    lines: lines.map(poLineView),
    acknowledgements: read.purchasing.acknowledgements(id).map((a) => withDecimals(a as PoAcknowledgementRow, ['price_notice'])),
    requests: read.purchasing.vendorRequests(id).map(vendorRequestView),
    deliveries: deliveries.map((d) => ({ id: d.id, expected_date: d.expected_date, status: d.status, receipt: d.receipt })),
    receipts: receipts.map((r) => ({ id: r.id, date: r.date, status: r.status, total: fromCents(r.total) })),
    links: [
      { rel: 'vendor', type: 'vendor', id: po.vendor },
      { rel: 'ship_to', type: 'warehouse', id: po.ship_to },
      ...requisitions.map((r) => ({ rel: 'requisition', type: 'requisition', id: r })),
      ...deliveries.map((d) => ({ rel: 'delivery', type: 'delivery', id: d.id })),
      ...receipts.map((r) => ({ rel: 'receipt', type: 'receipt', id: r.id })),
    ],
  };
}
