import type { Rng } from '../random';
import type { ItemSpec } from './catalog';

/** A bill of materials line: component, quantity per unit, component scrap in percent, effectivity. */
export interface BomLineSpec {
  component: string;
  qty: number;
  scrapPct?: number;
}

export interface BomSpec {
  item: string;
  phantom?: boolean;
  lines: BomLineSpec[];
}

/** An engineering change recorded with the master data: components removed and added from a date. */
export interface ChangeSpec {
  item: string;
  effective: string;
  reason: string;
  remove: string[];
  add: BomLineSpec[];
  note: string;
}

export interface WorkCenterSpec {
  id: string;
  name: string;
  hoursPerDay: number;
  /** Standard labour and overhead, cents per hour. */
  rate: number;
}

export interface RoutingSpec {
  item: string;
  /** [work center, setup hours per order, run hours per unit]. */
  operations: [string, number, number][];
}

export interface ProductionDesign {
  boms: BomSpec[];
  changes: ChangeSpec[];
  workCenters: WorkCenterSpec[];
  routings: RoutingSpec[];
  /** Days the plant does not work besides the company holidays: [from, to, reason]. */
  shutdowns: [string, string, string][];
  /** Items MRP plans: what is made and what goes into it. The reorder-point routine leaves them alone. */
  mrpPlanned: Set<string>;
  /** Items sold as they are bought (fittings): they leave through sales. */
  resale: Set<string>;
}

const SIZES = ['050', '075', '100', '150'] as const;

/** The sixteen finished valves: ball, gate, check and globe, four sizes each. */
export const isValve = (id: string) => /^(BV|GV|CV|GLV)-/.test(id);
const small = (sz: string) => sz === '050' || sz === '075';
const box = (sz: string) => (sz === '150' ? 'BOX-L' : sz === '100' ? 'BOX-M' : 'BOX-S');
const packaging: BomLineSpec[] = [{ component: 'PALLET-48', qty: 0.02 }, { component: 'WRAP-18', qty: 0.01 }];

/** The planning horizon's view of the history start: BV-075 moves to a larger carton from March. */
const CARTON_CHANGE = '2026-03-02';
/** Pending at the end of history: the 1-inch ball subassembly's seals move to Viton. */
export const PENDING_CHANGE = '2026-11-02';

/**
 * Northgate's plant (seed 000 environment §2): multi-level BOMs for the sixteen valves and their
 * subassemblies (one phantom, the packing kit), with component scrap, one past engineering change
 * and one still pending at the end of history; four work centers and their routings; a summer
 * maintenance shutdown. The made items' standard costs are rolled up from the BOMs and routings,
 * and each component's monthly use derives from the valves' through the BOMs, so production,
 * purchasing and the books agree.
 */
export function designProduction(items: ItemSpec[], r: Rng): ProductionDesign {
  const boms: BomSpec[] = [
    { item: 'SA-BALL-050', lines: [{ component: 'BALL-050', qty: 1 }, { component: 'STEM-050', qty: 1 }, { component: 'SEAL-210', qty: 2, scrapPct: 2 }] },
    { item: 'SA-BALL-100', lines: [{ component: 'BALL-100', qty: 1 }, { component: 'STEM-100', qty: 1 }, { component: 'SEAL-214', qty: 2, scrapPct: 2 }] },
    { item: 'SA-HANDLE-L', lines: [{ component: 'HANDLE-L', qty: 1 }, { component: 'HEX-NUT-10', qty: 1 }, { component: 'WASH-0375', qty: 1 }] },
    { item: 'SA-BONNET-075', lines: [{ component: 'CAST-075-BONNET', qty: 1 }, { component: 'GSK-075', qty: 1, scrapPct: 1 }, { component: 'BOLT-0375', qty: 4 }, { component: 'HEX-NUT-10', qty: 4 }] },
    { item: 'SA-BONNET-150', lines: [{ component: 'CAST-150-BONNET', qty: 1 }, { component: 'GSK-150', qty: 1, scrapPct: 1 }, { component: 'BOLT-0375', qty: 6 }, { component: 'HEX-NUT-12', qty: 6 }] },
    { item: 'SA-PACK-01', phantom: true, lines: [{ component: 'SEAL-212', qty: 2, scrapPct: 3 }, { component: 'WASH-0375', qty: 1 }] },
  ];
  const bar: Record<string, [string, number]> = { '050': ['BR-0500', 0.3], '075': ['BR-0750', 0.4], '100': ['BR-1000', 0.5], '150': ['BR-1500', 0.7] };
  const hex: Record<string, [string, number]> = { '050': ['HX-0500', 0.2], '075': ['HX-0625', 0.25], '100': ['HX-0750', 0.3], '150': ['HX-0875', 0.4] };
  const gateSeal: Record<string, string> = { '050': 'SEAL-216', '075': 'SEAL-218', '100': 'SEAL-220', '150': 'SEAL-222' };
  const machiningScrap = () => r.int(3, 6);
  for (const sz of SIZES) {
    const body = { component: `CAST-${sz}-BODY`, qty: 1 };
    const stem = { component: small(sz) ? 'STEM-050' : 'STEM-100', qty: 1 };
    const bonnet = { component: small(sz) ? 'SA-BONNET-075' : 'SA-BONNET-150', qty: 1 };
    const pack = { component: 'SA-PACK-01', qty: 1 };
    boms.push({ item: `BV-${sz}`, lines: [
      body, { component: small(sz) ? 'SA-BALL-050' : 'SA-BALL-100', qty: 1 }, sz === '150' ? { component: 'HANDLE-T', qty: 1 } : { component: 'SA-HANDLE-L', qty: 1 }, pack,
      { component: bar[sz]![0], qty: bar[sz]![1], scrapPct: machiningScrap() }, { component: box(sz), qty: 1 }, ...packaging,
    ] });
    boms.push({ item: `GV-${sz}`, lines: [
      body, bonnet, stem, { component: 'HANDLE-W', qty: 1 }, pack, { component: hex[sz]![0], qty: hex[sz]![1], scrapPct: machiningScrap() },
      { component: gateSeal[sz]!, qty: 1 }, { component: box(sz), qty: 1 }, ...packaging,
    ] });
    boms.push({ item: `CV-${sz}`, lines: [
      body, { component: `CAST-${sz}-BONNET`, qty: 1 }, { component: `GSK-${sz}`, qty: 1, scrapPct: 1 }, { component: 'BOLT-0375', qty: sz === '150' ? 6 : 4 },
      { component: sz === '150' ? 'HEX-NUT-12' : 'HEX-NUT-10', qty: sz === '150' ? 6 : 4 }, { component: 'SEAL-208', qty: 1 }, { component: box(sz), qty: 1 }, ...packaging,
    ] });
    boms.push({ item: `GLV-${sz}`, lines: [
      body, bonnet, stem, { component: 'HANDLE-W', qty: 1 }, { component: small(sz) ? 'SEAL-224' : 'SEAL-226', qty: 1 }, pack, { component: box(sz), qty: 1 }, ...packaging,
    ] });
  }
  const changes: ChangeSpec[] = [
    { item: 'BV-075', effective: CARTON_CHANGE, reason: 'packaging_change', remove: ['BOX-S'], add: [{ component: 'BOX-M', qty: 1 }], note: 'ECN 26-004: the 3/4 ball valve ships in the medium carton after breakage claims.' },
    { item: 'SA-BALL-100', effective: PENDING_CHANGE, reason: 'material_change', remove: ['SEAL-214'], add: [{ component: 'SEAL-214V', qty: 2, scrapPct: 2 }], note: 'ECN 26-017: Viton seals for the 1-inch ball subassembly, for steam service.' },
  ];
  const workCenters: WorkCenterSpec[] = [
    { id: 'MACH', name: 'CNC machining', hoursPerDay: 16, rate: r.int(7200, 8400) },
    { id: 'ASSY', name: 'Assembly', hoursPerDay: 16, rate: r.int(4800, 5600) },
    { id: 'TEST', name: 'Pressure test', hoursPerDay: 8, rate: r.int(5400, 6200) },
    { id: 'PACK', name: 'Packing', hoursPerDay: 8, rate: r.int(3400, 4200) },
  ];
  const routings: RoutingSpec[] = boms.filter((b) => !b.phantom).map((b) => ({
    item: b.item,
    operations: b.item.startsWith('SA-') ? [['ASSY', 0.5, 0.015]] : [['MACH', 1.5, 0.03], ['ASSY', 0.5, 0.035], ['TEST', 0.25, 0.02], ['PACK', 0.1, 0.01]],
  }));

  const byId = new Map(items.map((i) => [i.id, i]));
  const phantoms = new Set(boms.filter((b) => b.phantom).map((b) => b.item));
  const bomOf = new Map(boms.map((b) => [b.item, b]));
  const valves = items.filter((i) => isValve(i.id));
  // Monthly use flows down the BOMs from the valves' sales: each level's use is its parents' times the quantity per.
  const use = new Map<string, number>(valves.map((v) => [v.id, v.monthlyUse]));
  const flow = (parent: string, qty: number) => {
    for (const l of bomOf.get(parent)?.lines ?? []) {
      const need = qty * l.qty * (1 + (l.scrapPct ?? 0) / 100);
      use.set(l.component, (use.get(l.component) ?? 0) + need);
      flow(l.component, need);
    }
  };
  for (const v of valves) flow(v.id, v.monthlyUse);
  const resale = new Set(items.filter((i) => i.category === 'fittings').map((i) => i.id));
  const mrpPlanned = new Set([...use.keys()].filter((id) => !phantoms.has(id)));
  for (const change of changes) for (const l of change.add) mrpPlanned.add(l.component);
  for (const item of items) {
    if (item.type !== 'stock') continue;
    if (phantoms.has(item.id)) {
      Object.assign(item, { phantom: true, monthlyUse: 0, safetyStock: 0 });
      continue;
    }
    if (mrpPlanned.has(item.id)) {
      const monthly = Math.round(use.get(item.id) ?? item.monthlyUse);
      item.monthlyUse = monthly;
      item.safetyStock = Math.round(monthly * (item.category === 'made' ? 0.25 : 0.5));
      if (item.category === 'made') {
        // About three weeks of use per work order, so each item runs every few weeks rather than every week.
        item.orderMultiple = item.id.startsWith('SA-') ? 25 : 10;
        item.moq = Math.max(item.orderMultiple, Math.ceil((monthly * 0.75) / item.orderMultiple) * item.orderMultiple);
      } else {
        // A month of use per order at least: the economic lot purchasing agreed with the vendors.
        item.moq = Math.max(item.moq, Math.ceil(monthly / item.orderMultiple) * item.orderMultiple);
      }
    } else if (!resale.has(item.id) && item.category !== 'made') {
      // Slow movers: no current BOM uses them, so nothing consumes them.
      item.monthlyUse = 0;
    }
  }
  rollUpStandardCosts(items, byId, boms, routings, workCenters);
  return { boms, changes, workCenters, routings, shutdowns: [['2026-07-06', '2026-07-10', 'summer_maintenance']], mrpPlanned, resale };
}

/**
 * Made items' standard costs, lowest level first: components at their standard cost with their
 * scrap, plus the routing's run hours and its setup spread over the item's lot size, at the work
 * centers' rates. A phantom costs what its components do.
 */
function rollUpStandardCosts(items: ItemSpec[], byId: Map<string, ItemSpec>, boms: BomSpec[], routings: RoutingSpec[], centers: WorkCenterSpec[]): void {
  const rate = new Map(centers.map((c) => [c.id, c.rate]));
  const done = new Set<string>();
  const cost = (id: string): number => {
    const item = byId.get(id)!;
    const bom = boms.find((b) => b.item === id);
    if (!bom || done.has(id)) return item.standardCost;
    let total = 0;
    for (const l of bom.lines) total += cost(l.component) * l.qty * (1 + (l.scrapPct ?? 0) / 100);
    for (const [wc, setup, run] of routings.find((r) => r.item === id)?.operations ?? []) total += (setup / Math.max(item.moq, 1) + run) * rate.get(wc)!;
    item.standardCost = Math.round(total);
    done.add(id);
    return item.standardCost;
  };
  for (const item of items) if (boms.some((b) => b.item === item.id)) cost(item.id);
}
