import { openQtyOf, type PoStatus } from '../../projections/purchasing-orders';
import { daysBetween } from '../calendar';
import { VendorIdInput } from '../master/inputs';
import { fromCents, roundCents } from '../money';
import { IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

const OPEN: readonly PoStatus[] = ['approved', 'sent', 'partially_received'];

/** Every line still expecting goods on an approved, sent or partially received PO. */
export const openPurchaseOrders = defineReport({
  id: 'open-purchase-orders',
  summary: 'Open PO lines of approved, sent and partially received orders: ordered, received, open quantity and value, need-by and confirmed dates, days late',
  params: ReportParams({ vendor: Opt(VendorIdInput), buyer: Opt(IdInput), ship_to: Opt(IdInput), item: Opt(IdInput) }),
  permission: null,
  run: (ctx, params) => {
    let openValue = 0;
    const rows = ctx.read.purchasing.posWithStatus(OPEN)
      .filter((po) => (!params.vendor || po.vendor === params.vendor) && (!params.buyer || po.buyer === params.buyer) && (!params.ship_to || po.ship_to === params.ship_to))
      .flatMap((po) => ctx.read.purchasing.poLines(po.id)
        .filter((l) => openQtyOf(l) > 0 && (!params.item || l.item === params.item))
        .map((l) => {
          const open = openQtyOf(l);
          const value = roundCents(open * l.unit_price);
          openValue += value;
          const due = l.confirmed_date ?? l.need_by;
          return {
            po: po.id, status: po.status, vendor: po.vendor, vendor_name: ctx.read.vendors.vendor(po.vendor)?.name ?? '', buyer: po.buyer, ship_to: po.ship_to,
            line: l.line, item: l.item, description: l.description, unit: l.unit, ordered: l.qty, received: l.received_qty, open_qty: open,
            unit_price: fromCents(l.unit_price), open_value: fromCents(value), need_by: l.need_by, confirmed_date: l.confirmed_date,
            days_late: due < ctx.today ? daysBetween(due, ctx.today) : 0,
          };
        }));
    return { as_of: ctx.today, rows, totals: { lines: rows.length, open_value: fromCents(openValue) } };
  },
});
