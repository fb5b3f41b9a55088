import type { JournalEntryManagerProfile } from '../../src/sim/behaviours/payables-profiles';
import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { draw, money, type Draw } from '../shared/draw';
import { cents, must } from '../shared/http';
import { accrualCents, ACCOUNTING_ADDRESS, CARRIER, CARRIER_ADDRESS, FREIGHT_IN, scheduleBody, scheduleSubject, type Lane } from './lanes';

export const AGENT = 'lena.park';
export const CONTROLLER = 'grace.lin';
const BUYER = 'sam.ortiz';
const CLERK = 'luis.romero';
const SCENARIO = 'sim.scenario';
/** Turn 1 is Friday 30 October; the facts change on Monday 2 November; turn 2 is Tuesday 3. */
export const TURN_1 = '2026-10-30';
export const REVISED_ON = '2026-11-02';
export const MONTH_END = '2026-10-31';

interface Vendor { id: string; name: string; kind: string; status: string }
interface Planned { date: string; vendor: Vendor; lane: string | null; description: string; role: 'lane' | 'prepaid' | 'misdelivered' | 'billed' | 'corrected' }

const DATES = ['2026-10-06', '2026-10-08', '2026-10-13', '2026-10-15', '2026-10-20', '2026-10-22', '2026-10-27'];
const WORK = ['Replacement conveyor rollers', 'Spare gearbox seals and shims', 'Pneumatic fittings, assorted', 'Machine guard panels', 'Hydraulic hose assemblies', 'Dock bumper set', 'Bench vises and mounts'];

/** A one-line PO for maintenance goods, approved and sent, received whole on the same day as the clerk's receipt. */
function receive(ctx: GenerateContext, d: Draw, p: Planned): { receipt: string; po: string; value: number } {
  const qty = d.int(2, 12);
  const unit = d.int(9_000, 42_000) + d.int(0, 99);
  const po = must(ctx.as(BUYER).post('/purchase-orders', {
    vendor: p.vendor.id, ship_to: 'DAY', department: 'MAINT',
    lines: [{ description: p.description, qty, unit: 'ea', unit_price: money(unit), need_by: p.date, account: '6200' }],
  }), `PO for ${p.vendor.id}`);
  must(ctx.as(BUYER).post(`/purchase-orders/${po.id}/approve`, {}), `approve ${po.id}`);
  must(ctx.as(BUYER).post(`/purchase-orders/${po.id}/send`, {}), `send ${po.id}`);
  const receipt = must(ctx.as(CLERK).post('/receipts', { po: po.id, date: p.date, lines: [{ po_line: 1, qty_received: qty }], note: 'Delivered by the carrier.' }), `receipt of ${po.id}`);
  return { receipt: receipt.id as string, po: po.id as string, value: cents(receipt.total) };
}

const rate = (n: number) => n.toFixed(2);

/**
 * Plants October's inbound freight on Northgate: MVF's September and October schedules in the
 * accounting box, deliveries from each lane's shippers and from a prepaid vendor, and a pallet that
 * was not ours received on the 29th. On Monday 2 November the warehouse reverses that receipt, MVF
 * corrects lane L3's October rate, and MVF bills one L1 delivery at its actual charge.
 */
export function generate(ctx: GenerateContext): Truth {
  const d = draw(ctx.random('freight'));
  for (const user of [SCENARIO, CLERK]) if (!ctx.world.users.includes(user)) ctx.issueToken(user);
  // FRT-1.3 as the controller reads it: a freight accrual needs its receipt and MVF's mail.
  const managers = ctx.world.actors.managers as { journal_entries?: JournalEntryManagerProfile } | undefined;
  if (!managers?.journal_entries) throw new Error('The company has no controller approving journal entries.');
  managers.journal_entries = { ...managers.journal_entries, support_rules: [{ accounts: [FREIGHT_IN], kinds: ['message', 'receipt'] }] };
  const vendors = (must(ctx.system.get('/vendors', { limit: 1000 }), 'vendors').items as Vendor[])
    .filter((v) => v.status === 'active' && v.kind === 'goods').sort((a, b) => a.id.localeCompare(b.id));
  if (vendors.length < 5) throw new Error(`Only ${vendors.length} active goods vendors: the lanes need five.`);
  const [l1a, l1b, l2, l3, prepaid] = d.shuffle(vendors) as [Vendor, Vendor, Vendor, Vendor, Vendor];
  const october = { L1: rate(d.pick([1.45, 1.55, 1.6, 1.65, 1.7])), L2: rate(d.pick([1.95, 2.1, 2.25, 2.4])), L3: rate(d.pick([3.3, 3.4, 3.55, 3.65])) };
  const september = { L1: rate(Number(october.L1) - 0.1), L2: october.L2, L3: rate(Number(october.L3) - 0.15) };
  const corrected = rate(Number(october.L3) - d.pick([0.45, 0.5, 0.6]));
  const lanes = (rates: Record<'L1' | 'L2' | 'L3', string>): Lane[] => [
    { lane: 'L1', origin: 'Dayton, OH', shippers: [l1a.name, l1b.name], rate: rates.L1 },
    { lane: 'L2', origin: 'Toledo, OH', shippers: [l2.name], rate: rates.L2 },
    { lane: 'L3', origin: 'Portland, ME', shippers: [l3.name], rate: rates.L3 },
  ];
  const deliver = (subject: string, body: string, sent: string, related: { type: string; id: string }[] = []) => ({
    box: 'accounting', from: CARRIER_ADDRESS, from_name: `${CARRIER}, customer accounts`, to: [ACCOUNTING_ADDRESS], subject, body, sent_date: sent, related,
  });
  const sim = ctx.as(SCENARIO);
  must(sim.post('/messages/inbound', deliver(scheduleSubject('September 2026'), scheduleBody('September 2026', lanes(september)), '2026-09-01')), 'September schedule');
  must(sim.post('/messages/inbound', deliver(scheduleSubject('October 2026'), scheduleBody('October 2026', lanes(october)), '2026-10-01')), 'October schedule');

  const work = d.shuffle(WORK);
  const dates = d.shuffle(DATES).slice(0, 6).sort();
  const plan: Planned[] = [
    { date: dates[0]!, vendor: l1a, lane: 'L1', description: work[0]!, role: 'lane' },
    { date: dates[1]!, vendor: l1b, lane: 'L1', description: work[1]!, role: 'billed' },
    { date: dates[2]!, vendor: l2, lane: 'L2', description: work[2]!, role: 'lane' },
    { date: dates[3]!, vendor: l3, lane: 'L3', description: work[3]!, role: 'corrected' },
    { date: dates[4]!, vendor: prepaid, lane: null, description: work[4]!, role: 'prepaid' },
    { date: dates[5]!, vendor: l3, lane: 'L3', description: work[5]!, role: 'corrected' },
    { date: '2026-10-29', vendor: l2, lane: 'L2', description: 'Pallet racking hardware and anchors', role: 'misdelivered' },
  ].sort((a, b) => a.date.localeCompare(b.date)) as Planned[];
  // The misdelivered pallet's shipper never bills it, so nothing is matched against the receipt the warehouse takes back.
  const billing = (ctx.world.actors.vendors as { billing?: { vendors?: Record<string, unknown> } } | undefined)?.billing?.vendors;
  if (billing) delete billing[l2.id];
  const received: (Planned & { receipt: string; po: string; value: number })[] = [];
  for (const p of plan) {
    if (ctx.today() < p.date) ctx.advanceTo(p.date);
    received.push({ ...p, ...receive(ctx, d, p) });
  }
  ctx.advanceTo(TURN_1);

  const misdelivered = received.find((r) => r.role === 'misdelivered')!;
  const billed = received.find((r) => r.role === 'billed')!;
  const estimate = accrualCents(billed.value, october.L1);
  const actual = estimate + d.int(3_500, 9_500);
  const receipts = must(ctx.system.get('/receipts', { limit: 1000 }), 'receipts').items as { id: string; po: string; vendor: string; date: string; status: string; total: number }[];
  const l3Receipts = receipts.filter((r) => r.vendor === l3.id && r.status === 'posted' && r.date >= '2026-10-01' && r.date <= MONTH_END).map((r) => r.id).sort();
  ctx.world.scheduled.push(
    {
      date: REVISED_ON, actor: 'warehouse', as: CLERK, method: 'POST', path: `/receipts/${misdelivered.receipt}/reverse`,
      body: { reason: 'receiving_error', note: 'This pallet was addressed to Northgate Plastics next door, not to us; the carrier collected it this morning.' },
      note: 'The misdelivered pallet is taken back',
    },
    {
      date: REVISED_ON, actor: 'vendors', as: SCENARIO, method: 'POST', path: '/messages/inbound',
      body: deliver('Corrected October rate for lane L3', [
        'Northgate Valve Co., account NG-4471.', '',
        `Our October 2026 schedule overstated lane L3 (Portland, ME): the fuel surcharge was counted twice. The correct October 2026 rate for lane L3 is ${corrected}%, not ${october.L3}%. Lanes L1 and L2 are unchanged. We will bill October at the corrected rate on 12 November.`, '',
        `${CARRIER}, customer accounts`,
      ].join('\n'), REVISED_ON, l3Receipts.map((id) => ({ type: 'receipt', id }))),
      note: 'MVF corrects lane L3',
    },
    {
      date: REVISED_ON, actor: 'vendors', as: SCENARIO, method: 'POST', path: '/messages/inbound',
      body: deliver(`Freight bill for your ${billed.po}`, [
        'Northgate Valve Co., account NG-4471.', '',
        `Your ${billed.po} from ${billed.vendor.name}, delivered ${billed.date}, needed a liftgate and a delivery appointment, so we bill its actual charge of $${money(actual)} instead of the lane rate. It will be on our October invoice of 12 November.`, '',
        `${CARRIER}, customer accounts`,
      ].join('\n'), REVISED_ON, [{ type: 'receipt', id: billed.receipt }]),
      note: 'MVF bills one delivery at its actual charge',
    },
  );

  return {
    planted: [
      { id: 'october-schedule', clauses: ['FRT-1.2/month'], description: `October schedule L1 ${october.L1}%, L2 ${october.L2}%, L3 ${october.L3}%; September's (L1 ${september.L1}%, L3 ${september.L3}%) is not the month's` },
      ...received.map((r) => {
        const clauses = {
          lane: ['FRT-1.1', 'FRT-1.3', 'FRT-2.3'],
          prepaid: ['FRT-1.1'],
          misdelivered: ['FRT-1.1', 'FRT-2.1/reverse', 'FRT-2.1/date', 'FRT-2.2'],
          billed: ['FRT-1.2/actual', 'FRT-2.1/reverse', 'FRT-2.1/date', 'FRT-2.2'],
          corrected: ['FRT-1.2/month', 'FRT-2.1/reverse', 'FRT-2.1/date', 'FRT-2.2'],
        }[r.role];
        const what = {
          lane: `accrue at lane ${r.lane}'s October rate and leave it standing`,
          prepaid: 'a prepaid shipper: accrue nothing',
          misdelivered: `received ${r.date}, reversed by the warehouse on ${REVISED_ON} as a receiving error: reverse its accrual and book nothing`,
          billed: `MVF billed its actual charge ${money(actual)} on ${REVISED_ON} (the lane estimate was ${money(estimate)}): reverse and rebook at the actual`,
          corrected: `lane L3 corrected on ${REVISED_ON} from ${october.L3}% to ${corrected}%: reverse and rebook`,
        }[r.role];
        return { id: r.receipt, clauses, description: `${r.receipt} (${r.po}, ${r.vendor.name}, ${money(r.value)}): ${what}` };
      }),
    ],
  };
}
