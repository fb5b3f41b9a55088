import { addDays, daysBetween, isBusinessDay, isoWeekday } from '../../../domain/calendar';
import { shortages } from '../../../domain/manufacturing/availability';
import { plantCalendar } from '../../../domain/manufacturing/plant';
import { weekOf } from '../../../domain/mrp/planner';
import type { MrpSuggestionRow } from '../../../projections/mrp';
import { roundQty } from '../../../projections/quantities';
import type { HistoryDay, Routine } from './context';
import { isValve } from '../production-design';
import { poApprover } from './purchasing';

const PLANNER = 'owen.mercer';
const PRODUCTION = 'nina.patel';
const STOREKEEPER = 'luis.romero';
/** Weeks of forecast beyond the end of history: the planning horizon a task's MRP run sees. */
const FORECAST_WEEKS_AHEAD = 14;

/**
 * The sales plan as forecasts: on the first day of history the planner enters each valve's weekly
 * forecast (its monthly use spread over the weeks) from the first week to well past the end of
 * history, so every run, and the tasks' runs after history, have a horizon of demand.
 */
export const forecastDemand: Routine = (day) => {
  const valves = day.master.items.filter((i) => isValve(i.id));
  if (valves.length === 0 || day.read.mrp.forecasts(valves[0]!.id).length > 0) return;
  const first = weekOf(day.date);
  const last = addDays(weekOf(day.quietFrom), 7 * FORECAST_WEEKS_AHEAD);
  for (const v of valves) {
    const weeks = [];
    for (let w = first; w <= last; w = addDays(w, 7)) weeks.push({ week_start: w, qty: Math.round((v.monthlyUse * 12) / 52) });
    day.b.as(PLANNER, 'POST', '/forecasts', { item: v.id, weeks, source: 'Sales plan FY2026' });
  }
};

/** The first working day of the week: Monday, or Tuesday after a Monday holiday. */
function firstDayOfWeek(day: HistoryDay): boolean {
  if (!day.businessDay) return false;
  const weekday = isoWeekday(day.date);
  return weekday === 1 || (weekday === 2 && day.read.clock.isHoliday(addDays(day.date, -1)));
}

/** Business days of lateness (or earliness) the planner lets pass before asking a vendor to move a line. */
const RESCHEDULE_TOLERANCE_DAYS = 3;

/**
 * Action messages on PO lines are worked with the vendor once (no second request of a kind on a
 * line) and only beyond the planner's tolerance; on a planned work order by moving it.
 */
function workActionMessage(day: HistoryDay, s: MrpSuggestionRow): void {
  const gap = Math.abs(daysBetween(s.need_date, s.current_date ?? s.need_date));
  if (gap <= RESCHEDULE_TOLERANCE_DAYS) return;
  if (s.order_type === 'purchase_order' && s.order_id && s.order_line && (s.kind === 'expedite' || s.kind === 'defer')) {
    const asked = day.read.purchasing.vendorRequests(s.order_id).some((r) => r.line === s.order_line && r.kind === s.kind);
    const line = day.read.purchasing.poLine(s.order_id, s.order_line);
    if (asked || !line || line.status !== 'open' || s.need_date <= day.date) return;
    day.b.as(PLANNER, 'POST', `/purchase-orders/${s.order_id}/requests`, { kind: s.kind, line: s.order_line, date: s.need_date, note: `MRP ${s.id}` });
  } else if (s.order_type === 'work_order' && s.order_id && (s.kind === 'expedite' || s.kind === 'defer')) {
    const wo = day.read.manufacturing.workOrder(s.order_id);
    if (!wo || wo.status !== 'planned') return;
    const lead = day.read.items.item(wo.item)?.lead_time_days ?? 0;
    const start = addDays(s.need_date, -lead) < day.date ? day.date : addDays(s.need_date, -lead);
    day.b.as(PLANNER, 'POST', `/work-orders/${wo.id}/reschedule`, { start_date: start, due_date: s.need_date < start ? start : s.need_date, reason: s.kind === 'expedite' ? 'mrp_expedite' : 'mrp_defer' });
  }
}

/**
 * The planner's week (seed 000 catalog D1, as the oracle works it): MRP over eight weeks on the
 * first working day; every firm planned work order released into a work order; every firm planned
 * purchase order released, one purchase order per vendor, approved within the limits and sent;
 * expedite and defer messages worked with the vendor (or by moving a planned work order).
 */
export const planProduction: Routine = (day) => {
  if (!firstDayOfWeek(day) || day.date >= day.quietFrom) return;
  const run = day.b.as(PLANNER, 'POST', '/mrp/runs', { horizon_weeks: 8, firm_days: 5, defer_days: 15 });
  const open = day.read.mrp.suggestionsOf(run.id as string).filter((s) => s.status === 'open');
  for (const s of open.filter((x) => x.kind === 'planned_wo' && x.firm)) day.b.as(PLANNER, 'POST', `/mrp/suggestions/${s.id}/release`, {});
  const byVendor = new Map<string, string[]>();
  for (const s of open.filter((x) => x.kind === 'planned_po' && x.firm && x.vendor)) byVendor.set(s.vendor!, [...(byVendor.get(s.vendor!) ?? []), s.id]);
  for (const [, ids] of [...byVendor.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const po = day.b.as(PLANNER, 'POST', '/mrp/releases', { suggestions: ids });
    day.b.as(poApprover(PLANNER, Math.round((po.total as number) * 100)), 'POST', `/purchase-orders/${po.id}/approve`, {});
    day.b.as(PLANNER, 'POST', `/purchase-orders/${po.id}/send`, {});
  }
  for (const s of open.filter((x) => x.kind === 'expedite' || x.kind === 'defer')) workActionMessage(day, s);
};

/**
 * The shop floor, each working day of the plant calendar: a planned work order whose start has come
 * is released once its components are there and its components issued at once; an order whose due
 * date has come reports what is left, now and then a unit or two scrapped at the pressure test, and
 * is closed, posting its variances.
 */
export const runProduction: Routine = (day) => {
  if (!day.businessDay || !isBusinessDay(day.date, plantCalendar(day.read))) return;
  for (const wo of day.read.manufacturing.workOrdersWithStatus(['planned']).sort((a, b) => (a.start_date + a.id < b.start_date + b.id ? -1 : 1))) {
    if (wo.start_date > day.date) continue;
    if (shortages(day.read, wo, day.read.manufacturing.components(wo.id)).length > 0) continue;
    day.b.as(PRODUCTION, 'POST', `/work-orders/${wo.id}/release`, {});
    day.b.as(STOREKEEPER, 'POST', `/work-orders/${wo.id}/issues`, { units: wo.qty });
  }
  for (const wo of day.read.manufacturing.workOrdersWithStatus(['in_progress'])) {
    if (wo.due_date > day.date) continue;
    const open = roundQty(wo.qty - wo.qty_completed - wo.qty_scrapped);
    const scrap = open > 20 && day.rng.chance(0.3) ? Math.max(1, Math.round(open * 0.01)) : 0;
    day.b.as(PRODUCTION, 'POST', `/work-orders/${wo.id}/completions`, { qty: roundQty(open - scrap), ...(scrap ? { scrap_qty: scrap, scrap_reason: 'failed_pressure_test' } : {}) });
    day.b.as(PRODUCTION, 'POST', `/work-orders/${wo.id}/close`, {});
  }
};
