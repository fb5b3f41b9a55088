import { addDays, addMonths } from '../../domain/calendar';
import { formatCents } from '../../domain/money';
import type { ScenarioBuilder } from '../builder';
import { setUpOrganisation, shareBoxes, type Organisation } from '../organisation';
import { rng } from '../random';
import { buildCatalog, SUBSTITUTES, WAREHOUSES, type ItemSpec } from './catalog';
import { CHART, DEPARTMENT_BUDGETS } from './chart';
import { setUpPlant } from './plant';
import { designProduction, type ProductionDesign } from './production-design';
import { buildCustomers, buildVendors, type CustomerSpec, type VendorSpec } from './parties';
import { BANK_USER, COMPANY, CUSTOMER_DESK, DEPARTMENTS, ROLE_GRANTS, SIMULATOR_USER, STAFF, VENDOR_DESK } from './roster';
import { buildSalesMaster, type SalesMaster } from './sales-master';

export const SHARED_BOXES: [box: string, name: string][] = [['ap', 'Accounts payable'], ['purchasing', 'Purchasing'], ['accounting', 'Accounting'], ['sales', 'Sales'], ['ar', 'Accounts receivable']];

/** Limits of the delegation-of-authority table, in dollars: [role, document type, amount]. */
export const APPROVAL_LIMITS: [string, string, number][] = [
  ['executive', 'requisition', 1_000_000], ['executive', 'purchase_order', 1_000_000], ['executive', 'payment_run', 5_000_000], ['executive', 'journal_entry', 5_000_000],
  ['executive', 'non_po_invoice', 1_000_000], ['executive', 'ap_invoice', 1_000_000],
  ['controller', 'requisition', 100_000], ['controller', 'purchase_order', 100_000], ['controller', 'payment_run', 500_000], ['controller', 'journal_entry', 250_000],
  ['controller', 'non_po_invoice', 50_000], ['controller', 'ap_invoice', 250_000],
  ['operations_manager', 'requisition', 25_000], ['operations_manager', 'purchase_order', 50_000],
  ['purchasing_manager', 'requisition', 10_000], ['purchasing_manager', 'purchase_order', 25_000],
  ['buyer', 'purchase_order', 5_000], ['planner', 'purchase_order', 5_000],
  ['production_manager', 'requisition', 5_000], ['warehouse_manager', 'requisition', 5_000], ['sales_manager', 'requisition', 5_000], ['department_head', 'requisition', 5_000],
  ['ap_supervisor', 'ap_invoice', 25_000], ['ap_supervisor', 'non_po_invoice', 5_000], ['ap_clerk', 'ap_invoice', 5_000],
];

const HOLIDAYS: [string, string][] = [
  ['2025-11-27', 'Thanksgiving Day'], ['2025-11-28', 'Day after Thanksgiving'], ['2025-12-25', 'Christmas Day'], ['2026-01-01', "New Year's Day"],
  ['2026-05-25', 'Memorial Day'], ['2026-07-03', 'Independence Day (observed)'], ['2026-09-07', 'Labor Day'], ['2026-11-26', 'Thanksgiving Day'],
  ['2026-11-27', 'Day after Thanksgiving'], ['2026-12-25', 'Christmas Day'],
];

/** Northgate's people, calendar and delegation of authority, as every generator sets them up. */
export const ORGANISATION: Organisation = {
  company: COMPANY, holidays: HOLIDAYS, departments: DEPARTMENTS, roles: ROLE_GRANTS, staff: STAFF, approvalLimits: APPROVAL_LIMITS, sharedBoxes: SHARED_BOXES,
  others: [
    { ...BANK_USER, role: 'bank', kind: 'counterparty' },
    { ...SIMULATOR_USER, role: 'scenario', kind: 'system' },
    { ...VENDOR_DESK, role: 'vendor', kind: 'counterparty' },
    { ...CUSTOMER_DESK, role: 'customer', kind: 'counterparty' },
  ],
};

export interface NorthgateMaster {
  items: ItemSpec[];
  vendors: VendorSpec[];
  customers: CustomerSpec[];
  /** Vendors that supply each item category. */
  suppliers: Record<string, string[]>;
  /** Each bought item's preferred vendor. */
  preferredVendor: Record<string, string>;
  agreements: { vendor: string; item: string }[];
  /** BOMs, routings, work centers and what MRP plans (production-design.ts). */
  production: ProductionDesign;
  sales: SalesMaster;
}

const dollars = (cents: number) => formatCents(cents, false);

/** Builds everything but the transaction history, as of the first day of history. */
export function buildMaster(b: ScenarioBuilder, historyStart: string): NorthgateMaster {
  const seed = b.seed;
  b.advanceTo(historyStart);
  setUpOrganisation(b, ORGANISATION);
  b.sys('POST', '/purchasing/approval-policy', { rule: 'named_user', user: 'maya.chen' });
  shareBoxes(b, ORGANISATION);

  const r = rng(seed, 'northgate.master');
  scheduleLeaves(b, historyStart);

  for (const [code, name, type, subledger] of CHART) b.sys('POST', '/accounts', { code, name, type, ...(subledger ? { subledger } : {}) });
  b.sys('POST', '/bank-accounts', { id: 'BANK-OP', name: 'Operating account', gl_account: '1000', bank_name: 'First Ohio Bank', account_number: `0004${r.digits(8)}` });
  b.sys('POST', '/bank-accounts', { id: 'BANK-PR', name: 'Payroll account', gl_account: '1010', bank_name: 'First Ohio Bank', account_number: `0004${r.digits(8)}` });
  for (const code of ['NET15', 'NET30', 'NET45', '2/10NET30', '1/10NET30']) b.sys('POST', '/payment-terms', { code });
  b.sys('POST', '/tax-codes', { code: 'OH-MONT', rate_bp: 725, description: 'Ohio, Montgomery County' });
  b.sys('POST', '/tax-codes', { code: 'NV-WASH', rate_bp: 8265, description: 'Nevada, Washoe County' });
  b.sys('POST', '/tax-codes', { code: 'EXEMPT', rate_bp: 0, description: 'Exempt (resale certificate on file)' });
  for (const [id, name, region, locations] of WAREHOUSES) {
    b.sys('POST', '/warehouses', { id, name, region });
    for (const code of locations) b.sys('POST', `/warehouses/${id}/locations`, { code });
  }

  const vendors = buildVendors(rng(seed, 'northgate.vendors'));
  const suppliers: Record<string, string[]> = {};
  for (const v of vendors) {
    (suppliers[v.category] ??= []).push(v.id);
    b.sys('POST', '/vendors', {
      id: v.id, name: v.name, terms: v.terms, tin: v.tin, email: v.email, phone: v.phone, address: v.address, remit_to: v.remitTo, kind: v.kind,
      ...(v.defaultExpenseAccount ? { default_expense_account: v.defaultExpenseAccount } : {}),
    });
  }
  b.issueTokens([...STAFF.map((u) => u.id), BANK_USER.id, SIMULATOR_USER.id, VENDOR_DESK.id, CUSTOMER_DESK.id]);
  for (const v of vendors) verifyOnboardingBankAccount(b, v);

  const items = buildCatalog(rng(seed, 'northgate.items'));
  const production = designProduction(items, rng(seed, 'northgate.production'));
  const ir = rng(seed, 'northgate.item-vendors');
  const preferredVendor: Record<string, string> = {};
  for (const item of items) {
    const preferred = item.category === 'made' ? undefined : ir.pick(suppliers[item.category] ?? []);
    b.sys('POST', '/items', {
      id: item.id, description: item.description, type: item.type, unit: item.unit, category: item.category, lot_controlled: item.lotControlled,
      ...(item.shelfLifeDays ? { shelf_life_days: item.shelfLifeDays } : {}), standard_cost: dollars(item.standardCost),
      ...(preferred ? { preferred_vendor: preferred } : {}), lead_time_days: item.leadTimeDays, order_multiple: item.orderMultiple, moq: item.moq, safety_stock: item.safetyStock ?? 0,
      ...(item.type === 'stock' ? { inventory_account: '1300' } : { expense_account: item.expenseAccount }),
    });
    if (preferred) preferredVendor[item.id] = preferred;
  }
  const agreements: { vendor: string; item: string }[] = [];
  const pr = rng(seed, 'northgate.prices');
  for (const item of items) {
    const vendor = preferredVendor[item.id];
    if (!vendor || item.type !== 'stock' || !pr.chance(0.55)) continue;
    const base = Math.round(item.standardCost * (0.96 + pr.float() * 0.08));
    const q = item.moq;
    b.sys('POST', '/price-agreements', {
      vendor, item: item.id, valid_from: '2026-01-01', valid_to: '2026-12-31', reference: `Annual agreement 2026 ${vendor}`,
      breaks: [{ min_qty: 0, unit_price: dollars(base) }, { min_qty: q * 5, unit_price: dollars(Math.round(base * 0.97)) }, { min_qty: q * 20, unit_price: dollars(Math.round(base * 0.94)) }],
    });
    agreements.push({ vendor, item: item.id });
  }
  for (const [item, substitute] of SUBSTITUTES) b.sys('POST', '/approved-substitutes', { item, substitute });

  const customers = buildCustomers(rng(seed, 'northgate.customers'));
  const sales = buildSalesMaster(b, items, customers, historyStart);

  setBudgets(b, rng(seed, 'northgate.budgets'));
  b.sys('POST', '/ledger/journal-policy', { preparer_may_approve_up_to: '0.00' });
  setUpPlant(b, production);
  return { items, vendors, customers, suppliers, preferredVendor, agreements, sales, production };
}

/** Each staff member takes one or two weeks off during the year, on dates drawn from the seed. */
function scheduleLeaves(b: ScenarioBuilder, historyStart: string): void {
  const r = rng(b.seed, 'northgate.leaves');
  for (const u of STAFF) {
    const weeks = r.int(1, 2);
    for (let w = 0; w < weeks; w++) {
      const start = addDays(historyStart, r.int(10, 350));
      const delegate = u.manager ?? STAFF.find((s) => s.manager === u.id)?.id;
      b.sys('POST', '/leaves', { user: u.id, start_date: start, end_date: addDays(start, r.int(2, 9)), ...(delegate ? { delegate } : {}) });
    }
  }
}

/**
 * A new vendor's bank account, as the AP team set it up at onboarding: the clerk records it from
 * the vendor's form, the supervisor calls the number on file, and verifies after the vendor confirms.
 */
function verifyOnboardingBankAccount(b: ScenarioBuilder, v: VendorSpec): void {
  const account = b.as('omar.haddad', 'POST', `/vendors/${v.id}/bank-accounts`, { bank_name: v.bank.bankName, routing_number: v.bank.routing, account_number: v.bank.account, source: 'vendor onboarding form' });
  const topic = { record_type: 'vendor_bank_account', record_id: account.id as string };
  b.as(SIMULATOR_USER.id, 'POST', '/call-scripts', {
    number: v.phone, party_type: 'vendor', party_id: v.id, topic, answered_by: `${v.name}, accounts receivable`, outcome: 'confirmed',
    facts: `Yes, those are our remittance details at ${v.bank.bankName}, account ending ${v.bank.account.slice(-4)}.`,
  });
  b.as('hannah.brooks', 'POST', '/calls', { party_type: 'vendor', party_id: v.id, topic });
  b.as('hannah.brooks', 'POST', `/vendor-bank-accounts/${account.id}/verify`, { note: 'Confirmed by call-back to the number on file at onboarding.' });
}

function setBudgets(b: ScenarioBuilder, r: ReturnType<typeof rng>): void {
  for (const [department, accounts] of Object.entries(DEPARTMENT_BUDGETS)) {
    const lines: { account: string; month: string; amount: string }[] = [];
    for (const [account, monthly] of accounts) {
      for (let m = 0; m < 12; m++) {
        const month = addMonths('2026-01-01', m).slice(0, 7);
        lines.push({ account, month, amount: dollars(Math.round(monthly * (0.9 + r.float() * 0.2)) * 100) });
      }
    }
    b.sys('POST', '/budgets', { department, lines, note: 'Fiscal year 2026 budget' });
  }
}
