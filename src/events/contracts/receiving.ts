import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Text } from './common';
import { InventoryMovement } from './inventory';
import { AccountCode, Journal, ReasonCode } from './ledger';
import { VendorId } from './master';

const LineNo = Type.Integer({ minimum: 1, maximum: 10000 });
const Qty = Type.Number({ minimum: 0, maximum: 1e9 });

export const DeliveryLine = Obj({
  line: LineNo,
  po_line: LineNo,
  /** The item shipped; a different item from the PO line's is a substitution. */
  item: Nullable(Id),
  substitute_for: Nullable(Id),
  qty: Qty,
  lot: Nullable(Id),
  expiry: Nullable(DateString),
});

/** A vendor says a shipment against a sent PO is on its way and when it arrives. */
export const DeliveryAnnounced = defineEvent(
  'DeliveryAnnounced',
  Obj({
    id: Id,
    po: Id,
    vendor: VendorId,
    warehouse: Id,
    ship_date: DateString,
    expected_date: DateString,
    lines: Type.Array(DeliveryLine, { minItems: 1, maxItems: 500 }),
    note: Text,
  }),
);

export const ReceiptLine = Obj({
  line: LineNo,
  po_line: LineNo,
  /** The item received: the PO line's, or a substitute for it (then `substitute_for` names the PO line's item). */
  item: Nullable(Id),
  substitute_for: Nullable(Id),
  description: Type.String({ maxLength: 400 }),
  qty_received: Qty,
  qty_refused: Qty,
  refusal_reason: Nullable(ReasonCode),
  lot: Nullable(Id),
  expiry: Nullable(DateString),
  location: Nullable(Id),
  /** The PO line's unit price in cents: receipts are valued at PO price. */
  unit_price: PositiveCents,
  /** qty_received × unit_price, rounded: what the journal posts for this line. */
  amount: Cents,
  /** The account debited: the item's inventory account for stock, else the PO line's expense account. */
  account: AccountCode,
  stock: Type.Boolean(),
});

/** Goods or services received against a sent PO: Dr inventory or expense, Cr GRNI, at PO price. */
export const ReceiptPosted = defineEvent(
  'ReceiptPosted',
  Obj({
    id: Id,
    po: Id,
    vendor: VendorId,
    warehouse: Id,
    date: DateString,
    delivery: Nullable(Id),
    packing_slip: Type.String({ maxLength: 200 }),
    lines: Type.Array(ReceiptLine, { minItems: 1, maxItems: 500 }),
    total: Cents,
    note: Text,
    journal: Journal,
    inventory: Type.Array(InventoryMovement, { maxItems: 500 }),
  }),
);

/** The reversal of a whole receipt, on its date, with a reason; it repeats the lines it takes back. */
export const ReceiptReversed = defineEvent(
  'ReceiptReversed',
  Obj({
    id: Id,
    po: Id,
    date: DateString,
    reason: ReasonCode,
    note: Text,
    lines: Type.Array(Obj({ line: LineNo, po_line: LineNo, qty_received: Qty, amount: Cents }), { minItems: 1, maxItems: 500 }),
    total: Cents,
    journal: Journal,
    inventory: Type.Array(InventoryMovement, { maxItems: 500 }),
  }),
);
