import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Quantity, Text } from './common';
import { AccountCode, Journal, ReasonCode } from './ledger';

export const InventoryTransactionType = Type.Union(
  ['receipt', 'receipt_reversal', 'issue', 'adjustment', 'transfer_out', 'transfer_in', 'wo_issue', 'wo_issue_reversal', 'wo_completion', 'shipment', 'customer_return'].map((t) => Type.Literal(t)),
);

/** Movement types that use stock (item usage): issues to cost centers and to work orders, and shipments to customers, net of reversals and returns. */
export const CONSUMPTION_TYPES = ['issue', 'wo_issue', 'wo_issue_reversal', 'shipment', 'customer_return'] as const;

/**
 * One movement of stock, carried by any event as `inventory: InventoryMovement[]` (like `journal`):
 * the inventory read model folds them into inventory_transactions, whose sum is on-hand and whose
 * value is the inventory subledger. Quantity and value are signed (in positive, out negative); the
 * value is exactly what the event's journal posts to the inventory account for it.
 */
export const InventoryMovement = Obj({
  type: InventoryTransactionType,
  date: DateString,
  item: Id,
  warehouse: Id,
  location: Nullable(Id),
  lot: Nullable(Id),
  expiry: Nullable(DateString),
  qty: Quantity,
  /** Cents per unit, for information; `value` is what counts. */
  unit_cost: PositiveCents,
  value: Cents,
  document_type: Id,
  document_id: Id,
  document_line: Nullable(Type.Integer({ minimum: 1 })),
});
export type InventoryMovement = Static<typeof InventoryMovement>;

const Movements = Type.Array(InventoryMovement, { minItems: 1, maxItems: 500 });

export const IssueDestination = Obj({
  type: Type.Union([Type.Literal('production'), Type.Literal('cost_center')]),
  /** A work order, a cost center or department code: what the stock went to. */
  ref: Type.String({ minLength: 1, maxLength: 80 }),
});

/** Stock issued to production or a cost center: Dr the issue account, Cr inventory, at cost. */
export const InventoryIssued = defineEvent(
  'InventoryIssued',
  Obj({
    id: Id,
    date: DateString,
    item: Id,
    warehouse: Id,
    qty: Quantity,
    account: AccountCode,
    department: Nullable(Id),
    destination: IssueDestination,
    note: Text,
    journal: Journal,
    inventory: Movements,
  }),
);

/** A counted difference or write-off: inventory against the adjustment account. */
export const InventoryAdjusted = defineEvent(
  'InventoryAdjusted',
  Obj({
    id: Id,
    date: DateString,
    item: Id,
    warehouse: Id,
    qty: Quantity,
    account: AccountCode,
    reason: ReasonCode,
    note: Text,
    journal: Journal,
    inventory: Movements,
  }),
);

/** Stock moved between locations or warehouses: value moves with it, so there is no journal. */
export const InventoryTransferred = defineEvent(
  'InventoryTransferred',
  Obj({
    id: Id,
    date: DateString,
    item: Id,
    from_warehouse: Id,
    to_warehouse: Id,
    to_location: Nullable(Id),
    qty: Quantity,
    reason: Nullable(ReasonCode),
    note: Text,
    inventory: Movements,
  }),
);
