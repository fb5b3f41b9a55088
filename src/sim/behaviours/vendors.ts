import { addBusinessDays, addDays, type WorkCalendar } from '../../domain/calendar';
import { roundQty } from '../../projections/quantities';
import type { PoLineRow, PurchaseOrderRow } from '../../projections/purchasing-orders';
import { registerBehaviour } from '../behaviour-registry';
import type { SimClient, SimContext } from '../simulator';
import { onOrAfterBusinessDay, workCalendar } from './calendar';
import { firstShipmentQty, patternFor, roundToUnit, type VendorProfile, type VendorsWorld } from './vendor-profile';

interface VendorDay {
  ctx: SimContext;
  cal: WorkCalendar;
  client: SimClient;
}

/** A request raised before today is answered by the vendor's rules; free text is never read. */
function answerRequests(day: VendorDay, vendors: VendorsWorld['vendors']): void {
  const { ctx, cal, client } = day;
  for (const request of ctx.read.purchasing.pendingVendorRequests()) {
    const po = ctx.read.purchasing.po(request.po);
    const profile = po && vendors[po.vendor];
    if (!po || !profile || request.raised_date >= ctx.date) continue;
    const line = ctx.read.purchasing.poLine(po.id, request.line)!;
    const shipped = ctx.read.receiving.shippedQty(po.id, line.line);
    let answer: { decision: 'accepted' | 'refused'; date?: string; note: string } = { decision: 'refused', note: 'already_shipped' };
    if (line.status === 'open' && shipped < line.qty) {
      if (request.kind === 'expedite') {
        const earliest = onOrAfterBusinessDay(addDays(ctx.date, profile.expedite?.min_lead_days ?? 0), cal);
        const date = request.date! > earliest ? onOrAfterBusinessDay(request.date!, cal) : earliest;
        answer = profile.expedite?.accept ? { decision: 'accepted', date, note: '' } : { decision: 'refused', note: 'cannot_expedite' };
      } else if (request.kind === 'defer') {
        answer = profile.defer?.accept === false ? { decision: 'refused', note: 'cannot_defer' } : { decision: 'accepted', date: request.date!, note: '' };
      } else {
        const accept = profile.cancel_line?.accept !== false && shipped === 0;
        answer = accept ? { decision: 'accepted', note: '' } : { decision: 'refused', note: 'in_production' };
      }
    }
    client.post(`/vendor-requests/${request.id}/answer`, answer, `vendor-answer-${request.id}`);
  }
}

/** Lead time from the order date, never before the line's need-by date, on a business day. */
function confirmedDate(day: VendorDay, profile: VendorProfile, po: PurchaseOrderRow, line: PoLineRow): string {
  const item = line.item ? day.ctx.read.items.item(line.item) : undefined;
  const earliest = addDays(po.sent_date!, profile.lead_time_days ?? item?.lead_time_days ?? 7);
  return onOrAfterBusinessDay(line.need_by > earliest ? line.need_by : earliest, day.cal);
}

function acknowledge(day: VendorDay, profile: VendorProfile, po: PurchaseOrderRow, lines: readonly PoLineRow[]): void {
  const { ctx, cal, client } = day;
  if (ctx.read.purchasing.acknowledgements(po.id).length > 0) return;
  if (addBusinessDays(po.sent_date!, profile.ack_delay_days ?? 1, cal) > ctx.date) return;
  const open = lines.filter((l) => l.status === 'open');
  if (open.length === 0) return;
  const price_notices = open.flatMap((l) => {
    const notice = l.item ? profile.price_notices?.[l.item] : undefined;
    return notice && Math.round(notice.unit_price * 100) !== l.unit_price ? [{ line: l.line, unit_price: notice.unit_price, note: notice.note ?? '' }] : [];
  });
  client.post(`/purchase-orders/${po.id}/acknowledgements`, {
    lines: open.map((l) => ({ line: l.line, confirmed_date: confirmedDate(day, profile, po, l) })), price_notices,
  }, `vendor-ack-${po.id}`);
}

/**
 * On a line's confirmed date the vendor ships it with its planted pattern, keyed on the item and
 * the quantity actually ordered; a short first shipment is followed by the rest after
 * `backorder_days` when the pattern has them.
 */
function ship(day: VendorDay, profile: VendorProfile, po: PurchaseOrderRow, lines: readonly PoLineRow[]): void {
  const { ctx, cal, client } = day;
  const shipments = [];
  for (const line of lines) {
    if (line.status !== 'open' || !line.confirmed_date || line.confirmed_date > ctx.date) continue;
    const pattern = patternFor(profile, line.item);
    const previous = ctx.read.receiving.deliveriesOfPo(po.id).filter((d) => ctx.read.receiving.deliveryLines(d.id).some((l) => l.po_line === line.line));
    const shipped = ctx.read.receiving.shippedQty(po.id, line.line);
    let qty = 0;
    if (previous.length === 0) qty = firstShipmentQty(line.qty, line.unit, pattern);
    else if (previous.length === 1 && pattern.backorder_days !== undefined && shipped < line.qty && addBusinessDays(previous[0]!.ship_date, pattern.backorder_days, cal) <= ctx.date) {
      qty = roundToUnit(roundQty(line.qty - shipped), line.unit);
    }
    if (qty <= 0) continue;
    const itemId = pattern.substitute ?? line.item;
    const item = itemId ? ctx.read.items.item(itemId) : undefined;
    const lotted = item?.lot_controlled || pattern.lot !== undefined;
    shipments.push({
      po_line: line.line, qty, ...(itemId && itemId !== line.item ? { item: itemId } : {}),
      ...(lotted ? { lot: pattern.lot ?? `L${po.id.replace(/\D/g, '')}-${line.line}-${previous.length + 1}`, expiry: addDays(ctx.date, pattern.expiry_days ?? item?.shelf_life_days ?? 365) } : {}),
    });
  }
  if (shipments.length === 0) return;
  const expected = addBusinessDays(ctx.date, profile.transit_days ?? 0, cal);
  client.post('/deliveries', { po: po.id, ship_date: ctx.date, expected_date: expected, lines: shipments }, `vendor-ship-${po.id}-${ctx.date}`);
}

/**
 * Seed 000 environment §8: vendors with a profile act on sent POs only. Each business day they
 * answer the buyer's requests, acknowledge new orders with confirmed dates and price notices, and
 * ship what is due. Invoicing belongs to the payables area.
 */
registerBehaviour('vendors', 'purchase-orders', (ctx) => {
  const world = ctx.world.actors.vendors as VendorsWorld | undefined;
  if (!world?.vendors || !world.user || !ctx.businessDay) return;
  const day: VendorDay = { ctx, cal: workCalendar(ctx.read), client: ctx.as(world.user) };
  answerRequests(day, world.vendors);
  for (const vendor of Object.keys(world.vendors).sort()) {
    for (const po of ctx.read.purchasing.posOfVendor(vendor, ['sent', 'partially_received'])) {
      const profile = world.vendors[vendor]!;
      acknowledge(day, profile, po, ctx.read.purchasing.poLines(po.id));
      ship(day, profile, po, ctx.read.purchasing.poLines(po.id));
    }
  }
});
