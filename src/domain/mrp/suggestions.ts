import { Type } from '@sinclair/typebox';
import { WorkOrderCreated } from '../../events/contracts/manufacturing';
import { PlannedOrderFirmed } from '../../events/contracts/mrp';
import { PurchaseOrderCreated } from '../../events/contracts/purchasing';
import type { Queries } from '../../projections';
import type { MrpSuggestionRow } from '../../projections/mrp';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { addDays, isBusinessDay, previousBusinessDay } from '../calendar';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { createWorkOrder } from '../manufacturing/work-orders';
import { WO_CREATE } from '../manufacturing/permissions';
import { plantCalendar } from '../manufacturing/plant';
import { workOrderView } from '../manufacturing/views';
import { VendorIdInput } from '../master/inputs';
import { fromCents } from '../money';
import { parsePoLines } from '../purchasing/po-lines';
import { PO_CREATE } from '../purchasing/permissions';
import { poView } from '../purchasing/po-views';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt } from '../schemas';
import { MRP_RELEASE } from './permissions';

const tag = 'mrp';
const KindInput = Type.Union(['planned_po', 'planned_wo', 'expedite', 'defer', 'cancel'].map((k) => Type.Literal(k)));
const StatusInput = Type.Union(['open', 'firmed', 'released', 'requested', 'rescheduled', 'superseded'].map((k) => Type.Literal(k)));
const Qty = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });

/** A suggestion with what it is about: the order an action message names (and the vendor's requests on it), what a planned order became. */
export function suggestionView(read: Queries, id: string) {
  const s = read.mrp.suggestion(id);
  if (!s) return undefined;
  const item = read.items.item(s.item);
  const links: { rel: string; type: string; id: string }[] = [{ rel: 'run', type: 'mrp_run', id: s.run }, { rel: 'item', type: 'item', id: s.item }];
  let order: unknown = null;
  let requests: unknown[] = [];
  if (s.order_type === 'purchase_order' && s.order_id) {
    const line = read.purchasing.poLine(s.order_id, s.order_line ?? 0);
    order = line && { po: s.order_id, line: line.line, qty: line.qty, received_qty: line.received_qty, need_by: line.need_by, confirmed_date: line.confirmed_date, status: line.status };
    requests = read.purchasing.vendorRequests(s.order_id).filter((r) => r.line === s.order_line);
    links.push({ rel: 'order', type: 'purchase_order', id: s.order_id });
  } else if (s.order_type === 'work_order' && s.order_id) {
    const wo = read.manufacturing.workOrder(s.order_id);
    order = wo && { work_order: wo.id, qty: wo.qty, start_date: wo.start_date, due_date: wo.due_date, status: wo.status };
    links.push({ rel: 'order', type: 'work_order', id: s.order_id });
  }
  if (s.released_as && s.released_as_type) links.push({ rel: 'released_as', type: s.released_as_type, id: s.released_as });
  if (s.vendor) links.push({ rel: 'vendor', type: 'vendor', id: s.vendor });
  return {
    ...s, order, vendor_requests: requests,
    item_planning: item && { lead_time_days: item.lead_time_days, moq: item.moq, order_multiple: item.order_multiple, safety_stock: item.safety_stock, preferred_vendor: item.preferred_vendor },
    links,
  };
}

/** A planned order that can still be firmed or released, or a refusal. */
function plannedOrder(ctx: DecideContext, id: string, states: readonly MrpSuggestionRow['status'][]): MrpSuggestionRow | Refusal {
  const s = ctx.read.mrp.suggestion(id);
  if (!s) return refuse('not_found', `No MRP suggestion ${id}.`);
  if (s.kind !== 'planned_po' && s.kind !== 'planned_wo') {
    return refuse('invalid_request', `${id} is an action message (${s.kind}) on ${s.order_id}; work it with a vendor request (POST /purchase-orders/{id}/requests) or by rescheduling the work order.`, 422);
  }
  if (!states.includes(s.status)) {
    return refuse('invalid_state', s.status === 'superseded' ? `${id} was superseded by a later MRP run; use that run's suggestions.` : `${id} is ${s.status}.`);
  }
  return s;
}

/** The need date less the item's lead time, on a working day of the plant calendar. */
function releaseDateFor(ctx: DecideContext, item: string, need: string): string {
  const cal = plantCalendar(ctx.read);
  const d = addDays(need, -(ctx.read.items.item(item)?.lead_time_days ?? 0));
  return isBusinessDay(d, cal) ? d : previousBusinessDay(d, cal);
}

interface PoRelease {
  suggestions: readonly MrpSuggestionRow[];
  overrides: { qty?: number; need_date?: string; unit_price?: number | string };
  vendor?: string;
  ship_to?: string;
  note?: string;
}

/** One draft purchase order releasing planned purchase orders of one vendor, a line each, at the agreed price unless given. */
function releasePurchase(ctx: DecideContext, r: PoRelease) {
  if (!ctx.actor.permissions.has(PO_CREATE)) return refuse('forbidden', `Releasing a planned purchase order creates a purchase order, which needs the ${PO_CREATE} permission.`);
  const vendors = [...new Set(r.suggestions.map((s) => r.vendor ?? s.vendor))];
  if (vendors.length !== 1 || !vendors[0]) {
    return refuse('invalid_request', vendors.includes(null) ? 'A planned purchase order has no preferred vendor; name the vendor.' : `The planned orders are for different vendors (${vendors.join(', ')}); release one vendor's at a time.`, 422);
  }
  const vendor = ctx.read.vendors.vendor(vendors[0]);
  if (!vendor) return refuse('not_found', `No vendor ${vendors[0]}.`);
  if (vendor.status !== 'active') return refuse('vendor_inactive', `Vendor ${vendor.id} ${vendor.name} is inactive; no purchase orders may be placed with it.`);
  const shipTo = r.ship_to ?? ctx.read.manufacturing.plantSettings()?.warehouse;
  if (!shipTo) return refuse('invalid_request', 'Name the ship_to warehouse, or set the plant warehouse (POST /plant-settings).', 422);
  if (!ctx.read.items.warehouse(shipTo)) return refuse('not_found', `No warehouse ${shipTo}.`);
  const lines = r.suggestions.map((s) => {
    const qty = r.overrides.qty ?? s.qty;
    const agreed = ctx.read.items.priceFor(vendor.id, s.item, qty, ctx.today)?.unit_price ?? ctx.read.items.item(s.item)!.standard_cost;
    return { item: s.item, qty, need_by: r.overrides.need_date ?? s.need_date, unit_price: r.overrides.unit_price ?? fromCents(agreed) };
  });
  const parsed = parsePoLines(ctx.read, vendor, lines, null);
  if (isRefusal(parsed)) return parsed;
  const id = ctx.nextId('PO');
  return emit(PurchaseOrderCreated, {
    id, vendor: vendor.id, buyer: ctx.actor.id, ship_to: shipTo, department: ctx.read.org.user(ctx.actor.id)?.department ?? null, ...parsed,
    note: r.note ?? `Released from ${r.suggestions.map((s) => s.id).join(', ')}`, planned_orders: r.suggestions.map((s, i) => ({ line: i + 1, suggestion: s.id })),
  }, 'purchase_order', id);
}

const ReleaseBody = Body({
  qty: Opt(Qty),
  need_date: Opt(DateInput),
  vendor: Opt(VendorIdInput),
  unit_price: Opt(MoneyInput),
  ship_to: Opt(IdInput),
  start_date: Opt(Type.String({ format: 'date', description: "A planned work order's start; default its release date, or today when that has passed" })),
  note: Opt(NoteInput),
});

export const suggestionRoutes: RouteDef[] = [
  defineQuery({
    path: '/mrp/suggestions', tag, permission: null,
    summary: 'Suggestions of the latest MRP run (or ?run=): planned orders and action messages, filtered by kind, item, status, firm or late',
    query: ListQuery({ run: Opt(IdInput), kind: Opt(KindInput), item: Opt(IdInput), status: Opt(StatusInput), firm: Opt(Type.Boolean()), late: Opt(Type.Boolean()), order_id: Opt(IdInput) }),
    run: ({ query }, ctx) => {
      const run = query.run ?? ctx.read.mrp.latestRun()?.id ?? '';
      return listPage(ctx.tables, 'mrp_suggestions', { run, kind: query.kind, item: query.item, status: query.status, firm: query.firm, late: query.late, order_id: query.order_id }, query);
    },
  }),
  defineQuery({
    path: '/mrp/suggestions/{id}', tag, summary: 'A suggestion with the order it names, the vendor requests on that line, and what it was released as', permission: null, objectType: 'mrp_suggestion',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => suggestionView(ctx.read, params.id!),
  }),
  defineAction({
    action: 'mrp.firm', method: 'POST', path: '/mrp/suggestions/{id}/firm', tag, objectType: 'mrp_suggestion',
    summary: 'Firm a planned order (optionally at another quantity or need date): later runs keep it as supply instead of replanning it',
    body: Body({ qty: Opt(Qty), need_date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: MRP_RELEASE, emits: [PlannedOrderFirmed],
    decide: ({ params, body }, ctx) => {
      const s = plannedOrder(ctx, params.id!, ['open']);
      if (isRefusal(s)) return s;
      const need = body.need_date ?? s.need_date;
      const release = body.need_date ? releaseDateFor(ctx, s.item, need) : s.release_date!;
      return emit(PlannedOrderFirmed, { suggestion: s.id, item: s.item, qty: body.qty ?? s.qty, need_date: need, release_date: release, note: body.note ?? '' }, 'mrp_suggestion', s.id);
    },
    view: suggestionView,
  }),
  defineAction({
    action: 'mrp.release', method: 'POST', path: '/mrp/suggestions/{id}/release', tag, status: 201, objectType: 'mrp_suggestion',
    summary: "Release a planned order at MRP's quantity and need date unless given: a planned purchase order becomes a draft purchase order, a planned work order a planned work order",
    body: ReleaseBody,
    permission: MRP_RELEASE, emits: [PurchaseOrderCreated, WorkOrderCreated],
    decide: ({ params, body }, ctx) => {
      const s = plannedOrder(ctx, params.id!, ['open', 'firmed']);
      if (isRefusal(s)) return s;
      if (s.kind === 'planned_po') return releasePurchase(ctx, { suggestions: [s], overrides: body, vendor: body.vendor, ship_to: body.ship_to, note: body.note });
      if (!ctx.actor.permissions.has(WO_CREATE)) return refuse('forbidden', `Releasing a planned work order creates a work order, which needs the ${WO_CREATE} permission.`);
      const need = body.need_date ?? s.need_date;
      const release = body.need_date ? releaseDateFor(ctx, s.item, need) : s.release_date!;
      const start = body.start_date ?? (release < ctx.today ? ctx.today : release);
      return createWorkOrder(ctx, { item: s.item, qty: body.qty ?? s.qty, start_date: start, due_date: need < start ? start : need, planned_order: s.id, note: body.note ?? `Released from ${s.id}` });
    },
    view: (read, id) => (read.purchasing.po(id) ? poView(read, id) : workOrderView(read, id)),
  }),
  defineAction({
    action: 'mrp.release_many', method: 'POST', path: '/mrp/releases', tag, status: 201, objectType: 'purchase_order',
    summary: "Release several planned purchase orders of one vendor as one draft purchase order, a line each at MRP's quantity and need date",
    body: Body({ suggestions: Type.Array(IdInput, { minItems: 1, maxItems: 500 }), vendor: Opt(VendorIdInput), ship_to: Opt(IdInput), note: Opt(NoteInput) }),
    permission: MRP_RELEASE, emits: [PurchaseOrderCreated],
    decide: ({ body }, ctx) => {
      if (new Set(body.suggestions).size !== body.suggestions.length) return refuse('invalid_request', 'A planned order is named twice.', 422);
      const rows: MrpSuggestionRow[] = [];
      for (const id of body.suggestions) {
        const s = plannedOrder(ctx, id, ['open', 'firmed']);
        if (isRefusal(s)) return s;
        if (s.kind !== 'planned_po') return refuse('invalid_request', `${id} is a planned work order; release it on its own (POST /mrp/suggestions/${id}/release).`, 422);
        rows.push(s);
      }
      return releasePurchase(ctx, { suggestions: rows, overrides: {}, vendor: body.vendor, ship_to: body.ship_to, note: body.note });
    },
    view: poView,
  }),
];
