import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { Cents, DateString, Id, Nullable, Obj, PositiveCents, Text } from './common';
import { InventoryMovement } from './inventory';
import { Journal, ReasonCode } from './ledger';

const LineNo = Type.Integer({ minimum: 1, maximum: 10000 });
const Qty = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });
const NonNegativeQty = Type.Number({ minimum: 0, maximum: 1e9 });
const Hours = Type.Number({ minimum: 0, maximum: 1e6 });
const Movements = Type.Array(InventoryMovement, { maxItems: 2000 });

// Bills of materials: one per made item, its lines dated by effectivity (seed 000 environment §2).

export const BomLine = Obj({
  line: LineNo,
  component: Id,
  /** Units of the component per unit of the parent, before scrap. */
  qty_per: Qty,
  /** Component scrap: the share lost in making, in basis points (250 = 2.5%), added to what is required. */
  scrap_bp: Type.Integer({ minimum: 0, maximum: 50000 }),
  effective_from: DateString,
  /** The last day the line applies; null while it has no end. */
  effective_to: Nullable(DateString),
});
export type BomLine = Static<typeof BomLine>;

/**
 * A made item's bill of materials. A phantom BOM's parent is never stocked or ordered: work orders
 * and MRP blow through it to its components.
 */
export const BomDefined = defineEvent(
  'BomDefined',
  Obj({ item: Id, phantom: Type.Boolean(), description: Type.String({ maxLength: 400 }), lines: Type.Array(BomLine, { minItems: 1, maxItems: 500 }), note: Text }),
);

/**
 * An engineering change: lines ended the day before it takes effect and lines added from that day.
 * Pending until its effective date comes.
 */
export const EngineeringChangeRecorded = defineEvent(
  'EngineeringChangeRecorded',
  Obj({
    id: Id,
    item: Id,
    effective_date: DateString,
    reason: ReasonCode,
    /** Lines of the BOM that stop applying, and their last day (the day before the effective date). */
    ended_lines: Type.Array(LineNo, { maxItems: 500 }),
    ended_on: DateString,
    added_lines: Type.Array(BomLine, { maxItems: 500 }),
    note: Text,
  }),
);

// Work centers, the plant calendar and routings

export const WorkCenterDefined = defineEvent(
  'WorkCenterDefined',
  Obj({
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    /** Hours the work center can work on a working day of the plant calendar. */
    capacity_hours_per_day: Hours,
    /** Standard labour and overhead rate per hour, cents: what conversion is costed and applied at. */
    rate_per_hour: PositiveCents,
  }),
);

/** Days the plant, or one work center, does not work besides the company's weekends and holidays. */
export const PlantShutdownScheduled = defineEvent(
  'PlantShutdownScheduled',
  Obj({ id: Id, from: DateString, to: DateString, work_center: Nullable(Id), reason: ReasonCode, note: Text }),
);

/** Where production happens: the warehouse work orders issue from and complete into, and MRP plans for. */
export const PlantSettingsSet = defineEvent(
  'PlantSettingsSet',
  Obj({ warehouse: Id, completion_location: Nullable(Id) }),
);

export const RoutingOperation = Obj({
  seq: Type.Integer({ minimum: 1, maximum: 9999 }),
  work_center: Id,
  description: Type.String({ maxLength: 200 }),
  /** Hours per work order, whatever its quantity. */
  setup_hours: Hours,
  run_hours_per_unit: Hours,
});
export type RoutingOperation = Static<typeof RoutingOperation>;

/** A made item's operations in sequence, replaced as a whole. */
export const RoutingDefined = defineEvent(
  'RoutingDefined',
  Obj({ item: Id, operations: Type.Array(RoutingOperation, { minItems: 1, maxItems: 100 }), note: Text }),
);

// Work orders: planned → released → in_progress → completed → closed; planned or released → cancelled

/** One component a work order needs, from the BOM effective on its start date with phantoms blown through. */
export const WoComponent = Obj({
  item: Id,
  /** Per unit of the parent, scrap included. */
  qty_per: NonNegativeQty,
  required: NonNegativeQty,
  /** Standard cost per unit of the component, cents, for the standard material the order is allowed. */
  standard_cost: PositiveCents,
  /** The phantom the requirement came through, if any. */
  via_phantom: Nullable(Id),
});
export type WoComponent = Static<typeof WoComponent>;

export const WoOperation = Obj({
  ...RoutingOperation.properties,
  rate_per_hour: PositiveCents,
});
export type WoOperation = Static<typeof WoOperation>;

const WoPlan = {
  components: Type.Array(WoComponent, { maxItems: 500 }),
  operations: Type.Array(WoOperation, { maxItems: 100 }),
  /** The BOM date the components were taken from (the start date). */
  bom_date: DateString,
};

export const WorkOrderCreated = defineEvent(
  'WorkOrderCreated',
  Obj({
    id: Id,
    item: Id,
    qty: Qty,
    warehouse: Id,
    start_date: DateString,
    due_date: DateString,
    /** The MRP planned order it was released from, if any. */
    planned_order: Nullable(Id),
    ...WoPlan,
    note: Text,
  }),
);

/** Released: components were available; the requirements are taken again from the BOM effective on the start date. */
export const WorkOrderReleased = defineEvent('WorkOrderReleased', Obj({ id: Id, ...WoPlan, note: Text }));

export const WorkOrderRescheduled = defineEvent(
  'WorkOrderRescheduled',
  Obj({ id: Id, start_date: DateString, due_date: DateString, previous_start: DateString, previous_due: DateString, reason: ReasonCode, note: Text }),
);

export const WorkOrderCancelled = defineEvent('WorkOrderCancelled', Obj({ id: Id, reason: ReasonCode, note: Text }));

/** A change of the work-in-process balance of one work order, cents, signed (into WIP positive). */
export const WipMovement = Obj({
  work_order: Id,
  kind: Type.Union(['material', 'material_reversal', 'conversion', 'completion', 'scrap', 'variance'].map((k) => Type.Literal(k))),
  amount: Cents,
});
export type WipMovement = Static<typeof WipMovement>;

const WipMovements = Type.Array(WipMovement, { maxItems: 10 });

export const IssuedLine = Obj({
  line: LineNo,
  item: Id,
  qty: Qty,
  /** Cents taken out of inventory into WIP. */
  value: PositiveCents,
});

/** Components issued to a work order: Dr WIP, Cr inventory, at the cost of the stock picked. */
export const WorkOrderMaterialIssued = defineEvent(
  'WorkOrderMaterialIssued',
  Obj({
    id: Id,
    work_order: Id,
    date: DateString,
    lines: Type.Array(IssuedLine, { minItems: 1, maxItems: 500 }),
    note: Text,
    journal: Journal,
    inventory: Movements,
    wip: WipMovements,
  }),
);

/** A wrong issue reversed: the stock goes back where it came from at the value it left with. */
export const WorkOrderIssueReversed = defineEvent(
  'WorkOrderIssueReversed',
  Obj({
    id: Id,
    issue: Id,
    work_order: Id,
    date: DateString,
    lines: Type.Array(IssuedLine, { minItems: 1, maxItems: 500 }),
    reason: ReasonCode,
    note: Text,
    journal: Journal,
    inventory: Movements,
    wip: WipMovements,
  }),
);

/**
 * Good units received into stock at standard cost and scrapped units written off at standard cost,
 * with the labour and overhead of the units reported applied to WIP at the work centers' rates.
 */
export const WorkOrderCompleted = defineEvent(
  'WorkOrderCompleted',
  Obj({
    id: Id,
    work_order: Id,
    date: DateString,
    qty: NonNegativeQty,
    scrap_qty: NonNegativeQty,
    scrap_reason: Nullable(ReasonCode),
    warehouse: Id,
    location: Nullable(Id),
    lot: Nullable(Id),
    expiry: Nullable(DateString),
    /** Hours reported per operation (standard hours unless given) and the conversion they apply, cents. */
    hours: Type.Array(Obj({ seq: Type.Integer({ minimum: 1, maximum: 9999 }), hours: Hours }), { maxItems: 100 }),
    conversion_value: PositiveCents,
    completed_value: PositiveCents,
    scrap_value: PositiveCents,
    note: Text,
    journal: Journal,
    inventory: Movements,
    wip: WipMovements,
  }),
);

/**
 * Closing clears what is left in WIP for the order to variances: material (actual issues against
 * the standard material of the units reported) and labour and overhead (applied against standard).
 */
export const WorkOrderClosed = defineEvent(
  'WorkOrderClosed',
  Obj({
    id: Id,
    date: DateString,
    material_standard: Cents,
    material_actual: Cents,
    material_variance: Cents,
    conversion_standard: Cents,
    conversion_applied: Cents,
    conversion_variance: Cents,
    /** WIP left after the two variances: the standard cost of the item differing from the order's standard. */
    standard_difference: Cents,
    reason: Nullable(ReasonCode),
    note: Text,
    journal: Journal,
    wip: Type.Array(WipMovement, { maxItems: 10 }),
  }),
);
