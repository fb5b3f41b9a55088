import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { draw, money, type Draw } from '../shared/draw';
import { must } from '../shared/http';

/** Friday, when the notes arrive and last week's orders are on file; Monday, the planning run. */
const PLANT = '2026-10-02';
export const TURN = '2026-10-05';
export const AGENT = 'owen.mercer';
const VENDOR_DESK = 'vendor.desk';

/** Mondays of the run's weeks: a forecast week's demand falls on its first working day. */
const WEEK = { w2: '2026-10-12', w3: '2026-10-19', w4: '2026-10-26', w5: '2026-11-02', w6: '2026-11-09' } as const;

/** Spare-part kits sold to distributors: forecast, bought, never on a BOM, so each plants one case alone. */
const KITS = [
  ['SPR-101', 'Seat and seal repair kit, 1/2in ball valve'],
  ['SPR-102', 'Seat and seal repair kit, 3/4in ball valve'],
  ['SPR-103', 'Stem packing kit, 1in gate valve'],
  ['SPR-104', 'Bonnet gasket set, 2in globe valve'],
  ['SPR-105', 'Handle and nut kit, quarter-turn valves'],
  ['SPR-106', 'O-ring assortment, check valves'],
  ['SPR-107', 'Disc and spring kit, 1in check valve'],
  ['SPR-108', 'Actuator mounting kit, ISO 5211 F05'],
] as const;

interface Vendor { id: string; name: string; email: string | null; status: string; quality_hold: boolean }

/** Active PO vendors the simulator runs (they acknowledge and answer requests), with an address to write from. */
function vendorsOf(ctx: GenerateContext): Vendor[] {
  const profiles = ((ctx.world.actors.vendors as { vendors?: Record<string, unknown> } | undefined)?.vendors) ?? {};
  const all = must(ctx.system.get('/vendors', { status: 'active', limit: 1000 }), 'vendors').items as Vendor[];
  const usable = all.filter((v) => v.id in profiles && v.email && !v.quality_hold).sort((a, b) => (a.id < b.id ? -1 : 1));
  if (usable.length < 4) throw new Error(`Only ${usable.length} active PO vendors with an address: too few to plant the notes.`);
  return usable;
}

interface Kit { id: string; description: string; vendor: Vendor; lead: number; multiple: number; cost: number }

function createKit(ctx: GenerateContext, kit: Kit): void {
  if (ctx.system.get(`/items/${kit.id}`).status === 200) throw new Error(`Item ${kit.id} already exists: the spare kits cannot be planted.`);
  must(ctx.system.post('/items', {
    id: kit.id, description: kit.description, type: 'stock', unit: 'ea', category: 'spares', standard_cost: money(kit.cost),
    preferred_vendor: kit.vendor.id, lead_time_days: kit.lead, order_multiple: kit.multiple, moq: 0, safety_stock: 0, inventory_account: '1300',
  }), `item ${kit.id}`);
}

function forecast(ctx: GenerateContext, item: string, week: string, qty: number): void {
  must(ctx.as(AGENT).post('/forecasts', { item, weeks: [{ week_start: week, qty }], source: 'Spares plan Q4 2026' }), `forecast ${item}`);
}

/** A sent purchase order of one line: the vendor acknowledges it for its need-by date. */
function sentPo(ctx: GenerateContext, kit: Kit, qty: number, needBy: string): string {
  const po = must(ctx.as(AGENT).post('/purchase-orders', {
    vendor: kit.vendor.id, ship_to: 'DAY', lines: [{ item: kit.id, qty, unit_price: money(kit.cost), need_by: needBy }],
  }), `PO for ${kit.id}`);
  must(ctx.as(AGENT).post(`/purchase-orders/${po.id}/approve`, {}), `approve ${po.id}`);
  must(ctx.as(AGENT).post(`/purchase-orders/${po.id}/send`, {}), `send ${po.id}`);
  return po.id as string;
}

function note(ctx: GenerateContext, to: string, from: Vendor, kit: Kit, days: number, d: Draw): string {
  const contact = d.pick(['Rachel Kim', 'Tom Alvarez', 'Sandra Hughes', 'Victor Osei', 'Megan Doyle']);
  const m = must(ctx.as('sim.scenario').post('/messages/inbound', {
    box: 'personal', owner: AGENT, from: from.email, from_name: `${contact}, ${from.name}`, to: [to],
    subject: `Lead time update: ${kit.id}`,
    body: `Hello Owen,\n\nPlease note that our lead time for ${kit.id} (${kit.description}) is now ${days} calendar days from the date we receive your order, effective immediately. Our foundry is running behind on the castings.\n\nRegards,\n${contact}\n${from.name}`,
    sent_date: PLANT, related: [{ type: 'item', id: kit.id }],
  }), `note on ${kit.id}`);
  return m.id as string;
}

/**
 * Plants the planner's week on spare-part kits (new items, so each case holds whatever the seed's
 * company looks like): the lead-time note that makes a planned order firm, a look-alike note from a
 * vendor that does not supply its item, a planned order outside the fence, a firm order lot-sized
 * away from its forecast, a late planned purchase order, and expedite and defer messages on sent
 * orders, one of them on a line asked last week. Dates fall so that each case is what it is under
 * the run's parameters (8 weeks, 5-day fence, 10-day deferral) on 2026-10-05.
 */
export function generate(ctx: GenerateContext): Truth {
  const d = draw(ctx.random('planner-week'));
  if (ctx.today() > PLANT) throw new Error(`The company ends on ${ctx.today()}, after ${PLANT}.`);
  if (ctx.today() < PLANT) ctx.advanceTo(PLANT);
  const vendors = d.shuffle(vendorsOf(ctx));
  const kits = d.shuffle(KITS);
  const me = must(ctx.system.get(`/users/${AGENT}`), AGENT) as { email: string };
  const kit = (i: number, vendor: Vendor, lead: number, multiple = 1): Kit => ({
    id: kits[i]![0], description: kits[i]![1], vendor, lead, multiple, cost: d.dollars(9, 28),
  });

  // MRP-1.1: the preferred vendor's longer lead time pulls the order's release inside the fence.
  const oldLead = d.int(8, 12);
  const newLead = d.int(15, 21);
  const noted = kit(0, vendors[0]!, oldLead);
  // MRP-1.1 look-alike: another vendor quotes a lead time for an item it does not supply.
  const lookAlike = kit(1, vendors[1]!, d.int(10, 14));
  const outsider = vendors[2]!;
  const outsiderDays = d.int(25, 35);
  // MRP-1.2: outside the fence; and a firm order whose lot (a multiple of 25, not of 100) is not its forecast.
  const unfirm = kit(2, d.pick(vendors), d.int(7, 12));
  const lotted = kit(3, d.pick(vendors), d.int(3, 5), 25);
  const lot = 25 * d.pick([5, 6, 7]);
  // MRP-1.3: released too late for its lead time.
  const late = kit(4, d.pick(vendors), d.int(14, 20));
  // MRP-1.4: an expedite, an expedite already asked (and refused), a defer.
  const expedite = kit(5, d.pick(vendors), 10);
  const asked = kit(6, d.pick(vendors), 10);
  const defer = kit(7, d.pick(vendors), 3);
  for (const k of [noted, lookAlike, unfirm, lotted, late, expedite, asked, defer]) createKit(ctx, k);

  const notedQty = d.int(40, 120);
  forecast(ctx, noted.id, WEEK.w4, notedQty);
  forecast(ctx, unfirm.id, WEEK.w6, d.int(40, 120));
  const lottedForecast = lot - d.int(1, 20);
  forecast(ctx, lotted.id, WEEK.w2, lottedForecast);
  const lateQty = d.int(40, 90);
  forecast(ctx, late.id, WEEK.w2, lateQty);
  const expediteQty = d.int(60, 120);
  const expeditePo = sentPo(ctx, expedite, expediteQty, WEEK.w5);
  forecast(ctx, expedite.id, WEEK.w3, expediteQty);
  const askedQty = d.int(60, 120);
  const askedPo = sentPo(ctx, asked, askedQty, WEEK.w6);
  forecast(ctx, asked.id, WEEK.w4, askedQty);
  const earlier = must(ctx.as(AGENT).post(`/purchase-orders/${askedPo}/requests`, { kind: 'expedite', line: 1, date: WEEK.w4, note: 'Spares plan moved the need forward.' }), 'earlier expedite');
  must(ctx.as(VENDOR_DESK).post(`/vendor-requests/${earlier.id}/answer`, { decision: 'refused', note: 'Castings are on allocation; we cannot ship earlier than the confirmed date.' }), 'refuse earlier expedite');
  const deferQty = d.int(60, 120);
  const deferPo = sentPo(ctx, defer, deferQty, '2026-10-09');
  forecast(ctx, defer.id, WEEK.w6, deferQty);

  const notedNote = note(ctx, me.email, noted.vendor, { ...noted }, newLead, d);
  const outsiderNote = note(ctx, me.email, outsider, lookAlike, outsiderDays, d);
  ctx.advanceTo(TURN);

  return {
    planted: [
      { id: noted.id, clauses: ['MRP-1.1/apply', 'MRP-1.1/before', 'MRP-1.2'], description: `${notedNote}: ${noted.vendor.id}, ${noted.id}'s preferred vendor, now quotes ${newLead} days (record: ${oldLead}); ${notedQty} needed ${WEEK.w4}: firm only with the new lead time` },
      { id: lookAlike.id, clauses: ['MRP-1.1/vendor'], description: `${outsiderNote}: ${outsider.id} quotes ${outsiderDays} days for ${lookAlike.id}, which ${lookAlike.vendor.id} supplies: the record keeps ${lookAlike.lead} days` },
      { id: unfirm.id, clauses: ['MRP-1.2/firm'], description: `${unfirm.id}: planned order for ${WEEK.w6} releases after the fence: not released` },
      { id: lotted.id, clauses: ['MRP-1.2/as_planned'], description: `${lotted.id}: forecast ${lottedForecast} for ${WEEK.w2}, lot-sized to ${lot}: released at ${lot}` },
      { id: late.id, clauses: ['MRP-1.3'], description: `${late.id}: ${lateQty} needed ${WEEK.w2}, lead time ${late.lead} days: late; released alone, approved, sent and expedited to ${WEEK.w2}` },
      { id: expedite.id, clauses: ['MRP-1.4/expedite'], description: `${expeditePo} line 1 due ${WEEK.w5}, needed ${WEEK.w3}: expedite to ${WEEK.w3}` },
      { id: asked.id, clauses: ['MRP-1.4/once'], description: `${askedPo} line 1 due ${WEEK.w6}, needed ${WEEK.w4}; ${earlier.id} already asked (refused): not asked again` },
      { id: defer.id, clauses: ['MRP-1.4/defer'], description: `${deferPo} line 1 due 2026-10-09, needed ${WEEK.w6}: defer to ${WEEK.w6}` },
      { id: 'plan-inputs', clauses: ['MRP-2.1'], description: 'sales orders, BOMs and forecasts stay as planted' },
    ],
  };
}
