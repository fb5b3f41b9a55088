import type { WorkCalendar } from '../../src/domain/calendar';
import { lotSize, planRequirements, weekOf, type Demand, type PlanItem, type Supply } from '../../src/domain/mrp/planner';

const weekdays: WorkCalendar = { workdays: [1, 2, 3, 4, 5], isHoliday: () => false };

function plan(items: Partial<PlanItem>[], demand: Demand[], supply: Supply[] = [], onHand: Record<string, number> = {}, explode: Record<string, { item: string; qty_per: number }[]> = {}) {
  let n = 0;
  const full = items.map((i) => ({ id: 'X', made: false, lead_time_days: 0, moq: 0, order_multiple: 1, safety_stock: 0, preferred_vendor: 'V-1', ...i } as PlanItem));
  return planRequirements({
    today: '2026-10-05', horizonEnd: '2026-11-01', firmFence: '2026-10-12', deferDays: 10, calendar: weekdays,
    items: new Map(full.map((i) => [i.id, i])), lowLevel: new Map(full.map((i, k) => [i.id, k])), onHand: new Map(Object.entries(onHand)), demand, supply,
    explode: (item) => (explode[item] ?? []).map((r) => ({ ...r, via_phantom: null })), nextId: () => `S-${++n}`,
  }).map((s) => [s.kind, s.item, s.qty, s.need_date, s.release_date, s.firm, s.late]);
}

const d = (item: string, date: string, qty: number, source = 'forecast'): Demand => ({ item, date, qty, source });
const po = (item: string, date: string, qty: number, id = 'PO-1', messages = true): Supply => ({ item, date, qty, order_type: 'purchase_order', order_id: id, order_line: 1, messages });

describe('lot sizing', () => {
  it('orders at least the MOQ, rounded up to the order multiple, and nothing for no need', () => {
    expect([lotSize(12, { moq: 100, order_multiple: 100 }), lotSize(101, { moq: 100, order_multiple: 100 }), lotSize(7, { moq: 0, order_multiple: 5 }), lotSize(2.25, { moq: 0, order_multiple: 1 }), lotSize(0, { moq: 50, order_multiple: 1 })])
      .toEqual([100, 200, 10, 3, 0]);
  });

  it('weeks start on Monday', () => {
    expect([weekOf('2026-10-05'), weekOf('2026-10-11'), weekOf('2026-10-12')]).toEqual(['2026-10-05', '2026-10-05', '2026-10-12']);
  });
});

describe('planning one item', () => {
  it('nets a week\'s shortages into one planned order, due on the first, sized on the week\'s whole need (4 + 9 → 20; the 7 over covers 7 of next week\'s 8)', () => {
    expect(plan([{ id: 'A', moq: 0, order_multiple: 10 }], [d('A', '2026-10-13', 4), d('A', '2026-10-15', 9), d('A', '2026-10-20', 8)])).toEqual([
      ['planned_po', 'A', 20, '2026-10-13', '2026-10-13', false, false],
      ['planned_po', 'A', 10, '2026-10-20', '2026-10-20', false, false],
    ]);
  });

  it('restores safety stock today, late when the lead time has passed', () => {
    expect(plan([{ id: 'A', safety_stock: 10, lead_time_days: 7 }], [], [], { A: 4 })).toEqual([['planned_po', 'A', 6, '2026-10-05', '2026-09-28', true, true]]);
  });

  it('moves demand and receipts dated in the past to today, and leaves what falls after the horizon alone', () => {
    expect(plan([{ id: 'A' }], [d('A', '2026-09-20', 5), d('A', '2026-11-09', 50)], [po('A', '2026-12-01', 10)])).toEqual([['planned_po', 'A', 5, '2026-10-05', '2026-10-05', true, false]]);
  });

  it('gives no message on a receipt it may not reschedule (a draft PO, a firmed planned order)', () => {
    expect(plan([{ id: 'A' }], [d('A', '2026-10-06', 5), d('A', '2026-10-20', 1)], [po('A', '2026-10-09', 5, 'PO-1', false), po('A', '2026-10-26', 9, 'PO-2', false)])).toEqual([]);
  });

  it('plans a made item\'s components from its planned orders at their release, one level down', () => {
    expect(plan([{ id: 'A', made: true, lead_time_days: 2 }, { id: 'B', lead_time_days: 1 }], [d('A', '2026-10-14', 3)], [], {}, { A: [{ item: 'B', qty_per: 2 }] })).toEqual([
      ['planned_wo', 'A', 3, '2026-10-14', '2026-10-12', true, false],
      ['planned_po', 'B', 6, '2026-10-12', '2026-10-09', true, false],
    ]);
  });
});
