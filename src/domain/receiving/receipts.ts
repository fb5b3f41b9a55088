import { Type } from '@sinclair/typebox';
import { ReceiptPosted, ReceiptReversed } from '../../events/contracts/receiving';
import type { Queries } from '../../projections';
import type { ReceiptLineRow, ReceiptRow } from '../../projections/receiving';
import { defineAction, defineQuery, listPage, type RouteDef } from '../action';
import { withDecimals } from '../decimal-view';
import { emit, isRefusal, refuse } from '../decision';
import { assertPeriodOpen, reverseJournal } from '../ledger/journal';
import { VendorIdInput } from '../master/inputs';
import { roundQty } from '../../projections/quantities';
import { Body, DateInput, IdInput, ListQuery, NoteInput, Opt, ReasonInput } from '../schemas';
import { RECEIPT_POST } from './permissions';
import { receivablePo } from './po-state';
import { parseReceiptLines, receiptJournal, receiptMovements, ReceiptLineInput } from './receipt-lines';

const tag = 'receiving';
const objectType = 'receipt';

export function receiptView(read: Queries, id: string) {
  const r = read.receiving.receipt(id);
  if (!r) return undefined;
  return {
    ...withDecimals(r as ReceiptRow, ['total']),
    lines: read.receiving.receiptLines(id).map((l) => withDecimals(l as ReceiptLineRow, ['unit_price', 'amount'])),
    inventory_transactions: read.inventory.transactionsOf(id).map((t) => ({ ...t, unit_cost: t.unit_cost / 100, value: t.value / 100 })),
    links: [
      { rel: 'purchase_order', type: 'purchase_order', id: r.po },
      { rel: 'vendor', type: 'vendor', id: r.vendor },
      ...(r.delivery ? [{ rel: 'delivery', type: 'delivery', id: r.delivery }] : []),
      { rel: 'posting', type: 'event', id: String(r.posted_event) },
      ...(r.reversal_event ? [{ rel: 'reversal', type: 'event', id: String(r.reversal_event) }] : []),
    ],
  };
}

export const receiptRoutes: RouteDef[] = [
  defineAction({
    action: 'receipt.post', method: 'POST', path: '/receipts', tag, status: 201, objectType,
    summary: 'Post a receipt against a sent PO: per line the quantity received (and refused, with a reason), lot, expiry, location, and the item when a substitute came',
    body: Body({
      po: IdInput,
      delivery: Opt(IdInput),
      date: Opt(DateInput),
      warehouse: Opt(IdInput),
      packing_slip: Opt(Type.String({ maxLength: 200 })),
      lines: Type.Array(ReceiptLineInput, { minItems: 1, maxItems: 500 }),
      note: Opt(NoteInput),
    }),
    permission: RECEIPT_POST, emits: [ReceiptPosted],
    decide: ({ body }, ctx) => {
      const po = receivablePo(ctx, body.po);
      if (isRefusal(po)) return po;
      const date = body.date ?? ctx.today;
      if (date > ctx.today) return refuse('invalid_request', `A receipt cannot be dated after today (${ctx.today}).`, 422);
      const closed = assertPeriodOpen(ctx, date);
      if (closed) return closed;
      const warehouse = body.warehouse ?? po.ship_to;
      if (!ctx.read.items.warehouse(warehouse)) return refuse('not_found', `No warehouse ${warehouse}.`);
      if (body.delivery) {
        const delivery = ctx.read.receiving.delivery(body.delivery);
        if (!delivery) return refuse('not_found', `No delivery ${body.delivery}.`);
        if (delivery.po !== po.id) return refuse('invalid_request', `${delivery.id} is a delivery against ${delivery.po}, not ${po.id}.`, 422);
        if (delivery.status !== 'announced') return refuse('invalid_state', `${delivery.id} was already received on ${delivery.receipt}.`);
      }
      const lines = parseReceiptLines(ctx.read, po, warehouse, body.lines);
      if (isRefusal(lines)) return lines;
      const id = ctx.nextId('RCV');
      const journal = receiptJournal(ctx.read, { id, date }, po, lines);
      if (isRefusal(journal)) return journal;
      return emit(ReceiptPosted, {
        id, po: po.id, vendor: po.vendor, warehouse, date, delivery: body.delivery ?? null, packing_slip: body.packing_slip ?? '', lines,
        total: lines.reduce((s, l) => s + l.amount, 0), note: body.note ?? '', journal, inventory: receiptMovements({ id, date, warehouse }, lines, 1),
      }, objectType, id);
    },
    view: receiptView,
  }),
  defineAction({
    action: 'receipt.reverse', method: 'POST', path: '/receipts/{id}/reverse', tag, objectType,
    summary: 'Reverse a posted receipt with a reason: its postings and stock are taken back on the date given (default today)',
    body: Body({ reason: ReasonInput, date: Opt(DateInput), note: Opt(NoteInput) }),
    permission: RECEIPT_POST, emits: [ReceiptReversed],
    decide: ({ params, body }, ctx) => {
      const receipt = ctx.read.receiving.receipt(params.id!);
      if (!receipt) return refuse('not_found', `No receipt ${params.id}.`);
      if (receipt.status !== 'posted') return refuse('invalid_state', `${receipt.id} is already reversed.`);
      const date = body.date ?? ctx.today;
      if (date < receipt.date) return refuse('invalid_request', `A reversal cannot be dated before the receipt it reverses (${receipt.date}).`, 422);
      if (date > ctx.today) return refuse('invalid_request', `A reversal cannot be dated after today (${ctx.today}).`, 422);
      const closed = assertPeriodOpen(ctx, date);
      if (closed) return closed;
      const lines = ctx.read.receiving.receiptLines(receipt.id);
      const short = stockShortfall(ctx.read, receipt, lines);
      if (short) return refuse('invalid_state', `${receipt.id}: only ${short.onHand} of ${short.item} lot ${short.lot ?? '-'} is still at ${receipt.warehouse}/${short.location ?? '-'}; the rest was issued or moved.`);
      // What invoices have already matched cannot be un-received: GRNI would go negative.
      for (const l of lines) {
        const left = ctx.read.receiving.receivedQty(receipt.po, l.po_line) - l.qty_received;
        const matched = ctx.read.payables.grniMatched(receipt.po, l.po_line).qty;
        if (left < matched) return refuse('invalid_state', `${receipt.id}: ${matched} of ${receipt.po} line ${l.po_line} is already matched by invoices; reverse or credit the invoice first.`);
      }
      const po = ctx.read.purchasing.po(receipt.po)!;
      const posted = receiptJournal(ctx.read, receipt, po, lines);
      if (isRefusal(posted)) return posted;
      return emit(ReceiptReversed, {
        id: receipt.id, po: receipt.po, date, reason: body.reason, note: body.note ?? '',
        lines: lines.map((l) => ({ line: l.line, po_line: l.po_line, qty_received: l.qty_received, amount: l.amount })), total: receipt.total,
        journal: reverseJournal(posted, date, `Reversal of receipt ${receipt.id}: ${body.reason}`),
        inventory: receiptMovements({ id: receipt.id, date, warehouse: receipt.warehouse }, lines, -1),
      }, objectType, receipt.id);
    },
    view: receiptView,
  }),
  defineQuery({
    path: '/receipts', tag, summary: 'List receipts by PO, vendor, warehouse, status or date', permission: null,
    query: ListQuery({ po: Opt(IdInput), vendor: Opt(VendorIdInput), warehouse: Opt(IdInput), status: Opt(Type.Union([Type.Literal('posted'), Type.Literal('reversed')])), date: Opt(DateInput) }),
    run: ({ query }, ctx) => listPage(ctx.tables, 'receipts', { po: query.po, vendor: query.vendor, warehouse: query.warehouse, status: query.status, date: query.date }, query, {
      map: (r) => withDecimals(r as unknown as ReceiptRow, ['total']),
    }),
  }),
  defineQuery({
    path: '/receipts/{id}', tag, summary: 'A receipt with its lines (received, refused, lot, expiry, substitutions), stock movements, status history and links', permission: null, objectType,
    query: Type.Object({}, { additionalProperties: false }),
    run: ({ params }, ctx) => receiptView(ctx.read, params.id!),
  }),
];

/** The first place a reversal would take more stock from than is still there. */
function stockShortfall(read: Queries, receipt: ReceiptRow, lines: readonly ReceiptLineRow[]) {
  const needed = new Map<string, { item: string; location: string | null; lot: string | null; qty: number }>();
  for (const l of lines) {
    if (!l.stock || l.qty_received === 0) continue;
    const key = JSON.stringify([l.item, l.location, l.lot]);
    const entry = needed.get(key) ?? { item: l.item!, location: l.location, lot: l.lot, qty: 0 };
    entry.qty += l.qty_received;
    needed.set(key, entry);
  }
  for (const [, n] of [...needed.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const onHand = roundQty(read.inventory.stock({ item: n.item, warehouse: receipt.warehouse, location: n.location, lot: n.lot }).reduce((s, r) => s + r.qty, 0));
    if (onHand < roundQty(n.qty)) return { ...n, onHand };
  }
  return undefined;
}
