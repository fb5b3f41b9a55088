import type { Rng } from '../random';

/** A catalogue item before the seed picks its vendor: the families Northgate buys and makes. */
export interface ItemSpec {
  id: string;
  description: string;
  type: 'stock' | 'non_stock' | 'service';
  unit: string;
  /** The vendor category that supplies it; `made` for what Northgate makes itself. */
  category: string;
  lotControlled: boolean;
  shelfLifeDays?: number;
  /** Standard cost in cents. */
  standardCost: number;
  leadTimeDays: number;
  orderMultiple: number;
  moq: number;
  expenseAccount?: string;
  /** Typical monthly consumption, for history. */
  monthlyUse: number;
  /** Stock MRP keeps in hand (set by the production design). */
  safetyStock?: number;
  /** A phantom assembly: never stocked, its parents take its components. */
  phantom?: boolean;
}

export const WAREHOUSES: [id: string, name: string, region: string, locations: string[]][] = [
  ['DAY', 'Dayton plant and warehouse', 'midwest', ['RCV', 'A-01', 'A-02', 'B-01', 'B-02', 'QC', 'FG']],
  ['RNO', 'Reno distribution center', 'west', ['RCV', 'A-01', 'FG']],
];

const sizes = [['0250', '1/4'], ['0375', '3/8'], ['0500', '1/2'], ['0625', '5/8'], ['0750', '3/4'], ['0875', '7/8'], ['1000', '1'], ['1250', '1-1/4'], ['1500', '1-1/2'], ['2000', '2']] as const;

/** About 120 items; costs and lead times vary with the seed around each family's base. */
export function buildCatalog(r: Rng): ItemSpec[] {
  const items: ItemSpec[] = [];
  const cost = (lo: number, hi: number) => r.cents(lo, hi);
  const stock = (id: string, description: string, unit: string, category: string, standardCost: number, leadTimeDays: number, orderMultiple: number, moq: number, monthlyUse: number, lot?: number): ItemSpec =>
    ({ id, description, type: 'stock', unit, category, lotControlled: lot !== undefined, ...(lot !== undefined ? { shelfLifeDays: lot } : {}), standardCost, leadTimeDays, orderMultiple, moq, monthlyUse });

  sizes.forEach(([code, inch], i) => items.push(stock(`BR-${code}`, `Brass round bar C36000, ${inch} in`, 'lb', 'brass', cost(280, 360) + i * 40, r.int(10, 21), 100, 200, r.int(400, 1800))));
  sizes.slice(2, 8).forEach(([code, inch]) => items.push(stock(`HX-${code}`, `Brass hex bar C36000, ${inch} in across flats`, 'lb', 'brass', cost(320, 460), r.int(14, 28), 100, 200, r.int(200, 800))));
  const bodies = ['050', '075', '100', '125', '150', '200'];
  bodies.forEach((b, i) => items.push(stock(`CAST-${b}-BODY`, `Valve body casting, ${b.replace(/^0/, '')} size, bronze`, 'ea', 'castings', cost(900, 1400) + i * 500, r.int(21, 42), 50, 100, r.int(150, 700))));
  bodies.forEach((b, i) => items.push(stock(`CAST-${b}-BONNET`, `Bonnet casting, ${b.replace(/^0/, '')} size`, 'ea', 'castings', cost(400, 700) + i * 200, r.int(21, 42), 50, 100, r.int(100, 500))));
  for (const n of [208, 210, 212, 214, 216, 218, 220, 222, 224, 226]) {
    items.push(stock(`SEAL-${n}`, `O-ring, nitrile, AS568-${n}`, 'ea', 'seals', cost(45, 160), r.int(7, 14), 250, 500, r.int(800, 4000), r.pick([730, 1095, 1460])));
  }
  for (const n of [212, 214]) items.push(stock(`SEAL-${n}V`, `O-ring, Viton, AS568-${n}`, 'ea', 'seals', cost(120, 260), r.int(10, 21), 250, 500, r.int(50, 300), 1825));
  for (const g of ['050', '075', '100', '125', '150', '200', '250', '300']) {
    items.push(stock(`GSK-${g}`, `Bonnet gasket, PTFE, ${g.replace(/^0/, '')} size`, 'ea', 'seals', cost(18, 65), r.int(7, 14), 100, 200, r.int(200, 1200), r.pick([1095, 1825])));
  }
  const fittings: [string, string][] = [['ELB', 'Elbow 90°'], ['TEE', 'Tee'], ['NIP', 'Hex nipple'], ['UNI', 'Union'], ['CAP', 'Cap'], ['PLG', 'Hex plug'], ['CPL', 'Coupling']];
  for (const [code, name] of fittings) for (const [sz, inch] of [['050', '1/2'], ['075', '3/4'], ['100', '1']]) {
    items.push(stock(`FIT-${code}-${sz}`, `${name}, brass, ${inch} in NPT`, 'ea', 'fittings', cost(60, 420), r.int(10, 25), 50, 100, r.int(100, 900)));
  }
  for (const [id, d, c] of [['HEX-NUT-10', 'Hex nut, stainless, 3/8-16', [6, 14]], ['HEX-NUT-12', 'Hex nut, stainless, 1/2-13', [9, 20]], ['BOLT-0375', 'Hex bolt, stainless, 3/8-16 x 1', [18, 40]], ['WASH-0375', 'Flat washer, stainless, 3/8', [3, 9]]] as const) {
    items.push(stock(id, d, 'ea', 'fasteners', cost(c[0], c[1]), r.int(5, 14), 1000, 1000, r.int(4000, 20000)));
  }
  for (const [id, d] of [['HANDLE-L', 'Lever handle, vinyl-coated'], ['HANDLE-T', 'Tee handle, vinyl-coated'], ['HANDLE-W', 'Wheel handle, cast iron'], ['STEM-050', 'Valve stem, 1/2 size'], ['STEM-100', 'Valve stem, 1 size'], ['BALL-050', 'Ball, chrome-plated brass, 1/2 size'], ['BALL-100', 'Ball, chrome-plated brass, 1 size']] as const) {
    items.push(stock(id, d, 'ea', 'components', cost(90, 480), r.int(14, 30), 100, 200, r.int(300, 1500)));
  }
  for (const [id, d, c] of [['BOX-S', 'Carton, small, printed', [30, 60]], ['BOX-M', 'Carton, medium, printed', [55, 95]], ['BOX-L', 'Carton, large, printed', [90, 160]], ['PALLET-48', 'Wood pallet 48x40, grade A', [1600, 2400]], ['WRAP-18', 'Stretch wrap, 18 in roll', [1800, 2900]]] as const) {
    items.push(stock(id, d, 'ea', 'packaging', cost(c[0], c[1]), r.int(5, 12), 100, 100, r.int(300, 3000)));
  }
  const made: [string, string, number][] = [
    ['SA-BALL-050', 'Ball and stem subassembly, 1/2', 900], ['SA-BALL-100', 'Ball and stem subassembly, 1', 1500], ['SA-BONNET-075', 'Bonnet subassembly, 3/4', 1800],
    ['SA-BONNET-150', 'Bonnet subassembly, 1-1/2', 3200], ['SA-HANDLE-L', 'Lever handle kit', 650], ['SA-PACK-01', 'Packing kit (phantom)', 220],
  ];
  for (const [id, d, c] of made) items.push(stock(id, d, 'ea', 'made', cost(c * 90, c * 110), r.int(3, 7), 25, 25, r.int(100, 600)));
  const valves: [string, string][] = [['BV', 'Ball valve, full port, brass'], ['GV', 'Gate valve, bronze'], ['CV', 'Swing check valve, bronze'], ['GLV', 'Globe valve, bronze']];
  for (const [code, name] of valves) for (const [sz, inch] of [['050', '1/2'], ['075', '3/4'], ['100', '1'], ['150', '1-1/2']]) {
    items.push(stock(`${code}-${sz}`, `${name}, ${inch} in NPT`, 'ea', 'made', Math.round(cost(1400, 2600) * (1 + Number(sz) / 100)), r.int(5, 10), 10, 10, r.int(80, 500)));
  }
  const mro: [string, string, string, [number, number]][] = [
    ['MRO-BEARING-6204', 'Ball bearing 6204-2RS', '6200', [450, 900]], ['MRO-BELT-A42', 'V-belt A42', '6200', [900, 1600]], ['MRO-FILTER-HV', 'Hydraulic filter element', '6200', [2200, 4800]],
    ['MRO-COOLANT-5', 'Cutting coolant, 5 gal', '6250', [6800, 9800]], ['MRO-INSERT-CNMG', 'Carbide insert CNMG 432', '6250', [650, 1100]], ['MRO-GLOVE-L', 'Cut-resistant gloves, large, dozen', '7100', [2400, 3900]],
    ['MRO-GLASSES', 'Safety glasses, box of 12', '7100', [1800, 3200]], ['MRO-LUBE-EP2', 'Grease EP2, 14 oz', '6200', [500, 900]],
  ];
  for (const [id, d, acct, c] of mro) items.push({ id, description: d, type: 'non_stock', unit: 'ea', category: 'mro', lotControlled: false, standardCost: cost(c[0], c[1]), leadTimeDays: r.int(2, 7), orderMultiple: 1, moq: 1, expenseAccount: acct, monthlyUse: r.int(5, 40) });
  const services: [string, string, string, string, [number, number]][] = [
    ['SVC-CALIB', 'Gauge and instrument calibration', 'calibration', '7000', [45000, 90000]], ['SVC-PM-CNC', 'Preventive maintenance, CNC lathes', 'maintenance_services', '6200', [120000, 240000]],
    ['SVC-HVAC', 'HVAC service visit', 'maintenance_services', '6200', [40000, 90000]], ['SVC-FREIGHT', 'Inbound freight, LTL', 'freight', '5200', [25000, 80000]],
    ['SVC-CLEAN', 'Janitorial services, monthly', 'facility_services', '6100', [150000, 260000]], ['SVC-TEST', 'Pressure testing, third party', 'calibration', '7000', [30000, 70000]],
  ];
  for (const [id, d, cat, acct, c] of services) items.push({ id, description: d, type: 'service', unit: 'ea', category: cat, lotControlled: false, standardCost: cost(c[0], c[1]), leadTimeDays: r.int(3, 10), orderMultiple: 1, moq: 1, expenseAccount: acct, monthlyUse: 1 });
  return items;
}

/** Pairs an approved substitute may replace: [item, substitute]. */
export const SUBSTITUTES: [string, string][] = [
  ['SEAL-212', 'SEAL-212V'], ['SEAL-214', 'SEAL-214V'], ['BR-0750', 'HX-0750'], ['BR-0500', 'HX-0500'], ['HEX-NUT-10', 'HEX-NUT-12'],
];
