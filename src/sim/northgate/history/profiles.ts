import type { Rng } from '../../random';
import type { World } from '../../world';
import type { NorthgateMaster } from '../master';
import { BANK_USER, VENDOR_DESK } from '../roster';

/**
 * How Northgate's counterparties behave, drawn from the seed: approvers by the delegation-of-
 * authority table, vendors with their lead times and habits, the warehouse receiving what arrives.
 */
export function counterpartyProfiles(world: World, master: NorthgateMaster, r: Rng): void {
  world.actors.approvers = {
    approvers: {
      'maya.chen': {
        budget_level: 'account',
        over_limit: { action: 'route', to: 'zoe.adams', reason: 'over_limit' },
        own_request: { action: 'route', to: 'zoe.adams', reason: 'own_request' },
        over_budget: { action: 'route', to: 'grace.lin', reason: 'over_budget' },
      },
      'zoe.adams': { budget_level: 'account', over_limit: { action: 'route', to: 'grace.lin', reason: 'over_limit' }, over_budget: { action: 'route', to: 'grace.lin', reason: 'over_budget' } },
      'grace.lin': { budget_check: false, over_limit: { action: 'route', to: 'daniel.okafor', reason: 'over_limit' } },
      'daniel.okafor': { budget_check: false },
    },
  };
  const vendors: Record<string, unknown> = {};
  for (const v of master.vendors) {
    if (!v.poVendor) continue;
    const profile: Record<string, unknown> = { ack_delay_days: r.int(1, 2), transit_days: r.int(0, 2), expedite: { accept: r.chance(0.6), min_lead_days: r.int(2, 5) } };
    if (r.chance(0.15)) profile.default = { fill_rate: 0.9, backorder_days: r.int(3, 8) };
    else if (r.chance(0.1)) profile.default = { over_ship_pct: r.pick([1, 1.5, 2]) };
    vendors[v.id] = profile;
  }
  const billing: Record<string, unknown> = {};
  for (const v of master.vendors) {
    if (!v.poVendor) continue;
    billing[v.id] = {
      from: v.email, from_name: `${v.name} accounts receivable`, trigger: 'receipt', delay_days: r.int(1, 4),
      number_prefix: r.pick(['INV-', '', `${v.id.slice(2)}-`, 'IN']), first_number: r.int(1000, 89000),
    };
  }
  world.actors.vendors = {
    user: VENDOR_DESK.id, vendors,
    billing: { as: VENDOR_DESK.id, ap_box: 'ap', ap_address: 'ap@northgatevalve.example', enter_as: 'omar.haddad', vendors: billing },
    disputes: {
      as: VENDOR_DESK.id, default: { decision: 'credit', delay_days: 2 },
      vendors: { [slowToCredit(master)]: { decision: 'credit', delay_days: DEMAND_CHARGE_CREDIT_DAYS, note: 'Rate schedule corrected; the demand charge is credited.' } },
    },
  };
  world.actors.bank = { payments: { as: BANK_USER.id, fees: monthlyFees() }, statements: { as: BANK_USER.id, interest: monthlyInterest() } };
  world.actors.managers = { journal_entries: { as: 'grace.lin', return_reason: 'missing_support' } };
  (world.actors.approvers as Record<string, unknown>).payment_runs = { as: 'grace.lin', release: true };
  world.actors.warehouse = { clerk: 'luis.romero', auto_receive: true, warehouses: ['DAY'], locations: { DAY: 'RCV' } };
}

/** Business days the power company takes to credit a disputed demand charge: about two months. */
export const DEMAND_CHARGE_CREDIT_DAYS = 40;

/**
 * The utility whose bill carries a demand charge on the wrong rate schedule every month: AP disputes
 * it, and the utility takes two months to credit it, so its bills are always the oldest in the AP
 * aging.
 */
export function slowToCredit(master: NorthgateMaster): string {
  const utility = master.vendors.find((v) => v.category === 'utilities');
  if (!utility) throw new Error('Northgate has no utility vendor.');
  return utility.id;
}

/** Interest the bank credits on the operating account at each month's last business day (a small sweep rate). */
function monthlyInterest(): { date: string; bank_account: string; amount_cents: number; description: string }[] {
  const credits = [];
  for (let m = 0; m < 12; m++) {
    const date = new Date(Date.UTC(2025, 10 + m, 0));
    while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() - 1);
    credits.push({ date: date.toISOString().slice(0, 10), bank_account: 'BANK-OP', amount_cents: 3_000 + ((m * 1_733) % 6_000), description: 'Interest credited' });
  }
  return credits;
}

/** The bank's monthly account analysis fee on the operating account, the first business day of each month. */
function monthlyFees(): { date: string; bank_account: string; amount_cents: number; description: string }[] {
  const fees = [];
  for (let m = 0; m < 12; m++) {
    const date = new Date(Date.UTC(2025, 10 + m, 1));
    while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() + 1);
    fees.push({ date: date.toISOString().slice(0, 10), bank_account: 'BANK-OP', amount_cents: 4500, description: 'Account analysis fee' });
  }
  return fees;
}
