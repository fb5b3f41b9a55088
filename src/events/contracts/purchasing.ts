import { Type } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Text } from './common';
import { AccountCode, ReasonCode } from './ledger';
import { VendorId } from './master';

const LineNo = Type.Integer({ minimum: 1, maximum: 10000 });
const OrderQty = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });
const Unit = Type.String({ minLength: 1, maxLength: 20 });
const Description = Type.String({ minLength: 1, maxLength: 400 });

// Requisitions: draft → submitted → approved | returned | rejected → converted | cancelled

export const RequisitionLine = Obj({
  line: LineNo,
  item: Nullable(Id),
  description: Description,
  qty: OrderQty,
  unit: Unit,
  /** Estimated unit price, cents. */
  unit_price: PositiveCents,
  amount: Cents,
  /** The expense account the spend is budgeted on. */
  account: AccountCode,
  suggested_vendor: Nullable(VendorId),
});

const RequisitionHeader = {
  /** Free text, stored as given. */
  purpose: Type.String({ maxLength: 4000 }),
  need_by: DateString,
  lines: Type.Array(RequisitionLine, { minItems: 1, maxItems: 500 }),
  total: Cents,
};

export const RequisitionCreated = defineEvent('RequisitionCreated', Obj({ id: Id, requester: Id, department: Id, ...RequisitionHeader }));

/** Purpose, need-by date and lines replaced as a whole while the requisition is a draft or returned. */
export const RequisitionRevised = defineEvent('RequisitionRevised', Obj({ id: Id, ...RequisitionHeader }));

/** Submitted: an approval request opens, assigned to the department's manager. */
export const RequisitionSubmitted = defineEvent(
  'RequisitionSubmitted',
  Obj({ id: Id, approval_request: Id, assigned_to: Id, amount: Cents, note: Text }),
);

export const RequisitionApproved = defineEvent('RequisitionApproved', Obj({ id: Id, approval_request: Id, amount: Cents, note: Text }));
export const RequisitionRejected = defineEvent('RequisitionRejected', Obj({ id: Id, approval_request: Id, reason: ReasonCode, note: Text }));
export const RequisitionReturned = defineEvent('RequisitionReturned', Obj({ id: Id, approval_request: Id, reason: ReasonCode, note: Text }));

/** The current approval request is closed as routed and a new one opens, assigned to `to`. */
export const RequisitionRouted = defineEvent(
  'RequisitionRouted',
  Obj({ id: Id, approval_request: Id, new_request: Id, to: Id, reason: ReasonCode, note: Text }),
);

export const RequisitionCancelled = defineEvent(
  'RequisitionCancelled',
  Obj({ id: Id, approval_request: Nullable(Id), reason: ReasonCode, note: Text }),
);

// Purchase orders: draft → approved → sent → partially_received → received → closed, or cancelled

export const RequisitionLineRef = Obj({ requisition: Id, line: LineNo });

export const PoLine = Obj({
  line: LineNo,
  item: Nullable(Id),
  description: Description,
  qty: OrderQty,
  unit: Unit,
  unit_price: PositiveCents,
  amount: Cents,
  need_by: DateString,
  /** What a receipt debits: the item's inventory account for stock, else the expense account. */
  account: AccountCode,
  /** The approved requisition lines this line converts (several when consolidated). */
  requisition_lines: Type.Array(RequisitionLineRef, { maxItems: 200 }),
});

export const PurchaseOrderCreated = defineEvent(
  'PurchaseOrderCreated',
  Obj({
    id: Id,
    vendor: VendorId,
    buyer: Id,
    ship_to: Id,
    /** The department a direct order's spend belongs to; lines from requisitions carry their own. */
    department: Nullable(Id),
    lines: Type.Array(PoLine, { minItems: 1, maxItems: 500 }),
    total: Cents,
    note: Text,
    /** MRP planned purchase orders the lines release (docs/mrp.md). */
    planned_orders: Type.Optional(Type.Array(Obj({ line: LineNo, suggestion: Id }), { maxItems: 500 })),
  }),
);

/** Ship-to and lines replaced as a whole while the PO is a draft. */
export const PurchaseOrderRevised = defineEvent(
  'PurchaseOrderRevised',
  Obj({ id: Id, ship_to: Id, lines: Type.Array(PoLine, { minItems: 1, maxItems: 500 }), total: Cents, note: Text }),
);

export const PurchaseOrderApproved = defineEvent('PurchaseOrderApproved', Obj({ id: Id, amount: Cents, note: Text }));
export const PurchaseOrderSent = defineEvent('PurchaseOrderSent', Obj({ id: Id, vendor: VendorId, note: Text }));
export const PurchaseOrderCancelled = defineEvent('PurchaseOrderCancelled', Obj({ id: Id, reason: ReasonCode, note: Text }));
export const PurchaseOrderClosed = defineEvent('PurchaseOrderClosed', Obj({ id: Id, reason: ReasonCode, note: Text }));

/** Nothing more is expected on the line: its open quantity is given up. */
export const PurchaseOrderLineShortClosed = defineEvent(
  'PurchaseOrderLineShortClosed',
  Obj({ id: Id, line: LineNo, open_qty: Type.Number({ minimum: 0, maximum: 1e9 }), reason: ReasonCode, note: Text }),
);

export const AcknowledgedLine = Obj({ line: LineNo, confirmed_date: DateString, confirmed_qty: Type.Number({ minimum: 0, maximum: 1e9 }) });
export const PriceNotice = Obj({ line: LineNo, unit_price: PositiveCents, note: Text });

/** The vendor confirms a sent PO: a date per line and any notice of a different price. */
export const PurchaseOrderAcknowledged = defineEvent(
  'PurchaseOrderAcknowledged',
  Obj({
    id: Id,
    po: Id,
    lines: Type.Array(AcknowledgedLine, { minItems: 1, maxItems: 500 }),
    price_notices: Type.Array(PriceNotice, { maxItems: 500 }),
    note: Text,
  }),
);

export const VendorRequestKind = Type.Union([Type.Literal('expedite'), Type.Literal('defer'), Type.Literal('cancel_line')]);

/** A buyer asks the vendor to move a line's date or cancel it. */
export const VendorRequestRaised = defineEvent(
  'VendorRequestRaised',
  Obj({ id: Id, po: Id, line: LineNo, kind: VendorRequestKind, date: Nullable(DateString), note: Text }),
);

/** The vendor's answer: an accepted expedite or defer moves the line's confirmed date; an accepted cancel_line cancels the line. */
export const VendorRequestAnswered = defineEvent(
  'VendorRequestAnswered',
  Obj({
    id: Id,
    po: Id,
    line: LineNo,
    kind: VendorRequestKind,
    decision: Type.Union([Type.Literal('accepted'), Type.Literal('refused')]),
    date: Nullable(DateString),
    note: Text,
  }),
);
