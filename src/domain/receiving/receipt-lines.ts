import { Type, type Static } from '@sinclair/typebox';
import type { InventoryMovement } from '../../events/contracts/inventory';
import type { Journal } from '../../events/contracts/ledger';
import type { ReceiptPosted } from '../../events/contracts/receiving';
import type { EventData } from '../../events/event-types';
import type { Queries } from '../../projections';
import type { PurchaseOrderRow } from '../../projections/purchasing-orders';
import { refuse, type Refusal } from '../decision';
import { JournalBuilder } from '../ledger/journal';
import { roundCents } from '../money';
import { poLineDepartment } from '../purchasing/po-lines';
import { LineNoInput } from '../purchasing/inputs';
import { Body, DateInput, IdInput, Opt, ReasonInput } from '../schemas';
import { GRNI_ACCOUNT } from './permissions';

export type ReceiptLine = EventData<typeof ReceiptPosted>['lines'][number];

const Qty = Type.Number({ minimum: 0, maximum: 1e9 });

export const ReceiptLineInput = Body({
  po_line: LineNoInput,
  item: Opt(Type.String({ minLength: 1, maxLength: 80, description: "The item received, when it is not the PO line's: a substitution" })),
  qty_received: Qty,
  qty_refused: Opt(Qty),
  refusal_reason: Opt(ReasonInput),
  lot: Opt(IdInput),
  expiry: Opt(DateInput),
  location: Opt(IdInput),
});

/**
 * Request lines as receipt lines valued at PO price. A different item from the PO line's is a
 * substitution, recorded with `substitute_for`; whether it was an approved substitute, and whether
 * the quantity is over the order, are soft controls the grader judges. Lot and expiry are required
 * for lot-controlled items.
 */
export function parseReceiptLines(read: Queries, po: PurchaseOrderRow, warehouse: string, input: readonly Static<typeof ReceiptLineInput>[]): ReceiptLine[] | Refusal {
  const lines: ReceiptLine[] = [];
  const defaultLocation = read.items.locations(warehouse)[0]?.code ?? null;
  for (const [i, l] of input.entries()) {
    const n = i + 1;
    const poLine = read.purchasing.poLine(po.id, l.po_line);
    if (!poLine) return refuse('not_found', `Line ${n}: ${po.id} has no line ${l.po_line}.`);
    if (l.item && poLine.item === null) return refuse('invalid_request', `Line ${n}: PO line ${poLine.line} is a free-text line; receive it without an item.`, 422);
    const itemId = l.item ?? poLine.item;
    const item = itemId ? read.items.item(itemId) : undefined;
    if (itemId && !item) return refuse('not_found', `Line ${n}: no item ${itemId}.`);
    const refused = l.qty_refused ?? 0;
    if (l.qty_received === 0 && refused === 0) return refuse('invalid_request', `Line ${n} receives nothing and refuses nothing.`, 422);
    if (refused > 0 && !l.refusal_reason) return refuse('invalid_request', `Line ${n} refuses ${refused}; give the refusal_reason.`, 422);
    if (item?.lot_controlled && l.qty_received > 0 && (!l.lot || !l.expiry)) {
      return refuse('invalid_request', `Line ${n}: ${item.id} is lot-controlled; give its lot and expiry.`, 422);
    }
    if (l.location && !read.items.location(warehouse, l.location)) return refuse('not_found', `Line ${n}: warehouse ${warehouse} has no location ${l.location}.`);
    const stock = item?.type === 'stock';
    const account = stock ? item!.inventory_account! : poLine.account;
    lines.push({
      line: n, po_line: poLine.line, item: item?.id ?? null, substitute_for: item && poLine.item && item.id !== poLine.item ? poLine.item : null,
      description: item && item.id !== poLine.item ? item.description : poLine.description,
      qty_received: l.qty_received, qty_refused: refused, refusal_reason: refused > 0 ? l.refusal_reason! : null,
      lot: l.lot ?? null, expiry: l.expiry ?? null, location: stock ? l.location ?? defaultLocation : l.location ?? null,
      unit_price: poLine.unit_price, amount: roundCents(l.qty_received * poLine.unit_price), account, stock,
    });
  }
  return lines;
}

/** Dr inventory (stock) or the line's expense account for its department, Cr GRNI for the vendor and PO. */
export function receiptJournal(read: Queries, receipt: { id: string; date: string }, po: PurchaseOrderRow, lines: readonly ReceiptLine[]): Journal | Refusal {
  const builder = new JournalBuilder(receipt.date, `Receipt ${receipt.id} against ${po.id}`);
  for (const l of lines) {
    const poLine = read.purchasing.poLine(po.id, l.po_line);
    const department = l.stock || !poLine ? null : poLineDepartment(read, po, poLine);
    builder.debit(l.account, l.amount, { document_id: receipt.id, department });
  }
  return builder.balanceTo(GRNI_ACCOUNT, { party_type: 'vendor', party_id: po.vendor, document_id: po.id }).build(read);
}

/** One stock movement per stock line received; `sign` −1 takes them back on reversal. */
export function receiptMovements(receipt: { id: string; date: string; warehouse: string }, lines: readonly ReceiptLine[], sign: 1 | -1): InventoryMovement[] {
  return lines.filter((l) => l.stock && l.qty_received > 0).map((l) => ({
    type: sign === 1 ? 'receipt' : 'receipt_reversal', date: receipt.date, item: l.item!, warehouse: receipt.warehouse, location: l.location, lot: l.lot,
    expiry: l.expiry, qty: sign * l.qty_received, unit_cost: l.unit_price, value: sign * l.amount, document_type: 'receipt', document_id: receipt.id,
    document_line: l.line,
  }));
}
