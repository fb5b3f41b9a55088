import type { MrpSuggestion } from '../../events/contracts/mrp';
import { roundQty } from '../../projections/quantities';
import { addDays, isBusinessDay, isoWeekday, nextBusinessDay, previousBusinessDay, type WorkCalendar } from '../calendar';
import type { Requirement } from '../manufacturing/explosion';

/** An item MRP plans, with the planning data of its item record. */
export interface PlanItem {
  id: string;
  /** Made (it has a BOM): shortages become planned work orders; else planned purchase orders. */
  made: boolean;
  lead_time_days: number;
  moq: number;
  order_multiple: number;
  safety_stock: number;
  preferred_vendor: string | null;
}

/** A gross requirement: independent demand (forecast, sales) or dependent demand (a work order's components). */
export interface Demand {
  item: string;
  date: string;
  qty: number;
  /** What it is, in words: pegging. */
  source: string;
}

/** A scheduled receipt: an open PO line, an open work order, a firmed planned order. */
export interface Supply {
  item: string;
  date: string;
  qty: number;
  order_type: 'purchase_order' | 'work_order' | 'planned_order';
  order_id: string;
  order_line: number | null;
  /** Whether action messages may be given on it (sent POs and work orders; not drafts or firmed planned orders). */
  messages: boolean;
}

export interface PlanInput {
  today: string;
  horizonEnd: string;
  firmFence: string;
  /** Business days a receipt may come before it is needed before a defer message is given. */
  deferDays: number;
  calendar: WorkCalendar;
  items: ReadonlyMap<string, PlanItem>;
  lowLevel: ReadonlyMap<string, number>;
  onHand: ReadonlyMap<string, number>;
  demand: readonly Demand[];
  supply: readonly Supply[];
  /** Components per unit of a made item on a date (phantoms blown through). */
  explode(item: string, date: string): readonly Requirement[];
  nextId(): string;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The Monday of a date's week: planned orders are one per item and week. */
export function weekOf(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

/** Business days after `from` up to and including `to` (0 when `to` is not after `from`). */
function businessDaysBetween(from: string, to: string, cal: WorkCalendar): number {
  let n = 0;
  for (let d = nextBusinessDay(from, cal); d <= to && n < 10_000; d = nextBusinessDay(d, cal)) n += 1;
  return n;
}

/** The order quantity for a need: at least the MOQ, rounded up to the order multiple. */
export function lotSize(need: number, item: Pick<PlanItem, 'moq' | 'order_multiple'>): number {
  if (need <= 0) return 0;
  let qty = Math.max(need, item.moq);
  if (item.order_multiple > 0) qty = Math.ceil(roundQty(qty / item.order_multiple) - 1e-9) * item.order_multiple;
  return roundQty(qty);
}

interface Planned {
  week: string;
  suggestion: MrpSuggestion;
}

/**
 * Material requirements planning over one horizon (docs/mrp.md). Items are planned one low-level
 * code at a time, so a component sees every parent's planned orders before it is netted. For each
 * item, day by day: the day's gross requirements come off the projected balance (on hand first);
 * while it is below safety stock the earliest scheduled receipt is pegged to it, with an expedite
 * message when that receipt comes after the day and a defer message when it comes more than
 * `deferDays` business days before; what is still short becomes a planned order due that day (one
 * per item and week: a later shortage in the week enlarges it, lot-sized again), released the item's lead time earlier.
 * Receipts nothing needs within the horizon get a cancel message. Everything iterated is sorted, so
 * the same state gives the same suggestions.
 */
export function planRequirements(input: PlanInput): MrpSuggestion[] {
  const { today, horizonEnd, calendar: cal } = input;
  const out: MrpSuggestion[] = [];
  const demand = new Map<string, Demand[]>();
  const add = (d: Demand) => {
    if (d.qty <= 0 || d.date > horizonEnd || !input.items.has(d.item)) return;
    const list = demand.get(d.item) ?? [];
    if (list.length === 0) demand.set(d.item, list);
    list.push({ ...d, date: d.date < today ? today : d.date });
  };
  input.demand.forEach(add);
  const supply = new Map<string, Supply[]>();
  for (const s of input.supply) {
    if (s.qty <= 0 || s.date > horizonEnd || !input.items.has(s.item)) continue;
    const list = supply.get(s.item) ?? [];
    if (list.length === 0) supply.set(s.item, list);
    list.push({ ...s, date: s.date < today ? today : s.date });
  }
  const level = (id: string) => input.lowLevel.get(id) ?? 0;
  const order = [...input.items.keys()].sort((a, b) => level(a) - level(b) || byText(a, b));

  const suggest = (s: Omit<MrpSuggestion, 'id'>): MrpSuggestion => {
    const row = { id: input.nextId(), ...s };
    out.push(row);
    return row;
  };
  const message = (kind: 'expedite' | 'defer' | 'cancel', r: Supply, needDate: string, reason: string) => suggest({
    kind, item: r.item, qty: r.qty, need_date: needDate, release_date: null, vendor: null, order_type: r.order_type === 'planned_order' ? null : r.order_type,
    order_id: r.order_id, order_line: r.order_line, current_date: r.date, firm: false, late: false, reason,
  });

  for (const id of order) {
    const item = input.items.get(id)!;
    const reqs = (demand.get(id) ?? []).sort((a, b) => byText(a.date, b.date) || byText(a.source, b.source));
    const receipts = (supply.get(id) ?? []).sort((a, b) => byText(a.date, b.date) || byText(a.order_id, b.order_id) || (a.order_line ?? 0) - (b.order_line ?? 0));
    const dates = [...new Set([today, ...reqs.map((r) => r.date)])].sort(byText);
    const planned: Planned[] = [];
    let balance = roundQty(input.onHand.get(id) ?? 0);
    let next = 0;
    for (const day of dates) {
      const todays: Demand[] = [];
      while (next < reqs.length && reqs[next]!.date === day) todays.push(reqs[next++]!);
      balance = roundQty(balance - todays.reduce((s, r) => s + r.qty, 0));
      const reason = todays[0]?.source ?? `safety stock ${item.safety_stock}`;
      while (balance < item.safety_stock && receipts.length > 0) {
        const r = receipts.shift()!;
        balance = roundQty(balance + r.qty);
        if (!r.messages) continue;
        if (r.date > day) message('expedite', r, day, reason);
        else if (businessDaysBetween(r.date, day, cal) > input.deferDays) message('defer', r, day, reason);
      }
      if (balance >= item.safety_stock) continue;
      const need = roundQty(item.safety_stock - balance);
      const week = weekOf(day);
      const existing = planned.find((p) => p.week === week);
      if (existing) {
        // The week's order already covers what it was sized for and its excess went to later days: it grows by what is still short.
        const qty = lotSize(roundQty(existing.suggestion.qty + need), item);
        balance = roundQty(balance + qty - existing.suggestion.qty);
        existing.suggestion.qty = qty;
        continue;
      }
      const qty = lotSize(need, item);
      let release = addDays(day, -item.lead_time_days);
      if (!isBusinessDay(release, cal)) release = previousBusinessDay(release, cal);
      const suggestion = suggest({
        kind: item.made ? 'planned_wo' : 'planned_po', item: id, qty, need_date: day, release_date: release, vendor: item.made ? null : item.preferred_vendor,
        order_type: null, order_id: null, order_line: null, current_date: null, firm: release <= input.firmFence, late: release < today, reason,
      });
      planned.push({ week, suggestion });
      balance = roundQty(balance + qty);
    }
    for (const r of receipts) if (r.messages) message('cancel', r, r.date, `not needed by ${horizonEnd}`);
    if (!item.made) continue;
    for (const p of planned) {
      const start = p.suggestion.release_date! < today ? today : p.suggestion.release_date!;
      for (const c of input.explode(id, start)) add({ item: c.item, date: start, qty: roundQty(c.qty_per * p.suggestion.qty), source: `planned order ${p.suggestion.id} (${id})` });
    }
  }
  return out;
}
