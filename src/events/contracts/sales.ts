import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { BasisPoints, Cents, DateString, Id, Nullable, Obj, PositiveCents, Quantity, Text } from './common';
import { InventoryMovement } from './inventory';
import { Journal, ReasonCode } from './ledger';
import { FreightTerms } from './master';
import { LineNo } from './payables';

const Days = Type.Integer({ minimum: 0, maximum: 36500 });
const Count = Type.Number({ minimum: 0, maximum: 1e9 });

// Price lists, contract prices and rebate agreements (docs/sales.md, "Prices")

export const PriceListCreated = defineEvent(
  'PriceListCreated',
  Obj({ id: Id, name: Type.String({ minLength: 1, maxLength: 200 }), currency: Type.String({ pattern: '^[A-Z]{3}$' }), note: Text }),
);

/** One price of a list: from `min_qty` units, in effect from `valid_from` (to `valid_to`, inclusive). */
export const PriceListPriceSet = defineEvent(
  'PriceListPriceSet',
  Obj({ price_list: Id, item: Id, min_qty: Count, unit_price: PositiveCents, valid_from: DateString, valid_to: Nullable(DateString), note: Text }),
);

/** A price agreed with one customer for one item, for its validity dates: it wins over any price list. */
export const ContractPriceSet = defineEvent(
  'ContractPriceSet',
  Obj({ id: Id, customer: Id, item: Id, unit_price: PositiveCents, valid_from: DateString, valid_to: Nullable(DateString), reference: Type.String({ maxLength: 200 }), note: Text }),
);

export const RebateTier = Obj({ min_amount: PositiveCents, rebate_bp: Type.Integer({ minimum: 0, maximum: 10000 }) });
export type RebateTier = Static<typeof RebateTier>;

/**
 * A volume rebate: once the customer's net sales in the agreement's dates reach a tier, the tier's
 * rate applies retroactively to all of them (the credit memo that pays it names the agreement).
 */
export const RebateAgreementCreated = defineEvent(
  'RebateAgreementCreated',
  Obj({
    id: Id, customer: Id, valid_from: DateString, valid_to: DateString, tiers: Type.Array(RebateTier, { minItems: 1, maxItems: 20 }),
    reference: Type.String({ maxLength: 200 }), note: Text,
  }),
);

/** Where a line's price came from: a contract price, a price list, or nowhere (no price was granted). */
export const PriceSource = Obj({ type: Type.Union([Type.Literal('contract'), Type.Literal('price_list'), Type.Literal('none')]), id: Nullable(Id) });
export type PriceSource = Static<typeof PriceSource>;

const PricedLine = {
  line: LineNo,
  item: Id,
  description: Type.String({ maxLength: 400 }),
  unit: Type.String({ maxLength: 20 }),
  qty: Quantity,
  /** The price on the document, in cents per unit. */
  unit_price: PositiveCents,
  /** The price the customer's contract or price list grants on the document's date; null when none does. */
  granted_price: Nullable(PositiveCents),
  price_source: PriceSource,
  amount: Cents,
};

// Quotes: open → converted (to a sales order) | cancelled; expired once past valid_until

export const QuoteLine = Obj(PricedLine);
export const QuoteCreated = defineEvent(
  'QuoteCreated',
  Obj({
    id: Id, customer: Id, ship_to: Id, quote_date: DateString, valid_until: DateString, lines: Type.Array(QuoteLine, { minItems: 1, maxItems: 200 }),
    total: Cents, source_message: Nullable(Id), note: Text,
  }),
);
export const QuoteCancelled = defineEvent('QuoteCancelled', Obj({ id: Id, reason: ReasonCode, note: Text }));

// Sales orders: entered → released → (allocated, partially shipped, shipped, invoiced); on hold; cancelled

export const SALES_HOLD_REASONS = ['credit', 'pricing', 'other'] as const;
export const SalesHoldReason = Type.Union(SALES_HOLD_REASONS.map((r) => Type.Literal(r)));
export type SalesHoldReason = (typeof SALES_HOLD_REASONS)[number];

/** A hold as placed: by the system at entry (credit check, a price other than the one granted) or by a user. */
export const PlacedHold = Obj({ hold: Id, reason: SalesHoldReason, note: Text });

/**
 * The credit check at entry (seed 000 C1): the customer's open AR plus its open orders plus this
 * order against its credit limit; a customer on credit hold fails it whatever the amounts.
 */
export const CreditCheck = Obj({
  credit_limit: PositiveCents,
  open_ar: Cents,
  open_orders: Cents,
  order_total: Cents,
  exposure: Cents,
  customer_on_hold: Type.Boolean(),
  result: Type.Union([Type.Literal('ok'), Type.Literal('over_limit'), Type.Literal('customer_on_hold')]),
});
export type CreditCheck = Static<typeof CreditCheck>;

export const SalesOrderLine = Obj({ ...PricedLine, requested_date: DateString });
export type SalesOrderLine = Static<typeof SalesOrderLine>;

export const SalesOrderEntered = defineEvent(
  'SalesOrderEntered',
  Obj({
    id: Id, customer: Id, ship_to: Id, ship_to_region: Type.String({ maxLength: 80 }), customer_po: Type.String({ maxLength: 80 }),
    source_message: Nullable(Id), quote: Nullable(Id), order_date: DateString, requested_date: DateString, freight_terms: FreightTerms,
    tax_code: Nullable(Id), tax_rate_bp: BasisPoints, lines: Type.Array(SalesOrderLine, { minItems: 1, maxItems: 200 }), total: Cents,
    credit_check: CreditCheck, holds: Type.Array(PlacedHold, { maxItems: 2 }), note: Text,
  }),
);

/** A line's quantity or price changed before anything shipped on it; the old values travel with the new. */
export const SalesOrderLineRevised = defineEvent(
  'SalesOrderLineRevised',
  Obj({
    id: Id, line: LineNo, previous: Obj({ qty: Quantity, unit_price: PositiveCents }), qty: Quantity, unit_price: PositiveCents,
    granted_price: Nullable(PositiveCents), price_source: PriceSource, holds: Type.Array(PlacedHold, { maxItems: 1 }), note: Text,
  }),
);

export const SalesOrderReleased = defineEvent('SalesOrderReleased', Obj({ id: Id, note: Text }));
export const SalesOrderHoldPlaced = defineEvent('SalesOrderHoldPlaced', Obj({ hold: Id, sales_order: Id, reason: SalesHoldReason, note: Text }));
export const SalesOrderHoldReleased = defineEvent('SalesOrderHoldReleased', Obj({ hold: Id, sales_order: Id, reason: SalesHoldReason, note: Text }));

/** Stock reserved for a line in one warehouse (no stock moves); what could not be reserved is backordered. */
export const AllocationLine = Obj({ line: LineNo, item: Id, warehouse: Id, qty: Quantity });
export type AllocationLine = Static<typeof AllocationLine>;

export const SalesOrderAllocated = defineEvent(
  'SalesOrderAllocated',
  Obj({ id: Id, allocations: Type.Array(AllocationLine, { maxItems: 400 }), backordered: Type.Array(Obj({ line: LineNo, qty: Quantity }), { maxItems: 200 }), note: Text }),
);
export const SalesOrderDeallocated = defineEvent(
  'SalesOrderDeallocated',
  Obj({ id: Id, allocations: Type.Array(AllocationLine, { minItems: 1, maxItems: 400 }), reason: ReasonCode, note: Text }),
);

/** What is left of a line is cancelled (a backorder the customer no longer wants); its allocations are freed. */
export const SalesOrderLineCancelled = defineEvent(
  'SalesOrderLineCancelled',
  Obj({ id: Id, line: LineNo, qty: Quantity, deallocated: Type.Array(AllocationLine, { maxItems: 10 }), reason: ReasonCode, note: Text }),
);
export const SalesOrderCancelled = defineEvent(
  'SalesOrderCancelled',
  Obj({ id: Id, deallocated: Type.Array(AllocationLine, { maxItems: 400 }), reason: ReasonCode, note: Text }),
);

// Shipments: posted (Dr COGS, Cr inventory at the cost of what was picked) → invoiced

export const ShipmentLine = Obj({
  line: LineNo,
  so_line: LineNo,
  item: Id,
  qty: Quantity,
  lot: Nullable(Id),
  location: Nullable(Id),
  expiry: Nullable(DateString),
  /** Cents per unit at inventory cost, for information; `value` is what posts. */
  unit_cost: PositiveCents,
  value: Cents,
});
export type ShipmentLine = Static<typeof ShipmentLine>;

export const ShipmentPosted = defineEvent(
  'ShipmentPosted',
  Obj({
    id: Id, sales_order: Id, customer: Id, warehouse: Id, ship_date: DateString, carrier: Type.String({ maxLength: 80 }), tracking: Type.String({ maxLength: 80 }),
    /** What the carrier charges for it, billed to the customer under prepay-and-add terms. */
    freight_charge: PositiveCents,
    lines: Type.Array(ShipmentLine, { minItems: 1, maxItems: 400 }), note: Text, journal: Journal, inventory: Type.Array(InventoryMovement, { minItems: 1, maxItems: 400 }),
  }),
);

// Returns (RMAs): requested → approved | refused; approved → received → inspected → credited

export const RmaLine = Obj({
  line: LineNo, invoice_line: LineNo, item: Id, qty: Quantity, unit_price: PositiveCents, ship_date: DateString,
  /** Days from shipment to the request: what the handbook's return window is judged on. */
  days_since_shipment: Days,
});
export type RmaLine = Static<typeof RmaLine>;

export const RmaRequested = defineEvent(
  'RmaRequested',
  Obj({
    id: Id, customer: Id, invoice: Id, sales_order: Nullable(Id), reason: ReasonCode, requested_date: DateString, source_message: Nullable(Id),
    lines: Type.Array(RmaLine, { minItems: 1, maxItems: 100 }), note: Text,
  }),
);
export const RmaApproved = defineEvent('RmaApproved', Obj({ id: Id, note: Text }));
export const RmaRefused = defineEvent('RmaRefused', Obj({ id: Id, reason: ReasonCode, note: Text }));

/** The returned goods arrived and wait for inspection: nothing is in stock or posted yet. */
export const RmaReceived = defineEvent(
  'RmaReceived',
  Obj({ id: Id, warehouse: Id, date: DateString, lines: Type.Array(Obj({ line: LineNo, qty: Quantity }), { minItems: 1, maxItems: 100 }), note: Text }),
);

export const InspectionLine = Obj({ line: LineNo, accepted_qty: Quantity, rejected_qty: Quantity, result: ReasonCode, unit_cost: PositiveCents, value: Cents });

/**
 * Inspection results: accepted units go back into stock at the cost they shipped at (Dr inventory,
 * Cr COGS); rejected units go back to the customer and post nothing.
 */
export const RmaInspected = defineEvent(
  'RmaInspected',
  Obj({
    id: Id, warehouse: Id, location: Nullable(Id), lines: Type.Array(InspectionLine, { minItems: 1, maxItems: 100 }), note: Text,
    journal: Type.Optional(Journal), inventory: Type.Optional(Type.Array(InventoryMovement, { maxItems: 100 })),
  }),
);
