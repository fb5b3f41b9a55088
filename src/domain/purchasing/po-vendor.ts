import { Type } from '@sinclair/typebox';
import { PurchaseOrderAcknowledged, VendorRequestAnswered, VendorRequestRaised } from '../../events/contracts/purchasing';
import type { VendorRequestRow } from '../../projections/purchasing-orders';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { toCents } from '../money';
import { Body, DateInput, IdInput, ListQuery, MoneyInput, NoteInput, Opt } from '../schemas';
import { LineNoInput } from './inputs';
import { PO_ACKNOWLEDGE, PO_CREATE, VENDOR_REQUEST_ANSWER } from './permissions';
import { poIn } from './purchase-orders';
import { poView } from './po-views';

const tag = 'purchasing';
const Kind = Type.Union([Type.Literal('expedite'), Type.Literal('defer'), Type.Literal('cancel_line')]);

function vendorRequestDetail(read: Parameters<typeof poView>[0], id: string) {
  const r = read.purchasing.vendorRequest(id);
  return r && { ...r, links: [{ rel: 'purchase_order', type: 'purchase_order', id: r.po }] };
}

export const poVendorRoutes: RouteDef[] = [
  defineAction({
    action: 'purchase_order.acknowledge', method: 'POST', path: '/purchase-orders/{id}/acknowledgements', tag, status: 201, objectType: 'purchase_order',
    summary: 'The vendor acknowledges a sent PO: a confirmed date (and quantity) per line, and notice of any different price',
    body: Body({
      lines: Type.Array(Body({ line: LineNoInput, confirmed_date: DateInput, confirmed_qty: Opt(Type.Number({ minimum: 0, maximum: 1e9 })) }), { minItems: 1, maxItems: 500 }),
      price_notices: Opt(Type.Array(Body({ line: LineNoInput, unit_price: MoneyInput, note: Opt(NoteInput) }), { maxItems: 500 })),
      note: Opt(NoteInput),
    }),
    permission: PO_ACKNOWLEDGE, emits: [PurchaseOrderAcknowledged],
    decide: ({ params, body }, ctx) => {
      const po = poIn(ctx, params.id!, ['sent', 'partially_received', 'received'], 'acknowledged');
      if (isRefusal(po)) return po;
      const lines = [];
      for (const l of body.lines) {
        const line = ctx.read.purchasing.poLine(po.id, l.line);
        if (!line) return refuse('not_found', `${po.id} has no line ${l.line}.`);
        lines.push({ line: l.line, confirmed_date: l.confirmed_date, confirmed_qty: l.confirmed_qty ?? line.qty });
      }
      const price_notices = [];
      for (const n of body.price_notices ?? []) {
        if (!ctx.read.purchasing.poLine(po.id, n.line)) return refuse('not_found', `${po.id} has no line ${n.line}.`);
        const unit_price = toCents(n.unit_price);
        if (unit_price < 0) return refuse('invalid_request', 'A unit price cannot be negative.', 422);
        price_notices.push({ line: n.line, unit_price, note: n.note ?? '' });
      }
      const id = ctx.nextId('ACK');
      return emit(PurchaseOrderAcknowledged, { id, po: po.id, lines, price_notices, note: body.note ?? '' }, 'purchase_order', po.id);
    },
    view: poView,
  }),
  defineAction({
    action: 'vendor_request.raise', method: 'POST', path: '/purchase-orders/{id}/requests', tag, status: 201, objectType: 'vendor_request',
    summary: 'Ask the vendor of a sent PO to expedite or defer a line to a date, or to cancel it; the vendor answers',
    body: Body({ kind: Kind, line: LineNoInput, date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: PO_CREATE, emits: [VendorRequestRaised],
    decide: ({ params, body }, ctx) => {
      const po = poIn(ctx, params.id!, ['sent', 'partially_received'], 'the subject of a vendor request');
      if (isRefusal(po)) return po;
      const line = ctx.read.purchasing.poLine(po.id, body.line);
      if (!line) return refuse('not_found', `${po.id} has no line ${body.line}.`);
      if (line.status !== 'open') return refuse('invalid_state', `Line ${line.line} of ${po.id} is ${line.status}; requests are for open lines.`);
      if (body.kind !== 'cancel_line' && !body.date) return refuse('invalid_request', `An ${body.kind} request names the date wanted.`, 422);
      const id = ctx.nextId('VRQ');
      return emit(VendorRequestRaised, { id, po: po.id, line: line.line, kind: body.kind, date: body.kind === 'cancel_line' ? null : body.date!, note: body.note ?? '' }, 'vendor_request', id);
    },
    view: vendorRequestDetail,
  }),
  defineAction({
    action: 'vendor_request.answer', method: 'POST', path: '/vendor-requests/{id}/answer', tag, objectType: 'vendor_request',
    summary: "The vendor answers a buyer's request: accepted (with the new date for expedite or defer) or refused",
    body: Body({ decision: Type.Union([Type.Literal('accepted'), Type.Literal('refused')]), date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: VENDOR_REQUEST_ANSWER, emits: [VendorRequestAnswered],
    decide: ({ params, body }, ctx) => {
      const request = ctx.read.purchasing.vendorRequest(params.id!);
      if (!request) return refuse('not_found', `No vendor request ${params.id}.`);
      if (request.status !== 'pending') return refuse('invalid_state', `${request.id} was already ${request.status}.`);
      const accepted = body.decision === 'accepted';
      if (accepted && ctx.read.purchasing.poLine(request.po, request.line)?.status !== 'open') {
        return refuse('invalid_state', `Line ${request.line} of ${request.po} is no longer open.`);
      }
      const date = request.kind === 'cancel_line' || !accepted ? null : body.date ?? request.date;
      return emit(VendorRequestAnswered, {
        id: request.id, po: request.po, line: request.line, kind: request.kind, decision: body.decision, date, note: body.note ?? '',
      }, 'vendor_request', request.id);
    },
    view: vendorRequestDetail,
  }),
  defineQuery({
    path: '/vendor-requests', tag, summary: 'Requests to vendors (expedite, defer, cancel_line) by PO, status or kind', permission: null,
    query: ListQuery({ po: Opt(IdInput), status: Opt(Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('refused')])), kind: Opt(Kind) }),
    run: ({ query }, ctx) => listPage<VendorRequestRow>(ctx.tables, 'vendor_requests', { po: query.po, status: query.status, kind: query.kind }, query),
  }),
  defineQuery({
    path: '/vendor-requests/{id}', tag, summary: "A request to a vendor and the vendor's answer", permission: null, objectType: 'vendor_request',
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => vendorRequestDetail(ctx.read, params.id!),
  }),
];
