import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../event-types';
import { DateString, Id, Nullable, Obj, Text } from './common';

const Qty = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });

/** A week's forecast of an item's independent demand; weeks start on Monday. */
export const ForecastWeek = Obj({ week_start: DateString, qty: Type.Number({ minimum: 0, maximum: 1e9 }) });

/** Forecasts for the weeks named, replacing what those weeks had. */
export const ForecastSet = defineEvent(
  'ForecastSet',
  Obj({ item: Id, weeks: Type.Array(ForecastWeek, { minItems: 1, maxItems: 260 }), source: Type.String({ maxLength: 200 }), note: Text }),
);

export const SuggestionKind = Type.Union(['planned_po', 'planned_wo', 'expedite', 'defer', 'cancel'].map((k) => Type.Literal(k)));

/**
 * One line of an MRP run's output: a planned order (planned_po, planned_wo) to cover a shortage, or
 * an action message (expedite, defer, cancel) on an existing order whose date no longer fits.
 */
export const MrpSuggestion = Obj({
  id: Id,
  kind: SuggestionKind,
  item: Id,
  qty: Qty,
  /** When the quantity is needed: a planned order's due date, or the date an existing order should move to. */
  need_date: DateString,
  /** A planned order's release date: its need date less the item's lead time, on a business day. */
  release_date: Nullable(DateString),
  /** A planned purchase order's vendor (the item's preferred vendor). */
  vendor: Nullable(Id),
  /** The existing order an action message is about. */
  order_type: Nullable(Type.Union([Type.Literal('purchase_order'), Type.Literal('work_order')])),
  order_id: Nullable(Id),
  order_line: Nullable(Type.Integer({ minimum: 1, maximum: 10000 })),
  /** The date that order is due now (confirmed date, else need-by; a work order's due date). */
  current_date: Nullable(DateString),
  /** A planned order releasing inside the firm fence. */
  firm: Type.Boolean(),
  /** A planned order whose release date has already passed. */
  late: Type.Boolean(),
  /** What the quantity is for: the demand that first fell short (pegging), in words. */
  reason: Type.String({ maxLength: 400 }),
});
export type MrpSuggestion = Static<typeof MrpSuggestion>;

/** An MRP run and everything it suggested; earlier open suggestions are superseded by it. */
export const MrpRunCompleted = defineEvent(
  'MrpRunCompleted',
  Obj({
    id: Id,
    run_date: DateString,
    horizon_weeks: Type.Integer({ minimum: 1, maximum: 52 }),
    horizon_end: DateString,
    firm_days: Type.Integer({ minimum: 0, maximum: 260 }),
    firm_fence: DateString,
    defer_days: Type.Integer({ minimum: 0, maximum: 260 }),
    items_planned: Type.Integer({ minimum: 0, maximum: 1e6 }),
    suggestions: Type.Array(MrpSuggestion, { maxItems: 20000 }),
  }),
);

/** A planner fixes a planned order's quantity and date: later runs keep it as supply and never supersede it. */
export const PlannedOrderFirmed = defineEvent(
  'PlannedOrderFirmed',
  Obj({ suggestion: Id, item: Id, qty: Qty, need_date: DateString, release_date: DateString, note: Text }),
);
