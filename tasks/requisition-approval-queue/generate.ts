import type { SimClient } from '../../src/sim/simulator';
import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { draw, money, type Draw } from '../shared/draw';
import { cents, must } from '../shared/http';

/** The Friday the queue fills, and the Monday the agent works it. */
const PLANTED = '2026-10-02';
const TURN = '2026-10-05';
const WEEK_END = '2026-10-09';
const AGENT = 'maya.chen';

/** What a department has left on an account this fiscal year to date, in cents (budget − actual − commitments). */
function available(sys: SimClient, department: string, account: string): number {
  const report = must(sys.get('/reports/budget-vs-actual', { department }), 'budget-vs-actual') as { rows: { account: string; budget: number; actual: number; commitments: number }[] };
  const row = report.rows.find((r) => r.account === account);
  if (!row || row.budget === 0) throw new Error(`${department} has no budget on ${account}.`);
  return cents(row.budget) - cents(row.actual) - cents(row.commitments);
}

/** Who releases a purchase order of this value on the planting day. */
function poApprover(totalCents: number): string {
  if (totalCents <= 500_000) return 'sam.ortiz';
  if (totalCents <= 2_500_000) return 'maya.chen';
  if (totalCents <= 5_000_000) return 'zoe.adams';
  if (totalCents <= 10_000_000) return 'grace.lin';
  return 'daniel.okafor';
}

/** An open purchase order for a department's account: a commitment against its budget. */
function commit(ctx: GenerateContext, department: string, account: string, amount: number, description: string): string {
  const vendors = must(ctx.system.get('/vendors', { limit: 1000 }), 'vendors').items as { id: string; status: string; default_expense_account: string | null }[];
  const vendor = vendors.find((v) => v.status === 'active' && v.default_expense_account === account) ?? vendors.find((v) => v.status === 'active')!;
  const po = must(ctx.as('sam.ortiz').post('/purchase-orders', {
    vendor: vendor.id, ship_to: 'DAY', department,
    lines: [{ description, qty: 1, unit: 'ea', unit_price: money(amount), need_by: '2026-11-30', account }],
  }), 'commitment PO');
  must(ctx.as(poApprover(amount)).post(`/purchase-orders/${po.id}/approve`, {}), 'approve commitment PO');
  must(ctx.as('sam.ortiz').post(`/purchase-orders/${po.id}/send`, {}), 'send commitment PO');
  return po.id as string;
}

interface Plant {
  id: string;
  kind: string;
  clauses: string[];
  requester: string;
  department: string;
  purpose: string;
  lines: { item?: string; description?: string; qty: number; unit_price: string; account?: string }[];
  expect: string;
}

function requisitionOf(ctx: GenerateContext, p: Omit<Plant, 'id'>): string {
  const req = must(ctx.system.post('/requisitions', { requester: p.requester, department: p.department, purpose: p.purpose, need_by: '2026-10-30', lines: p.lines }), `requisition ${p.kind}`);
  must(ctx.as(p.requester).post(`/requisitions/${req.id}/submit`, {}), `submit ${p.kind}`);
  return req.id as string;
}

/** One free-text line of a whole-dollar amount. */
const line = (description: string, amount: number, account: string) => ({ description, qty: 1, unit_price: money(amount), account });

function clearWeek(ctx: GenerateContext): void {
  for (const user of ['maya.chen', 'zoe.adams', 'daniel.okafor', 'grace.lin']) {
    const leaves = must(ctx.system.get(`/users/${user}`), user).leaves as { id: string; start_date: string; end_date: string }[];
    for (const l of leaves) if (l.start_date <= WEEK_END && l.end_date >= PLANTED) must(ctx.system.post(`/leaves/${l.id}/cancel`, {}), `cancel ${l.id}`);
  }
}

/**
 * Fills the purchasing manager's queue on Friday: each kind of planted decision once, in a random
 * order, with departments, requesters and amounts from the seed; budgets are measured, then
 * commitments planted, so the budget cases hold whatever history left.
 */
export function generate(ctx: GenerateContext): Truth {
  const d: Draw = draw(ctx.random('queue'));
  if (ctx.today() !== PLANTED) ctx.advanceTo(PLANTED);
  clearWeek(ctx);
  must(ctx.system.post('/leaves', { user: 'zoe.adams', start_date: TURN, end_date: WEEK_END, delegate: 'daniel.okafor' }), 'leave');
  // The purchasing manager is the agent: her queue is hers to decide, not the simulator's.
  const approvers = (ctx.world.actors.approvers as { approvers: Record<string, unknown> } | undefined)?.approvers;
  if (approvers) delete approvers[AGENT];

  // A duplicate needs its original: the same request, approved this week.
  const glasses = { item: 'MRO-GLASSES', qty: d.int(6, 14), unit_price: '24.50' };
  const original = must(ctx.system.post('/requisitions', { requester: 'tessa.nguyen', department: 'WH', purpose: 'Safety glasses for the receiving dock', need_by: '2026-10-16', lines: [glasses] }), 'original');
  must(ctx.as('tessa.nguyen').post(`/requisitions/${original.id}/submit`, {}), 'submit original');
  must(ctx.as(AGENT).post(`/requisitions/${original.id}/approve`, { note: 'Approved.' }), 'approve original');
  // APR-1.7's look-alike: the same item approved this week for the same requester, in another quantity.
  const beltQty = d.int(8, 16);
  const belts = { item: 'MRO-BELT-A42', qty: beltQty, unit_price: '12.40' };
  const earlierBelts = must(ctx.system.post('/requisitions', { requester: 'ivan.petrov', department: 'MAINT', purpose: 'V-belts for the compressor room', need_by: '2026-10-16', lines: [belts] }), 'earlier belts');
  must(ctx.as('ivan.petrov').post(`/requisitions/${earlierBelts.id}/submit`, {}), 'submit earlier belts');
  must(ctx.as(AGENT).post(`/requisitions/${earlierBelts.id}/approve`, { note: 'Approved.' }), 'approve earlier belts');

  // Budgets: one department left short once its open commitments count, another close but fitting.
  const [tight, close] = d.shuffle([['HR', '6650', 'mia.santos', 'Leadership workshop for shift supervisors'], ['IT', '6500', 'alex.wong', 'Annual licence renewal, CAD seats']] as const);
  const tightLeft = d.dollars(1500, 3000);
  const tightAvailable = available(ctx.system, tight[0], tight[1]);
  const tightCommitment = tightAvailable - tightLeft;
  if (tightCommitment < 400_000) throw new Error(`${tight[0]} ${tight[1]} has only ${money(tightAvailable)} left: too little to plant its case.`);
  commit(ctx, tight[0], tight[1], tightCommitment, 'Contracted services, fourth quarter');
  const tightAmount = tightLeft + d.dollars(800, 2500);
  const closeLeft = d.dollars(4000, 6500);
  const closeAvailable = available(ctx.system, close[0], close[1]);
  if (closeAvailable > closeLeft) commit(ctx, close[0], close[1], closeAvailable - closeLeft, 'Contracted services, fourth quarter');
  const closeAmount = Math.min(closeAvailable, closeLeft) - d.dollars(200, 900);

  const fit = (department: string, account: string, amount: number) => Math.min(amount, available(ctx.system, department, account) - 20_000);
  const splitParts = [d.dollars(5500, 8500), d.dollars(5000, 8000)];
  const lookAlike = [fit('QA', '6250', d.dollars(5200, 7500)), fit('QA', '6650', d.dollars(5200, 7500))];
  const plants: Omit<Plant, 'id'>[] = [
    { kind: 'approve', clauses: ['APR-1.8'], requester: 'tessa.nguyen', department: 'WH', purpose: 'Pallet jack wheels and seals', lines: [line('Pallet jack wheel and seal kits', fit('WH', '6250', d.dollars(800, 2500)), '6250')], expect: 'approve' },
    { kind: 'approve', clauses: ['APR-1.8'], requester: 'carla.diaz', department: 'SALES', purpose: 'Distributor visits, western region', lines: [line('Travel for distributor visits, Reno and Boise', fit('SALES', '6600', d.dollars(1500, 4500)), '6600')], expect: 'approve' },
    { kind: 'approve', clauses: ['APR-1.8'], requester: 'ivan.petrov', department: 'MAINT', purpose: 'Arc-flash face shields', lines: [line('Arc-flash face shields, class 2', fit('MAINT', '7100', d.dollars(600, 1800)), '7100')], expect: 'approve' },
    { kind: 'exact_limit', clauses: ['APR-1.2'], requester: 'nina.patel', department: 'PROD', purpose: 'Carbide end mills and holders', lines: [line('Carbide end mills, holders and collets', 1_000_000, '6250')], expect: 'approve: exactly at the limit' },
    { kind: 'over_limit', clauses: ['APR-1.2', 'APR-1.6'], requester: 'ivan.petrov', department: 'MAINT', purpose: 'Hydraulic press overhaul', lines: [line('Hydraulic press overhaul, press 2', d.dollars(12000, 22000), '6200')], expect: 'route over_limit to the operations manager, who is on leave: to her delegate' },
    { kind: 'over_ops_limit', clauses: ['APR-1.2'], requester: 'tessa.nguyen', department: 'WH', purpose: 'Warehouse racking repair', lines: [line('Pallet racking repair and load signage', d.dollars(32000, 60000), '6250')], expect: 'route over_limit to the controller' },
    { kind: 'over_budget', clauses: ['APR-1.3/commitments', 'APR-1.3/code'], requester: tight[2], department: tight[0], purpose: tight[3], lines: [line(tight[3], tightAmount, tight[1])], expect: 'route over_budget to the controller: the budget is spent once open commitments count' },
    { kind: 'budget_fits', clauses: ['APR-1.3'], requester: close[2], department: close[0], purpose: close[3], lines: [line(close[3], closeAmount, close[1])], expect: 'approve: close to the budget but within it' },
    { kind: 'split', clauses: ['APR-1.4', 'APR-1.6'], requester: 'ivan.petrov', department: 'MAINT', purpose: 'Spindle rebuild, CNC lathe 3 (part 1 of 2)', lines: [line('Spindle bearings and seals, lathe 3', splitParts[0]!, '6200')], expect: 'route split_purchase to the operations manager\'s delegate' },
    { kind: 'split', clauses: ['APR-1.4', 'APR-1.6'], requester: 'ivan.petrov', department: 'MAINT', purpose: 'Spindle rebuild, CNC lathe 3 (part 2 of 2)', lines: [line('Spindle rebuild labour, lathe 3', splitParts[1]!, '6200')], expect: 'route split_purchase to the operations manager\'s delegate' },
    { kind: 'different_purposes', clauses: ['APR-1.4'], requester: 'priya.shah', department: 'QA', purpose: 'Gauge blocks for incoming inspection', lines: [line('Gauge block set, grade 0', lookAlike[0]!, '6250')], expect: 'approve: another purpose of the same requester' },
    { kind: 'different_purposes', clauses: ['APR-1.4'], requester: 'priya.shah', department: 'QA', purpose: 'GD&T course for inspectors', lines: [line('GD&T course, four inspectors', lookAlike[1]!, '6650')], expect: 'approve: another purpose of the same requester' },
    { kind: 'own_request', clauses: ['APR-1.5', 'APR-1.6'], requester: AGENT, department: 'PUR', purpose: 'Foundry audit trip, Erie', lines: [line('Travel for the foundry quality audit, Erie', d.dollars(1500, 4000), '6600')], expect: 'route own_request to her manager, on leave: to the delegate' },
    // Above the limit, so that returning it before the limit is weighed (APR-1.8) changes the decision.
    { kind: 'capital_item', clauses: ['APR-1.7/capital', 'APR-1.8'], requester: 'alex.wong', department: 'IT', purpose: 'Replacement file servers', lines: [line('File servers, two, with racks and UPS', d.dollars(12000, 20000), '1550')], expect: 'return capital_item, though it is above the limit' },
    { kind: 'duplicate', clauses: ['APR-1.7/duplicate'], requester: 'tessa.nguyen', department: 'WH', purpose: 'Safety glasses for the receiving dock', lines: [glasses], expect: `return duplicate_request: repeats ${original.id}` },
    { kind: 'same_item_other_qty', clauses: ['APR-1.7/duplicate'], requester: 'ivan.petrov', department: 'MAINT', purpose: 'V-belts for the press line', lines: [{ ...belts, qty: beltQty + d.int(2, 6) }], expect: `approve: ${earlierBelts.id} had the same item in another quantity` },
  ];
  const planted = d.shuffle(plants).map((p) => ({ ...p, id: requisitionOf(ctx, p) }));
  return {
    planted: [
      ...planted.map((p) => ({ id: p.id, clauses: ['APR-1.1', ...p.clauses], description: `${p.kind}: ${p.requester}, ${p.purpose}; ${p.expect}` })),
      { id: 'ops-manager-leave', clauses: ['APR-1.6', 'APR-2.1'], description: `zoe.adams is on leave ${TURN} to ${WEEK_END}, daniel.okafor her delegate: routings to her go to him, and the leave is not the manager's to change` },
    ],
  };
}
