import { Type } from '@sinclair/typebox';
import {
  PurchaseOrderApproved, PurchaseOrderCancelled, PurchaseOrderClosed, PurchaseOrderCreated, PurchaseOrderLineShortClosed,
  PurchaseOrderRevised, PurchaseOrderSent,
} from '../../events/contracts/purchasing';
import { openQtyOf, type PoStatus, type PurchaseOrderRow } from '../../projections/purchasing-orders';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { approvalRefusal } from '../approval';
import { emit, isRefusal, refuse, type DecideContext, type Refusal } from '../decision';
import { VendorIdInput } from '../master/inputs';
import { Body, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { LineParam, UserIdInput } from './inputs';
import { PO_APPROVE, PO_CREATE, PO_SEND } from './permissions';
import { parsePoLines, PoLinesInput } from './po-lines';
import { poHeaderView, poView } from './po-views';

const tag = 'purchasing';
const objectType = 'purchase_order';
export const PoStatusInput = Type.Union(['draft', 'approved', 'sent', 'partially_received', 'received', 'closed', 'cancelled'].map((s) => Type.Literal(s)));

/** The PO, or a refusal when it is missing or not in one of the states the action starts from. */
export function poIn(ctx: DecideContext, id: string, states: readonly PoStatus[], action: string): PurchaseOrderRow | Refusal {
  const po = ctx.read.purchasing.po(id);
  if (!po) return refuse('not_found', `No purchase order ${id}.`);
  if (!states.includes(po.status)) return refuse('invalid_state', `${id} is ${po.status}; only a purchase order that is ${states.join(' or ')} can be ${action}.`);
  return po;
}

/** Seed §5: no new PO for, and no sending one to, an inactive vendor. A quality hold is a soft control: allowed. */
function activeVendor(ctx: DecideContext, vendorId: string) {
  const vendor = ctx.read.vendors.vendor(vendorId);
  if (!vendor) return refuse('not_found', `No vendor ${vendorId}.`);
  if (vendor.status !== 'active') return refuse('vendor_inactive', `Vendor ${vendor.id} ${vendor.name} is inactive; no purchase orders may be placed with it.`);
  return vendor;
}

const lineParams = Type.Object({ id: IdInput, line: LineParam }, { additionalProperties: false });

export const purchaseOrderRoutes: RouteDef[] = [
  defineAction({
    action: 'purchase_order.create', method: 'POST', path: '/purchase-orders', tag, status: 201, objectType,
    summary: 'Create a draft purchase order: from approved requisition lines (converting them) or direct lines',
    body: Body({
      vendor: VendorIdInput,
      ship_to: Type.String({ minLength: 1, maxLength: 80, description: 'Warehouse id' }),
      department: Opt(IdInput),
      lines: PoLinesInput,
      note: Opt(NoteInput),
      // Only the system actor (scenario generators) may name another buyer.
      buyer: Opt(UserIdInput),
    }),
    permission: PO_CREATE, emits: [PurchaseOrderCreated],
    decide: ({ body }, ctx) => {
      const buyer = body.buyer ?? ctx.actor.id;
      if (buyer !== ctx.actor.id && !ctx.actor.system) return refuse('forbidden', 'You may create purchase orders only as their buyer.');
      const vendor = activeVendor(ctx, body.vendor);
      if (isRefusal(vendor)) return vendor;
      if (!ctx.read.items.warehouse(body.ship_to)) return refuse('not_found', `No warehouse ${body.ship_to}.`);
      const department = body.department ?? ctx.read.org.user(buyer)?.department ?? null;
      if (department && !ctx.read.org.department(department)) return refuse('not_found', `No department ${department}.`);
      const parsed = parsePoLines(ctx.read, vendor, body.lines, null);
      if (isRefusal(parsed)) return parsed;
      const id = ctx.nextId('PO');
      return emit(PurchaseOrderCreated, { id, vendor: vendor.id, buyer, ship_to: body.ship_to, department, ...parsed, note: body.note ?? '' }, objectType, id);
    },
    view: poView,
  }),
  defineAction({
    action: 'purchase_order.revise', method: 'POST', path: '/purchase-orders/{id}/revise', tag, objectType,
    summary: 'Replace the lines (and optionally the ship-to) of a draft purchase order; requisition lines it drops are freed',
    body: Body({ ship_to: Opt(Type.String({ minLength: 1, maxLength: 80 })), lines: PoLinesInput, note: Opt(NoteInput) }),
    permission: PO_CREATE, emits: [PurchaseOrderRevised],
    decide: ({ params, body }, ctx) => {
      const po = poIn(ctx, params.id!, ['draft'], 'revised');
      if (isRefusal(po)) return po;
      const shipTo = body.ship_to ?? po.ship_to;
      if (!ctx.read.items.warehouse(shipTo)) return refuse('not_found', `No warehouse ${shipTo}.`);
      const parsed = parsePoLines(ctx.read, ctx.read.vendors.vendor(po.vendor)!, body.lines, po.id);
      if (isRefusal(parsed)) return parsed;
      return emit(PurchaseOrderRevised, { id: po.id, ship_to: shipTo, ...parsed, note: body.note ?? po.note }, objectType, po.id);
    },
    view: poView,
  }),
  defineAction({
    action: 'purchase_order.approve', method: 'POST', path: '/purchase-orders/{id}/approve', tag, objectType,
    summary: 'Approve a draft purchase order within your purchase_order limit (a buyer may release their own)',
    body: Body({ note: Opt(NoteInput) }),
    permission: PO_APPROVE, emits: [PurchaseOrderApproved],
    decide: ({ params, body }, ctx) => {
      const po = poIn(ctx, params.id!, ['draft'], 'approved');
      if (isRefusal(po)) return po;
      const refusal = approvalRefusal(ctx, { documentType: 'purchase_order', documentId: po.id, requester: po.buyer, amount: po.total, department: po.department, selfApprovalAllowed: true });
      if (refusal) return refusal;
      return emit(PurchaseOrderApproved, { id: po.id, amount: po.total, note: body.note ?? '' }, objectType, po.id);
    },
    view: poView,
  }),
  defineAction({
    action: 'purchase_order.send', method: 'POST', path: '/purchase-orders/{id}/send', tag, objectType,
    summary: 'Send an approved purchase order to its vendor; vendors act only on sent orders',
    body: Body({ note: Opt(NoteInput) }),
    permission: PO_SEND, emits: [PurchaseOrderSent],
    decide: ({ params, body }, ctx) => {
      const po = poIn(ctx, params.id!, ['approved'], 'sent');
      if (isRefusal(po)) return po;
      const vendor = activeVendor(ctx, po.vendor);
      if (isRefusal(vendor)) return vendor;
      return emit(PurchaseOrderSent, { id: po.id, vendor: po.vendor, note: body.note ?? '' }, objectType, po.id);
    },
    view: poView,
  }),
  defineAction({
    action: 'purchase_order.cancel', method: 'POST', path: '/purchase-orders/{id}/cancel', tag, objectType,
    summary: 'Cancel a purchase order nothing has been received on, with a reason; its requisition lines are freed',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: PO_CREATE, emits: [PurchaseOrderCancelled],
    decide: ({ params, body }, ctx) => {
      const po = poIn(ctx, params.id!, ['draft', 'approved', 'sent'], 'cancelled');
      if (isRefusal(po)) return po;
      if (ctx.read.purchasing.poLines(po.id).some((l) => l.received_qty > 0)) {
        return refuse('invalid_state', `${po.id} has receipts; short-close its open lines or close it instead.`);
      }
      return emit(PurchaseOrderCancelled, { id: po.id, reason: body.reason, note: body.note ?? '' }, objectType, po.id);
    },
    view: poView,
  }),
  defineAction({
    action: 'purchase_order.short_close_line', method: 'POST', path: '/purchase-orders/{id}/lines/{line}/short-close', tag, objectType, params: lineParams,
    summary: 'Short-close a line: nothing more is expected on it; its open quantity is given up, with a reason',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: PO_CREATE, emits: [PurchaseOrderLineShortClosed],
    decide: ({ params, body }, ctx) => {
      const po = poIn(ctx, params.id!, ['approved', 'sent', 'partially_received'], 'short-closed');
      if (isRefusal(po)) return po;
      const line = ctx.read.purchasing.poLine(po.id, Number(params.line));
      if (!line) return refuse('not_found', `${po.id} has no line ${params.line}.`);
      if (line.status !== 'open') return refuse('invalid_state', `Line ${line.line} of ${po.id} is ${line.status}; only an open line can be short-closed.`);
      return emit(PurchaseOrderLineShortClosed, { id: po.id, line: line.line, open_qty: openQtyOf(line), reason: body.reason, note: body.note ?? '' }, objectType, po.id);
    },
    view: poView,
  }),
  defineAction({
    action: 'purchase_order.close', method: 'POST', path: '/purchase-orders/{id}/close', tag, objectType,
    summary: 'Close a received or partially received purchase order: nothing more will be received on it',
    body: Body({ reason: ReasonInput, note: Opt(NoteInput) }),
    permission: PO_CREATE, emits: [PurchaseOrderClosed],
    decide: ({ params, body }, ctx) => {
      const po = poIn(ctx, params.id!, ['partially_received', 'received'], 'closed');
      if (isRefusal(po)) return po;
      return emit(PurchaseOrderClosed, { id: po.id, reason: body.reason, note: body.note ?? '' }, objectType, po.id);
    },
    view: poView,
  }),
  defineQuery({
    path: '/purchase-orders', tag, summary: 'List purchase orders by status, vendor, buyer or ship-to', permission: null,
    query: ListQuery({ status: Opt(PoStatusInput), vendor: Opt(VendorIdInput), buyer: Opt(UserIdInput), ship_to: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'purchase_orders', { status: query.status, vendor: query.vendor, buyer: query.buyer, ship_to: query.ship_to }, query, {
      map: (r) => poHeaderView(r as unknown as PurchaseOrderRow),
    }),
  }),
  defineQuery({
    path: '/purchase-orders/{id}', tag, summary: 'A purchase order with lines (ordered, received, open), acknowledgements, requests, deliveries, receipts, status history and links', permission: null, objectType,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => poView(ctx.read, params.id!),
  }),
];
