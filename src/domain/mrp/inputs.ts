import type { Queries } from '../../projections';
import type { BomLineRow } from '../../projections/manufacturing';
import { roundQty } from '../../projections/quantities';
import { addBusinessDays, addDays, isBusinessDay, nextBusinessDay, type WorkCalendar } from '../calendar';
import { explode, lowLevelCodes, type BomSource } from '../manufacturing/explosion';
import { plantCalendar } from '../manufacturing/plant';
import type { Demand, PlanInput, PlanItem, Supply } from './planner';
import { weekOf } from './planner';

/**
 * Independent demand from another area (open sales order lines, later): dated quantities per item
 * between two dates. Customer orders consume the forecast of their week.
 */
export type DemandSource = (read: Queries, from: string, to: string) => Demand[];

const sources: { name: string; source: DemandSource; consumesForecast: boolean }[] = [];

/** Called once by the area that owns a kind of independent demand (sales registers its open order lines). */
export function registerDemandSource(name: string, source: DemandSource, options: { consumesForecast: boolean } = { consumesForecast: true }): void {
  if (sources.some((s) => s.name === name)) throw new Error(`A demand source ${name} is already registered.`);
  sources.push({ name, source, consumesForecast: options.consumesForecast });
}

export interface RunParams {
  horizon_weeks: number;
  firm_days: number;
  defer_days: number;
}

/** Every BOM in memory for one run: explosions of many planned orders read nothing more. */
function bomSource(read: Queries): { src: BomSource; lines: BomLineRow[]; phantoms: Set<string>; parents: Set<string> } {
  const boms = new Map(read.manufacturing.boms().map((b) => [b.item, { phantom: b.phantom }]));
  const byItem = new Map<string, BomLineRow[]>();
  const lines = read.manufacturing.allBomLines();
  for (const l of lines) {
    const list = byItem.get(l.item) ?? [];
    if (list.length === 0) byItem.set(l.item, list);
    list.push(l);
  }
  const src: BomSource = {
    bom: (item) => boms.get(item),
    linesOn: (item, date) => (byItem.get(item) ?? []).filter((l) => l.effective_from <= date && (l.effective_to === null || date <= l.effective_to)),
  };
  const phantoms = new Set([...boms].filter(([, b]) => b.phantom).map(([i]) => i));
  return { src, lines, phantoms, parents: new Set([...boms.keys()].filter((i) => !phantoms.has(i))) };
}

/** The first working day of a forecast week on or after today: when its demand is due. */
function forecastDate(weekStart: string, today: string, cal: WorkCalendar): string {
  let d = isBusinessDay(weekStart, cal) ? weekStart : nextBusinessDay(weekStart, cal);
  if (d < today) d = today;
  return d;
}

/**
 * What an MRP run plans from, read from the read models: the items it plans (made items, what
 * their BOMs use within the horizon, and whatever has independent or work-order demand), on hand,
 * gross requirements (the forecast less the customer orders of its week, other demand sources, the
 * unissued components of open work orders, firmed planned work orders' components) and scheduled
 * receipts (open PO lines, open work orders, firmed planned orders).
 */
export function planInput(read: Queries, today: string, params: RunParams, nextId: () => string): Omit<PlanInput, 'nextId'> & { nextId: () => string } {
  const cal = plantCalendar(read);
  const horizonEnd = addDays(today, params.horizon_weeks * 7 - 1);
  const firmFence = addBusinessDays(today, params.firm_days, cal);
  const boms = bomSource(read);
  const stock = new Map(read.mrp.stockItems().map((i) => [i.id, i]));

  const demand: Demand[] = [];
  const ordered = new Map<string, number>();
  for (const s of sources) {
    for (const d of s.source(read, today, horizonEnd)) {
      demand.push(d);
      if (s.consumesForecast) ordered.set(`${d.item} ${weekOf(d.date)}`, (ordered.get(`${d.item} ${weekOf(d.date)}`) ?? 0) + d.qty);
    }
  }
  for (const f of read.mrp.forecastsBetween(weekOf(today), horizonEnd)) {
    const qty = roundQty(f.qty - (ordered.get(`${f.item} ${f.week_start}`) ?? 0));
    if (qty > 0) demand.push({ item: f.item, date: forecastDate(f.week_start, today, cal), qty, source: `forecast week of ${f.week_start}` });
  }
  for (const c of read.mrp.openWorkOrderComponents()) {
    if (c.remaining > 0) demand.push({ item: c.item, date: c.start_date, qty: roundQty(c.remaining), source: `${c.work_order} (${c.parent})` });
  }

  const supply: Supply[] = [];
  for (const l of read.mrp.openPoLines()) {
    supply.push({ item: l.item, date: l.date, qty: l.open_qty, order_type: 'purchase_order', order_id: l.po, order_line: l.line, messages: l.po_status === 'sent' || l.po_status === 'partially_received' });
  }
  for (const wo of read.manufacturing.workOrdersWithStatus(['planned', 'released', 'in_progress'])) {
    supply.push({ item: wo.item, date: wo.due_date, qty: roundQty(wo.qty - wo.qty_completed - wo.qty_scrapped), order_type: 'work_order', order_id: wo.id, order_line: null, messages: true });
  }
  for (const f of read.mrp.firmed()) {
    supply.push({ item: f.item, date: f.need_date, qty: f.qty, order_type: 'planned_order', order_id: f.id, order_line: null, messages: false });
    if (f.kind !== 'planned_wo') continue;
    const start = f.release_date! < today ? today : f.release_date!;
    for (const c of explode(boms.src, f.item, start)) demand.push({ item: c.item, date: start, qty: roundQty(c.qty_per * f.qty), source: `firmed planned order ${f.id} (${f.item})` });
  }

  // Planned: made items, every component a BOM line uses within the horizon (through phantoms), and anything with demand.
  const planned = new Set<string>(boms.parents);
  for (const l of boms.lines) {
    const inHorizon = l.effective_from <= horizonEnd && (l.effective_to === null || l.effective_to >= today);
    if (inHorizon && !boms.phantoms.has(l.component)) planned.add(l.component);
  }
  for (const d of demand) planned.add(d.item);
  const items = new Map<string, PlanItem>();
  for (const id of [...planned].sort()) {
    const row = stock.get(id);
    if (!row || boms.phantoms.has(id)) continue;
    items.set(id, { id, made: boms.parents.has(id), lead_time_days: row.lead_time_days, moq: row.moq, order_multiple: row.order_multiple, safety_stock: row.safety_stock, preferred_vendor: row.preferred_vendor });
  }
  return {
    today, horizonEnd, firmFence, deferDays: params.defer_days, calendar: cal, items,
    lowLevel: lowLevelCodes(boms.lines.map((l) => ({ item: l.item, component: l.component }))),
    onHand: read.mrp.onHandByItem(), demand, supply,
    explode: (item, date) => explode(boms.src, item, date),
    nextId,
  };
}
