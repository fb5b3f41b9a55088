import type { Rng } from '../random';

export interface VendorSpec {
  id: string;
  name: string;
  category: string;
  kind: 'goods' | 'services' | 'both';
  terms: string;
  tin: string;
  email: string;
  phone: string;
  address: string;
  remitTo: string;
  defaultExpenseAccount?: string;
  bank: { bankName: string; routing: string; account: string };
  /** Whether Northgate buys from it on purchase orders (else non-PO bills: rent, utilities). */
  poVendor: boolean;
}

export interface CustomerSpec {
  id: string;
  name: string;
  creditLimit: number;
  terms: string;
  taxExempt: boolean;
  email: string;
  phone: string;
  shipTos: { code: string; address: string; region: string }[];
}

/** Vendor categories: how many Northgate uses, what it buys, the name pool the seed draws from. */
const VENDOR_CATEGORIES: { category: string; count: [number, number]; kind: VendorSpec['kind']; po: boolean; expense?: string; names: string[] }[] = [
  { category: 'brass', count: [2, 3], kind: 'goods', po: true, names: ['Mid-State Metals', 'Allegheny Brass and Copper', 'Riverbend Alloys', 'Great Miami Metals Supply'] },
  { category: 'castings', count: [2, 3], kind: 'goods', po: true, names: ['Dayton Foundry Works', 'Hocking Valley Castings', 'Lakeshore Bronze Foundry', 'Tri-State Castings'] },
  { category: 'seals', count: [2, 3], kind: 'goods', po: true, names: ['Coastline Seal and Gasket', 'Precision O-Ring Supply', 'Heartland Sealing Products', 'Summit Gasket Co.'] },
  { category: 'fittings', count: [2, 2], kind: 'goods', po: true, names: ['Keystone Fittings', 'Ridgeway Brass Fittings', 'Cardinal Pipe Products'] },
  { category: 'fasteners', count: [1, 2], kind: 'goods', po: true, names: ['Ohio Valley Fastener', 'Centerline Fastener Supply', 'Buckeye Bolt and Nut'] },
  { category: 'components', count: [2, 2], kind: 'goods', po: true, names: ['Tri-County Plastics and Components', 'Maple Ridge Machining', 'Northfield Components'] },
  { category: 'packaging', count: [2, 2], kind: 'goods', po: true, names: ['Ohio Packaging', 'Carton Craft Industries', 'Miami Valley Pallet'] },
  { category: 'mro', count: [2, 2], kind: 'goods', po: true, expense: '6200', names: ['Great Lakes Industrial Supply', 'Crossroads MRO', 'Midwest Bearing and Belt'] },
  { category: 'calibration', count: [1, 1], kind: 'services', po: true, expense: '7000', names: ['Precision Metrology Services', 'Calibrate Midwest'] },
  { category: 'maintenance_services', count: [1, 2], kind: 'services', po: true, expense: '6200', names: ['Apex Machine Service', 'Comfort Air Mechanical', 'Reliant Facility Maintenance'] },
  { category: 'freight', count: [1, 2], kind: 'services', po: true, expense: '5200', names: ['Allied Freight Lines', 'Crossroads Logistics', 'Blue Route Trucking'] },
  { category: 'facility_services', count: [1, 1], kind: 'services', po: true, expense: '6100', names: ['Spotless Commercial Cleaning', 'BrightPath Janitorial'] },
  { category: 'landlord', count: [1, 1], kind: 'services', po: false, expense: '6100', names: ['Riverside Property Partners', 'Wright Field Properties'] },
  { category: 'utilities', count: [2, 2], kind: 'services', po: false, expense: '6150', names: ['Buckeye Power and Light', 'Miami Valley Gas', 'Dayton Water Works'] },
  { category: 'office', count: [1, 1], kind: 'goods', po: false, expense: '6000', names: ['Cornerstone Office Products', 'Paperline Office Supply'] },
  { category: 'it', count: [1, 2], kind: 'services', po: false, expense: '6500', names: ['ByteWorks IT Services', 'CloudLedger Software'] },
  { category: 'professional', count: [1, 1], kind: 'services', po: false, expense: '6450', names: ['Hale and Whitmore CPAs', 'Barrett Legal Group'] },
];

const TERMS = ['NET30', 'NET30', 'NET30', 'NET45', '2/10NET30', '2/10NET30', '1/10NET30', 'NET15'];
const AREA_CODES = ['937', '614', '513', '419', '216', '330', '740', '412', '317', '312', '248', '502'];
const STREETS = ['Foundry Road', 'Industrial Parkway', 'Commerce Drive', 'Mill Street', 'River Road', 'Enterprise Court', 'Harbor Avenue', 'Carton Court', 'Quarry Lane', 'Depot Street', 'Lincoln Way', 'Gateway Boulevard'];
const CITIES = ['Dayton, OH 45402', 'Columbus, OH 43215', 'Cincinnati, OH 45202', 'Toledo, OH 43604', 'Cleveland, OH 44114', 'Akron, OH 44308', 'Pittsburgh, PA 15222', 'Indianapolis, IN 46204', 'Chicago, IL 60607', 'Louisville, KY 40202', 'Fort Wayne, IN 46802', 'Erie, PA 16501'];
const BANKS = ['First Ohio Bank', 'Heartland National Bank', 'Columbus Commerce Bank', 'Great Lakes Savings', 'Summit Federal Bank', 'Miami Valley Trust', 'Keystone Community Bank', 'Riverside Commercial Bank'];

const slug = (name: string) => name.toLowerCase().replace(/ and /g, '-').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** A nine-digit routing number with a valid ABA check digit. */
export function routingNumber(r: Rng): string {
  const d = [...r.digits(8)].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]!);
  const check = (10 - (sum % 10)) % 10;
  return d.join('') + String(check);
}

export function phoneNumber(r: Rng): string {
  return `(${r.pick(AREA_CODES)}) 555-${String(r.int(100, 199)).padStart(4, '0')}`;
}

export function buildVendors(r: Rng): VendorSpec[] {
  const used = new Set<string>();
  const vendors: VendorSpec[] = [];
  for (const c of VENDOR_CATEGORIES) {
    for (const name of r.sample(c.names, r.int(c.count[0], c.count[1]))) {
      let id: string;
      do id = `V-${r.int(100, 9899).toString().padStart(4, '0')}`; while (used.has(id));
      used.add(id);
      const address = `${r.int(10, 9800)} ${r.pick(STREETS)}, ${r.pick(CITIES)}`;
      vendors.push({
        id, name, category: c.category, kind: c.kind, poVendor: c.po,
        terms: c.po ? r.pick(TERMS) : r.pick(['NET15', 'NET30']),
        tin: `${r.digits(2)}-${r.digits(7)}`,
        email: `ar@${slug(name)}.example`,
        phone: phoneNumber(r),
        address,
        remitTo: r.chance(0.2) ? `PO Box ${r.int(100, 9999)}, ${r.pick(CITIES)}` : address,
        ...(c.expense ? { defaultExpenseAccount: c.expense } : {}),
        bank: { bankName: r.pick(BANKS), routing: routingNumber(r), account: r.digits(r.int(8, 12)) },
      });
    }
  }
  // The payment tasks need vendors that offer an early-payment discount: at least two.
  const discounting = vendors.filter((v) => v.poVendor && v.terms.startsWith('2/10'));
  for (const v of vendors.filter((x) => x.poVendor && !x.terms.includes('/')).slice(0, Math.max(0, 2 - discounting.length))) v.terms = '2/10NET30';
  return vendors.sort((a, b) => (a.id < b.id ? -1 : 1));
}

const CUSTOMER_PLACES = ['Akron', 'Canton', 'Lima', 'Springfield', 'Mansfield', 'Zanesville', 'Marietta', 'Findlay', 'Sandusky', 'Athens', 'Portsmouth', 'Xenia', 'Troy', 'Piqua', 'Sidney', 'Wooster', 'Elyria', 'Lorain', 'Medina', 'Kettering', 'Reno', 'Sparks', 'Boise', 'Fresno', 'Sacramento', 'Spokane'];
const CUSTOMER_TRADES = ['Plumbing Supply', 'Mechanical', 'Pipe and Valve', 'Irrigation', 'Plumbing and Heating', 'Industrial Supply', 'Contractors', 'Fire Protection', 'Water Works', 'HVAC Supply'];
const WEST = new Set(['Reno', 'Sparks', 'Boise', 'Fresno', 'Sacramento', 'Spokane']);

export function buildCustomers(r: Rng, count = 60): CustomerSpec[] {
  const names = new Set<string>();
  const out: CustomerSpec[] = [];
  while (out.length < count) {
    const place = r.pick(CUSTOMER_PLACES);
    const name = `${place} ${r.pick(CUSTOMER_TRADES)}`;
    if (names.has(name)) continue;
    names.add(name);
    const distributor = !/Contractors|Mechanical|Fire Protection/.test(name);
    const id = `C-${String(out.length + 1).padStart(4, '0')}`;
    const region = WEST.has(place) ? 'west' : 'midwest';
    const shipTos = Array.from({ length: r.int(1, 3) }, (_, i) => ({ code: `ST${i + 1}`, address: `${r.int(10, 9800)} ${r.pick(STREETS)}, ${place}`, region }));
    out.push({
      id, name, creditLimit: r.pick([10_000, 25_000, 50_000, 75_000, 100_000, 150_000, 250_000]) * 100, terms: r.pick(['NET30', 'NET30', 'NET45', '2/10NET30']),
      taxExempt: distributor, email: `ap@${slug(name)}.example`, phone: phoneNumber(r), shipTos,
    });
  }
  return out;
}
