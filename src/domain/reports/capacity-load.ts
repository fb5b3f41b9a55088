import { roundQty } from '../../projections/quantities';
import { addDays, isBusinessDay } from '../calendar';
import { isRefusal } from '../decision';
import { dayRange, plantCalendar } from '../manufacturing/plant';
import { standardHours } from '../manufacturing/standards';
import { DateInput, IdInput, Opt } from '../schemas';
import { defineReport, ReportParams } from './registry';

/**
 * Load against capacity per work center and day (seed 000 catalog D4): each open work order's
 * remaining standard hours per operation (setup until its first report, then run hours for the
 * units not yet reported), spread evenly over the work center's working days from the order's
 * start to its due date (an order already due loads its first working day from today), beside the
 * hours the plant calendar gives the work center.
 */
export const capacityLoad = defineReport({
  id: 'capacity-load',
  summary: 'Work-center load of open work orders against capacity per working day of the plant calendar (default the next four weeks), with overloaded days',
  params: ReportParams({ from: Opt(DateInput), to: Opt(DateInput), work_center: Opt(IdInput) }),
  permission: null,
  run: (ctx, params) => {
    const range = dayRange(ctx.today, params);
    if (isRefusal(range)) return range;
    const { from, to } = range;
    const centers = ctx.read.manufacturing.workCenters().filter((w) => !params.work_center || w.id === params.work_center);
    const load = new Map<string, number>();
    const orders = new Map<string, Set<string>>();
    for (const wo of ctx.read.manufacturing.workOrdersWithStatus(['planned', 'released', 'in_progress'])) {
      const units = roundQty(Math.max(0, wo.qty - wo.qty_completed - wo.qty_scrapped));
      const reported = ctx.read.manufacturing.completionsOf(wo.id).length > 0;
      for (const op of ctx.read.manufacturing.operations(wo.id)) {
        if (!centers.some((c) => c.id === op.work_center)) continue;
        const hours = standardHours(op, units, !reported);
        if (hours <= 0) continue;
        const cal = plantCalendar(ctx.read, op.work_center);
        const first = wo.start_date < ctx.today ? ctx.today : wo.start_date;
        const last = wo.due_date < first ? first : wo.due_date;
        const days: string[] = [];
        for (let d = first; d <= last && days.length < 400; d = addDays(d, 1)) if (isBusinessDay(d, cal)) days.push(d);
        if (days.length === 0) {
          let d = addDays(last, 1);
          for (let i = 0; i < 366 && !isBusinessDay(d, cal); i++) d = addDays(d, 1);
          days.push(d);
        }
        for (const d of days) {
          const key = `${op.work_center} ${d}`;
          load.set(key, (load.get(key) ?? 0) + hours / days.length);
          orders.set(key, (orders.get(key) ?? new Set()).add(wo.id));
        }
      }
    }
    const rows = [];
    for (const wc of centers) {
      const cal = plantCalendar(ctx.read, wc.id);
      for (let d = from; d <= to; d = addDays(d, 1)) {
        const capacity = isBusinessDay(d, cal) ? wc.capacity_hours_per_day : 0;
        const hours = roundQty(Math.round((load.get(`${wc.id} ${d}`) ?? 0) * 100) / 100);
        if (capacity === 0 && hours === 0) continue;
        rows.push({ work_center: wc.id, date: d, capacity_hours: capacity, load_hours: hours, overloaded: hours > capacity, work_orders: [...(orders.get(`${wc.id} ${d}`) ?? [])].sort() });
      }
    }
    return { from, to, rows, overloaded_days: rows.filter((r) => r.overloaded).length };
  },
});
