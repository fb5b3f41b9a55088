import { formatCents } from '../../domain/money';
import type { ScenarioBuilder } from '../builder';
import { setUpOrganisation, shareBoxes, type Organisation } from '../organisation';
import type { Rng } from '../random';
import { buildVendors, ITEMS, vendorPrice, type ItemSpec, type VendorSpec } from './catalog';
import {
  APPROVAL_LIMITS, BANK_USER, COMPANY, DEPARTMENTS, HOLIDAYS, ROLE_GRANTS, SHARED_BOXES, SIMULATOR_USER, STAFF, VENDOR_DESK, VENDOR_MANAGER,
} from './roster';

/** Halvorsen's chart of accounts: [code, name, type, subledger of a control account]. */
const CHART: [string, string, 'asset' | 'liability' | 'equity' | 'revenue' | 'expense', ('cash' | 'ar' | 'inventory' | 'ap' | 'grni')?][] = [
  ['1000', 'Cash, operating', 'asset', 'cash'], ['1200', 'Accounts receivable', 'asset', 'ar'], ['1300', 'Inventory', 'asset', 'inventory'],
  ['1400', 'Prepaid expenses', 'asset'], ['2000', 'Accounts payable', 'liability', 'ap'], ['2100', 'Goods received not invoiced', 'liability', 'grni'],
  ['2200', 'Sales and use tax', 'liability'], ['2300', 'Accrued liabilities', 'liability'], ['3000', "Owner's equity", 'equity'],
  ['3100', 'Retained earnings', 'equity'], ['4000', 'Sales', 'revenue'], ['4900', 'Purchase discounts taken', 'revenue'], ['4950', 'Other income', 'revenue'],
  ['5000', 'Cost of goods sold', 'expense'], ['5100', 'Purchase price variance', 'expense'], ['5110', 'Purchase quantity variance', 'expense'],
  ['5200', 'Freight in', 'expense'], ['6100', 'Rent', 'expense'], ['6200', 'Repairs and maintenance', 'expense'], ['6300', 'Wages', 'expense'],
  ['6500', 'Software and IT services', 'expense'], ['6600', 'Cleaning and facility services', 'expense'], ['6800', 'Bank fees', 'expense'],
  ['6900', 'Miscellaneous expense', 'expense'],
];

export const WAREHOUSE = 'MAIN';
export const OPERATING_ACCOUNT = 'BANK-OP';

export interface HalvorsenMaster {
  vendors: VendorSpec[];
  /** Each vendor's unit price per item it sells, in cents. */
  prices: Record<string, Record<string, number>>;
  items: ItemSpec[];
}

const dollars = (cents: number) => formatCents(cents, false);

/** Halvorsen's people, calendar and delegation of authority, as every generator sets them up. */
export const ORGANISATION: Organisation = {
  company: COMPANY, holidays: HOLIDAYS, departments: DEPARTMENTS, roles: ROLE_GRANTS, staff: STAFF, approvalLimits: APPROVAL_LIMITS, sharedBoxes: SHARED_BOXES,
  others: [
    { ...BANK_USER, role: 'bank', kind: 'counterparty' },
    { ...VENDOR_DESK, role: 'vendor', kind: 'counterparty' },
    { ...SIMULATOR_USER, role: 'scenario', kind: 'system' },
  ],
};

/** Everything but the transactions, on the first day of history: the company, its people, books, items and vendors. */
export function buildMaster(b: ScenarioBuilder, start: string, r: { vendors: Rng; prices: Rng; bank: Rng }): HalvorsenMaster {
  b.advanceTo(start);
  setUpOrganisation(b, ORGANISATION);
  shareBoxes(b, ORGANISATION);

  for (const [code, name, type, subledger] of CHART) b.sys('POST', '/accounts', { code, name, type, ...(subledger ? { subledger } : {}) });
  b.sys('POST', '/bank-accounts', { id: OPERATING_ACCOUNT, name: 'Operating account', gl_account: '1000', bank_name: BANK_USER.name, account_number: `3300${r.bank.digits(8)}` });
  for (const code of ['NET15', 'NET30', 'NET45']) b.sys('POST', '/payment-terms', { code });
  // The handbook's matching tolerance (seed 004: a unit price more than 2% off the PO is a variance).
  b.sys('POST', '/payables/policy', {
    price_tolerance_bp: 200, price_variance_account: '5100', quantity_variance_account: '5110', freight_account: '5200', tax_account: '2200',
    write_off_account: '4950', discount_account: '4900',
  });
  b.sys('POST', '/warehouses', { id: WAREHOUSE, name: 'Duluth distribution center', region: 'north' });
  b.sys('POST', `/warehouses/${WAREHOUSE}/locations`, { code: 'RCV' });
  for (const item of ITEMS) {
    b.sys('POST', '/items', {
      id: item.id, description: item.description, type: item.type, unit: item.unit, category: item.category, standard_cost: dollars(item.basePrice),
      ...(item.type === 'stock' ? { inventory_account: '1300', expense_account: '5000' } : { expense_account: item.expenseAccount }),
    });
  }

  const vendors = buildVendors(r.vendors);
  const prices: Record<string, Record<string, number>> = {};
  for (const v of vendors) {
    b.sys('POST', '/vendors', { id: v.id, name: v.name, terms: v.terms, tin: v.tin, email: v.email, phone: v.phone, address: v.address, remit_to: v.address, kind: v.pattern === 'service' ? 'services' : 'goods' });
    prices[v.id] = Object.fromEntries(ITEMS.filter((i) => i.category === v.category).map((i) => [i.id, vendorPrice(r.prices, i)]));
  }
  b.issueTokens([...STAFF.map((u) => u.id), BANK_USER.id, VENDOR_DESK.id, SIMULATOR_USER.id]);
  for (const v of vendors) verifyByCallBack(b, v, v.bank, 'vendor onboarding form', 'Confirmed by call-back to the number on file at onboarding.');
  return { vendors, prices, items: ITEMS };
}

/**
 * A vendor bank account as Vendor Management sets it up: recorded from the vendor's request, then
 * verified after a call to the number on file confirms it (the call answered by the scenario's script).
 */
export function verifyByCallBack(b: ScenarioBuilder, v: VendorSpec, bank: VendorSpec['bank'], source: string, note: string): string {
  const account = b.as(VENDOR_MANAGER, 'POST', `/vendors/${v.id}/bank-accounts`, { bank_name: bank.bankName, routing_number: bank.routing, account_number: bank.account, source });
  const topic = { record_type: 'vendor_bank_account', record_id: account.id as string };
  b.as(SIMULATOR_USER.id, 'POST', '/call-scripts', {
    number: v.phone, party_type: 'vendor', party_id: v.id, topic, answered_by: `${v.name}, accounts receivable`, outcome: 'confirmed',
    facts: `Yes, those are our remittance details at ${bank.bankName}, account ending ${bank.account.slice(-4)}.`,
  });
  b.as(VENDOR_MANAGER, 'POST', '/calls', { party_type: 'vendor', party_id: v.id, topic });
  b.as(VENDOR_MANAGER, 'POST', `/vendor-bank-accounts/${account.id}/verify`, { note });
  return account.id as string;
}
