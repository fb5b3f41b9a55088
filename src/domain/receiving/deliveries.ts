import { Type } from '@sinclair/typebox';
import { DeliveryAnnounced } from '../../events/contracts/receiving';
import type { Queries } from '../../projections';
import type { DeliveryRow } from '../../projections/receiving';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { emit, isRefusal, refuse } from '../decision';
import { Body, DateInput, IdInput, ListQuery, NoteInput, Opt } from '../schemas';
import { LineNoInput } from '../purchasing/inputs';
import { DELIVERY_ANNOUNCE } from './permissions';
import { receivablePo } from './po-state';

const tag = 'receiving';
const objectType = 'delivery';

export function deliveryView(read: Queries, id: string) {
  const d = read.receiving.delivery(id);
  if (!d) return undefined;
  return {
    ...d,
    lines: read.receiving.deliveryLines(id),
    links: [
      { rel: 'purchase_order', type: 'purchase_order', id: d.po },
      { rel: 'vendor', type: 'vendor', id: d.vendor },
      ...(d.receipt ? [{ rel: 'receipt', type: 'receipt', id: d.receipt }] : []),
    ],
  };
}

export const deliveryRoutes: RouteDef[] = [
  defineAction({
    action: 'delivery.announce', method: 'POST', path: '/deliveries', tag, status: 201, objectType,
    summary: 'The vendor announces a shipment against a sent PO: per line the quantity, lot, expiry, and the item when it ships a substitute',
    body: Body({
      po: IdInput,
      ship_date: Opt(DateInput),
      expected_date: Opt(DateInput),
      lines: Type.Array(Body({
        po_line: LineNoInput,
        qty: Type.Number({ exclusiveMinimum: 0, maximum: 1e9 }),
        item: Opt(IdInput),
        lot: Opt(IdInput),
        expiry: Opt(DateInput),
      }), { minItems: 1, maxItems: 500 }),
      note: Opt(NoteInput),
    }),
    permission: DELIVERY_ANNOUNCE, emits: [DeliveryAnnounced],
    decide: ({ body }, ctx) => {
      const po = receivablePo(ctx, body.po);
      if (isRefusal(po)) return po;
      const lines = [];
      for (const [i, l] of body.lines.entries()) {
        const poLine = ctx.read.purchasing.poLine(po.id, l.po_line);
        if (!poLine) return refuse('not_found', `${po.id} has no line ${l.po_line}.`);
        const item = l.item ?? poLine.item;
        if (item && !ctx.read.items.item(item)) return refuse('not_found', `Line ${i + 1}: no item ${item}.`);
        const substitute = item !== null && poLine.item !== null && item !== poLine.item;
        lines.push({ line: i + 1, po_line: l.po_line, item, substitute_for: substitute ? poLine.item : null, qty: l.qty, lot: l.lot ?? null, expiry: l.expiry ?? null });
      }
      const ship_date = body.ship_date ?? ctx.today;
      const expected_date = body.expected_date ?? ship_date;
      if (expected_date < ship_date) return refuse('invalid_request', 'A delivery cannot arrive before it ships.', 422);
      const id = ctx.nextId('DLV');
      return emit(DeliveryAnnounced, { id, po: po.id, vendor: po.vendor, warehouse: po.ship_to, ship_date, expected_date, lines, note: body.note ?? '' }, objectType, id);
    },
    view: deliveryView,
  }),
  defineQuery({
    path: '/deliveries', tag, summary: 'Deliveries announced by vendors, by PO, status or expected date', permission: null,
    query: ListQuery({ po: Opt(IdInput), status: Opt(Type.Union([Type.Literal('announced'), Type.Literal('received')])), expected_date: Opt(DateInput), warehouse: Opt(IdInput) }),
    run: ({ query }, ctx) => listPage<DeliveryRow>(ctx.tables, 'deliveries', { po: query.po, status: query.status, expected_date: query.expected_date, warehouse: query.warehouse }, query),
  }),
  defineQuery({
    path: '/deliveries/{id}', tag, summary: 'A delivery with its lines (item, quantity, lot, expiry, substitutions) and the receipt that took it in', permission: null, objectType,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => deliveryView(ctx.read, params.id!),
  }),
];
