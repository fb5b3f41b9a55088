import type { MrpSuggestionRow } from '../../projections/mrp';
import { roundQty } from '../../projections/quantities';
import { IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

const brief = (s: MrpSuggestionRow) => ({
  suggestion: s.id, kind: s.kind, item: s.item, qty: s.qty, need_date: s.need_date, release_date: s.release_date, vendor: s.vendor,
  order_type: s.order_type, order_id: s.order_id, order_line: s.order_line, current_date: s.current_date, firm: s.firm, late: s.late, status: s.status, reason: s.reason,
});

/**
 * What a planner works through after a run (seed 000 catalog D1): planned orders that are late or
 * inside the firm fence and not yet released, action messages nobody has worked, items below safety
 * stock now, and work orders still planned past their start date.
 */
export const mrpExceptions = defineReport({
  id: 'mrp-exceptions',
  summary: "The planner's exceptions of an MRP run (default the latest): late and firm planned orders not released, action messages not worked, items below safety stock, work orders planned past their start",
  params: ReportParams({ run: Opt(IdInput) }),
  permission: null,
  run: (ctx, params) => {
    const run = params.run ? ctx.read.mrp.run(params.run) : ctx.read.mrp.latestRun();
    if (!run) return { run: null, late_planned_orders: [], firm_planned_orders: [], action_messages: [], below_safety_stock: [], overdue_work_orders: [] };
    const suggestions = ctx.read.mrp.suggestionsOf(run.id);
    const unreleased = suggestions.filter((s) => (s.kind === 'planned_po' || s.kind === 'planned_wo') && (s.status === 'open' || s.status === 'firmed'));
    const onHand = ctx.read.mrp.onHandByItem();
    const below = ctx.read.mrp.stockItems().filter((i) => i.safety_stock > 0 && (onHand.get(i.id) ?? 0) < i.safety_stock)
      .map((i) => ({ item: i.id, on_hand: onHand.get(i.id) ?? 0, safety_stock: i.safety_stock, short: roundQty(i.safety_stock - (onHand.get(i.id) ?? 0)) }));
    const overdue = ctx.read.manufacturing.workOrdersWithStatus(['planned']).filter((w) => w.start_date < ctx.today)
      .map((w) => ({ work_order: w.id, item: w.item, qty: w.qty, start_date: w.start_date, due_date: w.due_date }));
    return {
      run: { id: run.id, run_date: run.run_date, horizon_end: run.horizon_end, firm_fence: run.firm_fence },
      late_planned_orders: unreleased.filter((s) => s.late).map(brief),
      firm_planned_orders: unreleased.filter((s) => s.firm && !s.late).map(brief),
      action_messages: suggestions.filter((s) => s.status === 'open' && (s.kind === 'expedite' || s.kind === 'defer' || s.kind === 'cancel')).map(brief),
      below_safety_stock: below,
      overdue_work_orders: overdue,
    };
  },
});
