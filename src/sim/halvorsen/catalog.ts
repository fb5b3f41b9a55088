import { routingNumber } from '../northgate/parties';
import type { Rng } from '../random';

/** An item Halvorsen buys: stock it resells, or a service it buys for itself. */
export interface ItemSpec {
  id: string;
  description: string;
  type: 'stock' | 'service';
  unit: string;
  category: string;
  /** Unit price in cents, around which the seed draws each vendor's price. */
  basePrice: number;
  /** A typical order quantity range. */
  qty: [number, number];
  expenseAccount?: string;
}

export const ITEMS: ItemSpec[] = [
  { id: 'PAL-WD', description: 'Wood pallet 48x40, grade A', type: 'stock', unit: 'ea', category: 'pallets', basePrice: 1980, qty: [40, 80] },
  { id: 'PAL-HT', description: 'Heat-treated export pallet 48x40', type: 'stock', unit: 'ea', category: 'pallets', basePrice: 2450, qty: [30, 60] },
  { id: 'BOX-1812', description: 'Corrugated box 18x12x12, bundle of 25', type: 'stock', unit: 'bdl', category: 'packaging', basePrice: 3150, qty: [20, 60] },
  { id: 'BOX-2416', description: 'Corrugated box 24x16x16, bundle of 25', type: 'stock', unit: 'bdl', category: 'packaging', basePrice: 4275, qty: [15, 40] },
  { id: 'FOAM-RL', description: 'Foam roll 1/4 in x 48 in x 250 ft', type: 'stock', unit: 'roll', category: 'packaging', basePrice: 6890, qty: [6, 20] },
  { id: 'WRAP-80', description: 'Stretch wrap 18 in x 1500 ft, 80 gauge', type: 'stock', unit: 'roll', category: 'film', basePrice: 2290, qty: [24, 72] },
  { id: 'TAPE-48', description: 'Carton sealing tape 48 mm, case of 36', type: 'stock', unit: 'cs', category: 'film', basePrice: 5460, qty: [10, 30] },
  { id: 'STRAP-PP', description: 'Polypropylene strapping 1/2 in coil', type: 'stock', unit: 'coil', category: 'film', basePrice: 3875, qty: [10, 30] },
  { id: 'GLOVE-NIT', description: 'Nitrile gloves, box of 100', type: 'stock', unit: 'box', category: 'safety', basePrice: 1295, qty: [40, 120] },
  { id: 'VEST-HV', description: 'High-visibility safety vest', type: 'stock', unit: 'ea', category: 'safety', basePrice: 845, qty: [24, 72] },
  { id: 'LABEL-4X6', description: 'Thermal labels 4x6, roll of 500', type: 'stock', unit: 'roll', category: 'labels', basePrice: 1765, qty: [24, 96] },
  { id: 'DRUM-55', description: 'Steel drum 55 gal, open head', type: 'stock', unit: 'ea', category: 'drums', basePrice: 7425, qty: [8, 24] },
  { id: 'SVC-FREIGHT', description: 'Inbound freight, LTL, monthly', type: 'service', unit: 'mo', category: 'freight', basePrice: 184000, qty: [1, 1], expenseAccount: '5200' },
  { id: 'SVC-FORKLIFT', description: 'Forklift preventive maintenance, monthly', type: 'service', unit: 'mo', category: 'maintenance', basePrice: 96500, qty: [1, 1], expenseAccount: '6200' },
  { id: 'SVC-CLEAN', description: 'Warehouse cleaning, monthly', type: 'service', unit: 'mo', category: 'cleaning', basePrice: 142000, qty: [1, 1], expenseAccount: '6600' },
  { id: 'SVC-IT', description: 'Managed IT support, monthly', type: 'service', unit: 'mo', category: 'it', basePrice: 118000, qty: [1, 1], expenseAccount: '6500' },
];

/**
 * How a vendor's orders run through history: every two weeks on long terms (so several invoices are
 * open at the end), every four weeks at one standing quantity and price, now and then, or a monthly
 * service. Each schedule leaves its own kind of open business at the end of September.
 */
export type OrderPattern = 'biweekly' | 'standing' | 'occasional' | 'service';

export interface VendorSpec {
  id: string;
  name: string;
  category: string;
  pattern: OrderPattern;
  terms: string;
  tin: string;
  email: string;
  phone: string;
  address: string;
  /** How the vendor prints its invoice numbers, and the number its sequence starts at. */
  numbering: { style: 'inv-zeros' | 'digits' | 'inv-plain' | 'prefixed'; prefix: string; first: number };
  bank: { bankName: string; routing: string; account: string };
}

const POOLS: { category: string; pattern: OrderPattern; names: string[] }[] = [
  { category: 'pallets', pattern: 'standing', names: ['Northwind Pallet Supply', 'Great Plains Pallet Co.'] },
  { category: 'packaging', pattern: 'biweekly', names: ['Lakehead Packaging', 'Superior Carton Co.'] },
  { category: 'film', pattern: 'biweekly', names: ['Twin Ports Film and Tape', 'North Shore Wrap Supply'] },
  { category: 'safety', pattern: 'standing', names: ['Boreal Safety Supply', 'Harbor Industrial Supply'] },
  { category: 'labels', pattern: 'standing', names: ['Prairie Label Works', 'Mesabi Print and Label'] },
  { category: 'drums', pattern: 'occasional', names: ['Duluth Drum and Container', 'Range Container Co.'] },
  { category: 'pallets', pattern: 'occasional', names: ['Iron Range Pallets', 'Arrowhead Skid and Crate'] },
  { category: 'packaging', pattern: 'occasional', names: ['Arrowhead Box and Board', 'Keweenaw Corrugated'] },
  { category: 'freight', pattern: 'service', names: ['Lakeway Freight Lines', 'North Star Carriers'] },
  { category: 'maintenance', pattern: 'service', names: ['Range Forklift Service', 'Iron Horse Equipment Service'] },
  { category: 'cleaning', pattern: 'service', names: ['Spotless Warehouse Services', 'Clearwater Facility Care'] },
  { category: 'it', pattern: 'service', names: ['Harborview IT Services', 'Northland Managed IT'] },
];

const AREA_CODES = ['218', '612', '651', '715', '952', '763', '320', '507'];
const STREETS = ['Garfield Avenue', 'Port Terminal Drive', 'Rice Lake Road', 'Commerce Street', 'Tower Avenue', 'Industrial Park Road', 'Winter Street', 'Lake Avenue'];
const CITIES = ['Duluth, MN 55806', 'Superior, WI 54880', 'Hermantown, MN 55811', 'Cloquet, MN 55720', 'Virginia, MN 55792', 'Minneapolis, MN 55413', 'Eau Claire, WI 54701'];
export const BANKS = ['Lakeshore Commerce Bank', 'North Country Credit Union', 'Twin Ports Savings', 'Iron Range National Bank', 'Great Northern Trust', 'Prairie State Bank'];
const STYLES: VendorSpec['numbering']['style'][] = ['inv-zeros', 'digits', 'inv-plain', 'prefixed'];
const TERMS: Record<OrderPattern, string[]> = { biweekly: ['NET45'], standing: ['NET30'], occasional: ['NET30'], service: ['NET30', 'NET15'] };

const slug = (name: string) => name.toLowerCase().replace(/ and /g, '-').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const initials = (name: string) => name.split(/\s+/).filter((w) => /^[A-Z]/.test(w) && w !== 'Co.').map((w) => w[0]).join('').slice(0, 3);

/** A vendor account number of eight to twelve digits. */
export function accountNumber(r: Rng): string {
  return r.digits(r.int(8, 12));
}

/** One vendor per pool, names, numbering and bank details drawn from the seed; sorted by id. */
export function buildVendors(r: Rng): VendorSpec[] {
  const used = new Set<string>();
  const vendors = POOLS.map((p) => {
    const name = r.pick(p.names);
    let id: string;
    do id = `V-${r.int(1000, 9899)}`; while (used.has(id));
    used.add(id);
    const style = r.pick(STYLES);
    return {
      id, name, category: p.category, pattern: p.pattern, terms: r.pick(TERMS[p.pattern]), tin: `${r.digits(2)}-${r.digits(7)}`,
      email: `ar@${slug(name)}.example`, phone: `(${r.pick(AREA_CODES)}) 555-${String(r.int(100, 999)).padStart(4, '0')}`,
      address: `${r.int(10, 4800)} ${r.pick(STREETS)}, ${r.pick(CITIES)}`,
      numbering: { style, prefix: initials(name), first: r.int(1200, 8800) },
      bank: { bankName: r.pick(BANKS), routing: routingNumber(r), account: accountNumber(r) },
    } satisfies VendorSpec;
  });
  return vendors.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The n-th invoice number a vendor prints (0-based), in its own style. */
export function invoiceNumber(v: Pick<VendorSpec, 'numbering'>, n: number): string {
  const value = v.numbering.first + n * 7;
  switch (v.numbering.style) {
    case 'inv-zeros': return `INV-${String(value).padStart(6, '0')}`;
    case 'digits': return String(value);
    case 'inv-plain': return `INV-${value}`;
    case 'prefixed': return `${v.numbering.prefix}-${value}`;
    default: {
      const unknown: never = v.numbering.style;
      return unknown;
    }
  }
}

/** The vendor's unit price of an item: its base price moved by up to 6% either way by the seed. */
export function vendorPrice(r: Rng, item: ItemSpec): number {
  return Math.round(item.basePrice * (0.94 + r.float() * 0.12));
}
