import type { SimClient } from '../../src/sim/simulator';
import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { draw, money, type Draw } from '../shared/draw';
import { cents, must } from '../shared/http';
import { addDays, AGENT, DAYTON, MIN_SHELF_DAYS, MONDAY, orderQty, PLANT } from './week';

interface Item {
  id: string; description: string; type: string; unit: string; category: string; lot_controlled: boolean; shelf_life_days: number | null;
  standard_cost: number; preferred_vendor: string | null; lead_time_days: number; order_multiple: number; moq: number; status: string;
}

/** What a planted requisition asks for; `ships` lines are due this week, so their vendor delivers them before Wednesday. */
interface Plant {
  id: string;
  clauses: string[];
  item: Item;
  qty: number;
  requester: string;
  purpose: string;
  needBy: string;
  suggested?: string;
  description: string;
}

/** The vendor's behaviour on one planted item (vendor-profile.ts ShipPattern). */
type Pattern = { fill_rate?: number; over_ship_pct?: number; substitute?: string; expiry_days?: number };

/** Northgate's requisition limits above the first approver's: the operations manager's, the controller's, the president's. */
const CHAIN: [number, string][] = [[2_500_000, 'zoe.adams'], [10_000_000, 'grace.lin'], [Number.MAX_SAFE_INTEGER, 'daniel.okafor']];
const REQUESTERS = [['owen.mercer', 'Production stock for the valve lines'], ['luis.romero', 'Warehouse replenishment']] as const;
/** Due Tuesday: the line cannot be ordered in its lead time, and its vendor ships it from stock this week. */
const URGENT = addDays(MONDAY, 1);

function items(sys: SimClient): Item[] {
  const list = must(sys.get('/items', { limit: 1000 }), 'items').items as Item[];
  return list.filter((i) => i.type === 'stock' && i.status !== 'inactive' && i.preferred_vendor).sort((a, b) => a.id.localeCompare(b.id));
}

function agreed(sys: SimClient): Set<string> {
  const list = must(sys.get('/price-agreements', { limit: 1000 }), 'price agreements').items as { vendor: string; item: string; valid_to: string | null }[];
  return new Set(list.filter((a) => a.valid_to === null || a.valid_to >= MONDAY).map((a) => `${a.vendor}/${a.item}`));
}

/** Cancels approved requisitions history left unordered, so the queue holds this week's only. */
function clearQueue(ctx: GenerateContext): void {
  const open = must(ctx.system.get('/requisitions', { status: 'approved', limit: 1000 }), 'approved requisitions').items as { id: string }[];
  for (const r of open) must(ctx.system.post(`/requisitions/${r.id}/cancel`, { reason: 'superseded', note: 'Ordered outside the ERP before the week began.' }), `cancel ${r.id}`);
}

function raise(ctx: GenerateContext, p: Plant, n: number): string {
  const req = must(ctx.system.post('/requisitions', {
    requester: p.requester, purpose: p.purpose, need_by: p.needBy,
    lines: [{ item: p.item.id, qty: p.qty, unit_price: money(cents(Number(p.item.standard_cost))), ...(p.suggested ? { suggested_vendor: p.suggested } : {}) }],
  }), `requisition ${n}`);
  must(ctx.as(p.requester).post(`/requisitions/${req.id}/submit`, {}), `submit ${req.id}`);
  const submitted = must(ctx.system.get(`/requisitions/${req.id}`), req.id);
  // Above the first approver's limit it goes up the delegation-of-authority table, as it did last week.
  const first = submitted.assigned_to as string;
  const note = { note: 'Approved for this week\'s buying.' };
  const res = ctx.as(first).post(`/requisitions/${req.id}/approve`, note);
  if (res.status < 300) return req.id as string;
  if ((res.body as { code?: string }).code !== 'over_limit') must(res, `approve ${req.id}`);
  const total = cents(Number(submitted.total));
  const next = CHAIN.find(([limit]) => total <= limit)![1];
  must(ctx.as(first).post(`/requisitions/${req.id}/route`, { to: next, reason: 'over_limit', note: 'Above my limit.' }), `route ${req.id}`);
  must(ctx.as(next).post(`/requisitions/${req.id}/approve`, note), `approve ${req.id}`);
  return req.id as string;
}

/**
 * Plants the week on Friday 2 October: the approved requisitions for Monday's buying (one case of
 * each ordering rule), the vendors' habits on the lines due this week (over- and short-shipments,
 * substitutes, a short-dated lot), and their billing (a price over the PO, an invoice sent twice).
 * Items are drawn from the seed's catalogue by what each case needs, so every case is planted on
 * every seed; a seed whose catalogue lacks what a case needs stops the generator naming it.
 */
export function generate(ctx: GenerateContext): Truth {
  const d: Draw = draw(ctx.random('week'));
  if (ctx.today() !== PLANT) ctx.advanceTo(PLANT);
  const sys = ctx.system;
  must(sys.post(`/users/${AGENT}/roles`, { roles: ['buyer', 'receiving_clerk', 'ap_clerk'] }), 'agent roles');
  // The controller delegated this week's releases to the buyer: the consolidated orders are large.
  must(sys.post('/approval-limits', { subject_type: 'user', subject: AGENT, document_type: 'purchase_order', amount: '100000.00' }), 'agent limit');
  clearQueue(ctx);
  const catalogue = items(sys);
  const agreements = agreed(sys);
  const used = new Set<string>();
  const pick = (what: string, test: (i: Item) => boolean): Item => {
    const found = d.shuffle(catalogue.filter((i) => !used.has(i.id) && test(i)));
    if (found.length === 0) throw new Error(`The catalogue has no item for ${what}.`);
    used.add(found[0]!.id);
    return found[0]!;
  };
  const whole = (i: Item, k: number) => orderQty(i.moq * k, i.moq, i.order_multiple);
  const hasAgreement = (i: Item) => agreements.has(`${i.preferred_vendor}/${i.id}`);
  const [prod, wh] = REQUESTERS;
  const late = (i: Item, extra: number) => addDays(MONDAY, i.lead_time_days + extra);

  // Wednesday's deliveries: each line due Tuesday, each with the vendor habit it plants.
  const overIn = pick('an over-shipment inside the tolerance', (i) => i.category === 'castings' && i.unit === 'ea');
  const overOut = pick('an over-shipment beyond the tolerance', (i) => i.category === 'fittings');
  const short = pick('a short shipment', (i) => i.category === 'components');
  const shortLife = pick('a short-dated lot', (i) => /^SEAL-2\d\d$/.test(i.id) && i.lot_controlled && (i.shelf_life_days ?? 0) > MIN_SHELF_DAYS);
  const goodLot = pick('a lot with its full life', (i) => i.id.startsWith('GSK-') && i.lot_controlled);
  const subs = must(sys.get('/approved-substitutes', { limit: 1000 }), 'substitutes').items as { item: string; substitute: string; vendor: string }[];
  const approvedSub = pick('an approved substitute', (i) => subs.some((s) => s.item === i.id && s.vendor === '*' && catalogue.some((c) => c.id === s.substitute)));
  const approvedWith = subs.find((s) => s.item === approvedSub.id && s.vendor === '*')!.substitute;
  const unapprovedSub = pick('an unapproved substitute', (i) => /^BR-\d{4}$/.test(i.id) && catalogue.some((c) => c.id === `HX-${i.id.slice(3)}`) && !subs.some((s) => s.item === i.id));
  const unapprovedWith = `HX-${unapprovedSub.id.slice(3)}`;
  used.add(unapprovedWith).add(approvedWith);
  const priced = pick('a price billed over the PO', (i) => i.category === 'packaging' && i.unit === 'ea');

  // Monday's ordering rules on lines due later.
  const consolidated = pick('requisitions consolidated across a price break', (i) => hasAgreement(i) && ['fittings', 'castings', 'components', 'seals'].includes(i.category) && i.moq > 0);
  const belowMoq = pick('a quantity below the MOQ', (i) => i.moq >= 100 && i.order_multiple > 1 && i.moq % i.order_multiple === 0 && ['packaging', 'components', 'fittings'].includes(i.category));
  const offMultiple = pick('a quantity off the order multiple', (i) => i.order_multiple >= 50 && i.moq % i.order_multiple === 0 && ['castings', 'components', 'fittings'].includes(i.category));
  const plantedVendors = () => new Set(catalogue.filter((i) => used.has(i.id)).map((i) => i.preferred_vendor!));
  let held: { item: Item; vendor: string } | undefined;
  for (const category of d.shuffle(['components', 'packaging', 'castings', 'fittings', 'seals', 'brass'])) {
    const vendorsHere = [...new Set(catalogue.filter((i) => i.category === category).map((i) => i.preferred_vendor!))].sort();
    const candidates = catalogue.filter((i) => i.category === category && !used.has(i.id));
    for (const item of candidates) {
      const other = vendorsHere.find((v) => v !== item.preferred_vendor && !plantedVendors().has(v));
      if (other) { held = { item, vendor: other }; break; }
    }
    if (held) break;
  }
  if (!held) throw new Error('No category has a second vendor to put on quality hold.');
  used.add(held.item.id);
  must(sys.post(`/vendors/${held.vendor}/quality-hold`, { reason: 'quality_audit', note: 'Failed incoming inspection on two lots; corrective action pending.' }), 'quality hold');

  const m = consolidated.moq;
  const plants: Plant[] = [
    { id: 'over-ship-within', clauses: ['PTP-2.1/tolerance', 'PTP-1.5/risk', 'PTP-3.2'], item: overIn, qty: whole(overIn, 2), requester: prod[0], purpose: prod[1], needBy: URGENT, description: 'the vendor ships 1.5% over the quantity ordered: inside the tolerance, received whole and billed as received' },
    { id: 'over-ship-beyond', clauses: ['PTP-2.1/over', 'PTP-1.5/risk', 'PTP-3.2/quantity'], item: overOut, qty: whole(overOut, 3), requester: prod[0], purpose: prod[1], needBy: URGENT, description: 'the vendor ships 10% over the quantity ordered: the excess refused, the invoice for all of it held for quantity' },
    { id: 'short-ship', clauses: ['PTP-2.1', 'PTP-1.5/risk', 'PTP-3.2'], item: short, qty: whole(short, 2), requester: wh[0], purpose: wh[1], needBy: URGENT, description: 'the vendor ships 80% of the quantity ordered: received as counted, billed as received' },
    { id: 'short-shelf-life', clauses: ['PTP-2.2', 'PTP-1.5/risk', 'PTP-3.2/quantity'], item: shortLife, qty: whole(shortLife, 1), requester: prod[0], purpose: prod[1], needBy: URGENT, description: `the lot arrives with 60 days of life left, under ${MIN_SHELF_DAYS}: refused, its invoice held for quantity` },
    { id: 'full-shelf-life', clauses: ['PTP-2.2', 'PTP-1.5/risk'], item: goodLot, qty: whole(goodLot, 1), requester: prod[0], purpose: prod[1], needBy: URGENT, description: 'a lot-controlled item with its full shelf life: received with its lot and expiry' },
    { id: 'approved-substitute', clauses: ['PTP-2.3/approved', 'PTP-1.5/risk'], item: approvedSub, qty: whole(approvedSub, 1), requester: prod[0], purpose: prod[1], needBy: URGENT, description: `${approvedWith} ships for ${approvedSub.id}, an approved substitute: received as ${approvedWith}` },
    { id: 'unapproved-substitute', clauses: ['PTP-2.3/unapproved', 'PTP-1.5/risk', 'PTP-3.2/quantity'], item: unapprovedSub, qty: whole(unapprovedSub, 1), requester: prod[0], purpose: prod[1], needBy: URGENT, description: `${unapprovedWith} ships for ${unapprovedSub.id}, not an approved substitute: refused with a reason, its invoice held for quantity` },
    { id: 'price-over-po', clauses: ['PTP-3.2/price', 'PTP-1.5/risk'], item: priced, qty: whole(priced, 1), requester: wh[0], purpose: wh[1], needBy: URGENT, description: 'billed 5% over the PO price: held for price' },
    { id: 'consolidate-first', clauses: ['PTP-1.1', 'PTP-1.2', 'PTP-1.5/need_by'], item: consolidated, qty: orderQty(m * 3, m, consolidated.order_multiple), requester: prod[0], purpose: prod[1], needBy: late(consolidated, 12), description: 'with the next requisition, one PO line whose quantity reaches the agreement\'s second break' },
    { id: 'consolidate-second', clauses: ['PTP-1.1', 'PTP-1.2', 'PTP-1.5/need_by'], item: consolidated, qty: orderQty(m * 2 + consolidated.order_multiple, m, consolidated.order_multiple), requester: wh[0], purpose: wh[1], needBy: late(consolidated, 5), description: 'consolidated with the previous one; its earlier need-by date is the line\'s' },
    { id: 'ship-to-reno', clauses: ['PTP-1.1/ship_to'], item: consolidated, qty: whole(consolidated, 1), requester: wh[0], purpose: 'Replenishment for the Reno distribution center', needBy: late(consolidated, 8), description: 'the same item for Reno: its own purchase order, shipped to RNO' },
    { id: 'below-moq', clauses: ['PTP-1.4/moq', 'PTP-1.5/risk'], item: belowMoq, qty: Math.max(1, Math.floor(belowMoq.moq * 0.4)), requester: wh[0], purpose: wh[1], needBy: late(belowMoq, 0), description: 'asks for less than the MOQ: ordered at the MOQ; due exactly one lead time away, so not at risk' },
    { id: 'off-multiple', clauses: ['PTP-1.4/multiple'], item: offMultiple, qty: offMultiple.moq + Math.floor(offMultiple.order_multiple * 0.6), requester: prod[0], purpose: prod[1], needBy: late(offMultiple, 9), description: 'asks for a quantity between multiples: rounded up to the next order multiple' },
    { id: 'quality-hold', clauses: ['PTP-1.3'], item: held.item, qty: whole(held.item, 1), requester: prod[0], purpose: prod[1], needBy: late(held.item, 10), suggested: held.vendor, description: `suggests ${held.vendor}, which is on quality hold: ordered from the preferred vendor ${held.item.preferred_vendor}` },
  ];
  const ids = plants.map((p, n) => raise(ctx, p, n));

  const patterns: Record<string, Record<string, Pattern>> = {};
  const at = (item: Item, pattern: Pattern) => ((patterns[item.preferred_vendor!] ??= {})[item.id] = pattern);
  at(overIn, { over_ship_pct: 1.5 });
  at(overOut, { over_ship_pct: 10 });
  at(short, { fill_rate: 0.8 });
  at(shortLife, { expiry_days: 60 });
  at(approvedSub, { substitute: approvedWith });
  at(unapprovedSub, { substitute: unapprovedWith });
  behave(ctx, plants, patterns, priced, overIn.preferred_vendor!);
  return {
    planted: [
      ...plants.map((p, n) => ({ id: p.id, clauses: p.clauses, requisition: ids[n], item: p.item.id, vendor: p.suggested ?? p.item.preferred_vendor, qty: p.qty, need_by: p.needBy, description: p.description })),
      { id: 'duplicate-invoice', clauses: ['PTP-3.3'], vendor: overIn.preferred_vendor, description: `${overIn.preferred_vendor} sends its invoice again a day later with the number written without its dash: not entered` },
      { id: 'handoff', clauses: ['PTP-3.4', 'PTP-3.1'], description: 'the Friday note names each held invoice and why' },
      { id: 'master-data', clauses: ['PTP-4.1'], vendor: held.vendor, description: 'the quality hold and the catalogue stay as they are' },
    ],
  };
}

/**
 * The planted vendors deliver from stock in a day and invoice each receipt the next business day;
 * nobody else receives or enters invoices this week: that is the agent's job.
 */
function behave(ctx: GenerateContext, plants: Plant[], patterns: Record<string, Record<string, Pattern>>, priced: Item, duplicating: string): void {
  const actors = ctx.world.actors as Record<string, any>;
  const vendors = actors.vendors as { vendors: Record<string, unknown>; billing: { enter_as?: string | null; vendors: Record<string, Record<string, unknown>> } };
  for (const vendor of [...new Set(plants.map((p) => p.item.preferred_vendor!))].sort()) {
    vendors.vendors[vendor] = { ack_delay_days: 1, lead_time_days: 1, transit_days: 1, expedite: { accept: true, min_lead_days: 0 }, items: patterns[vendor] ?? {} };
    const billing = vendors.billing.vendors[vendor] ?? {};
    const defects: unknown[] = [];
    if (vendor === priced.preferred_vendor) defects.push({ kind: 'price_uplift', bp: 500, item: priced.id });
    if (vendor === duplicating) defects.push({ kind: 'duplicate', delay_days: 1, number_as: 'no_dash' });
    vendors.billing.vendors[vendor] = { ...billing, trigger: 'receipt', delay_days: 1, ...(vendor === duplicating ? { number_prefix: 'INV-' } : {}), defects };
  }
  vendors.billing.enter_as = null;
  actors.warehouse = { ...actors.warehouse, auto_receive: false };
  void DAYTON;
}
