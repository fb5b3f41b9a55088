import { formatCents } from '../../domain/money';
import type { ScenarioBuilder } from '../builder';
import { rng } from '../random';
import type { ItemSpec } from './catalog';
import type { CustomerSpec } from './parties';

/** How Northgate sells to one customer: its list, the parent that pays for it, freight, the valves it buys and how much. */
export interface CustomerTerms {
  id: string;
  distributor: boolean;
  priceList: 'LIST' | 'DIST';
  parent: string | null;
  freightTerms: 'prepaid' | 'prepay_and_add' | 'collect';
  /** The finished valves it usually orders. */
  favourites: string[];
  /** Its share of orders and of their size: the square root of its credit limit. */
  weight: number;
}

export interface SalesMaster {
  customers: Record<string, CustomerTerms>;
  /** The finished valves Northgate sells, by id. */
  finishedGoods: ItemSpec[];
  /** Distributors with a volume rebate agreement for 2026. */
  rebateCustomers: string[];
  /** Distributors with contract prices. */
  contractCustomers: string[];
}

const dollars = (cents: number) => formatCents(cents, false);
const toHalfDollar = (cents: number) => Math.round(cents / 50) * 50;

/** List price over standard cost by valve family: manufactured valves sell well above cost. */
const MARKUP: Record<string, number> = { BV: 2.1, GV: 1.9, CV: 2.0, GLV: 2.2 };
const DISTRIBUTOR_DISCOUNT = 0.85;
/** The list price rise of 1 January 2026. */
const PRICE_RISE_2026 = 1.03;

export const isFinishedGood = (item: ItemSpec) => /^(BV|GV|CV|GLV)-/.test(item.id);

/**
 * Northgate's prices and customers (seed 000 environment §2): a list for contractors and a
 * distributor list 15% below it, both raised 3% on 1 January; customers on them with their freight
 * terms, two subsidiaries whose parents pay for them, contract prices for the largest distributors
 * for each year, and volume rebates for 2026.
 */
export function buildSalesMaster(b: ScenarioBuilder, items: ItemSpec[], customers: CustomerSpec[], historyStart: string): SalesMaster {
  const r = rng(b.seed, 'northgate.sales');
  const finishedGoods = items.filter(isFinishedGood);
  b.sys('POST', '/price-lists', { id: 'LIST', name: 'List prices (contractors)' });
  b.sys('POST', '/price-lists', { id: 'DIST', name: 'Distributor prices' });
  const list2025 = new Map<string, number>();
  for (const item of finishedGoods) {
    const list = toHalfDollar(item.standardCost * MARKUP[item.id.split('-')[0]!]! * (0.95 + r.float() * 0.1));
    list2025.set(item.id, list);
    const list2026 = toHalfDollar(list * PRICE_RISE_2026);
    for (const [from, to, price] of [[historyStart, '2025-12-31', list], ['2026-01-01', null, list2026]] as const) {
      b.sys('POST', '/price-lists/LIST/prices', { item: item.id, unit_price: dollars(price), valid_from: from, ...(to ? { valid_to: to } : {}) });
      const dist = toHalfDollar(price * DISTRIBUTOR_DISCOUNT);
      b.sys('POST', '/price-lists/DIST/prices', { item: item.id, unit_price: dollars(dist), valid_from: from, ...(to ? { valid_to: to } : {}) });
      b.sys('POST', '/price-lists/DIST/prices', { item: item.id, unit_price: dollars(toHalfDollar(dist * 0.97)), min_qty: 100, valid_from: from, ...(to ? { valid_to: to } : {}), note: 'Pallet quantity' });
    }
  }
  b.sys('POST', '/sales/policy', { default_price_list: 'LIST' });

  const terms: Record<string, CustomerTerms> = {};
  const distributors = customers.filter((c) => c.taxExempt);
  const subsidiaries = new Map<string, string>();
  for (const sub of r.sample(distributors.slice(2), Math.min(2, Math.max(0, distributors.length - 2)))) {
    const parents = distributors.filter((p) => p.id < sub.id && !subsidiaries.has(p.id) && ![...subsidiaries.values()].includes(sub.id));
    if (parents.length) subsidiaries.set(sub.id, r.pick(parents).id);
  }
  for (const c of customers) {
    const favourites = r.sample(finishedGoods, r.int(3, 6)).map((i) => i.id).sort();
    terms[c.id] = {
      id: c.id, distributor: c.taxExempt, priceList: c.taxExempt ? 'DIST' : 'LIST', parent: subsidiaries.get(c.id) ?? null,
      freightTerms: c.taxExempt ? (r.chance(0.7) ? 'prepaid' : 'collect') : 'prepay_and_add', favourites, weight: Math.sqrt(c.creditLimit / 100),
    };
    const t = terms[c.id]!;
    b.sys('POST', '/customers', {
      id: c.id, name: c.name, credit_limit: dollars(c.creditLimit), terms: c.terms, tax_exempt: c.taxExempt, email: c.email, phone: c.phone,
      price_list: t.priceList, freight_terms: t.freightTerms, ...(t.parent ? { parent: t.parent } : {}),
    });
    for (const st of c.shipTos) b.sys('POST', `/customers/${c.id}/ship-to`, { ...st, tax_code: c.taxExempt ? 'EXEMPT' : st.region === 'west' ? 'NV-WASH' : 'OH-MONT' });
  }

  const largest = [...distributors].sort((a, z) => z.creditLimit - a.creditLimit || (a.id < z.id ? -1 : 1));
  const contractCustomers = largest.slice(0, 6).map((c) => c.id);
  for (const id of contractCustomers) {
    for (const item of terms[id]!.favourites.slice(0, 2)) {
      const base = toHalfDollar(list2025.get(item)! * DISTRIBUTOR_DISCOUNT);
      b.sys('POST', '/contract-prices', { customer: id, item, unit_price: dollars(toHalfDollar(base * 0.95)), valid_from: historyStart, valid_to: '2025-12-31', reference: `Supply agreement ${id} 2025` });
      b.sys('POST', '/contract-prices', { customer: id, item, unit_price: dollars(toHalfDollar(base * PRICE_RISE_2026 * 0.95)), valid_from: '2026-01-01', valid_to: '2026-12-31', reference: `Supply agreement ${id} 2026` });
    }
  }
  const rebateCustomers = largest.slice(0, 3).map((c) => c.id);
  for (const id of rebateCustomers) {
    b.sys('POST', '/rebate-agreements', {
      customer: id, valid_from: '2026-01-01', valid_to: '2026-12-31', reference: `Volume rebate ${id} 2026`,
      tiers: [{ min_amount: '40000.00', rebate_bp: 100 }, { min_amount: '80000.00', rebate_bp: 200 }, { min_amount: '150000.00', rebate_bp: 300 }],
    });
  }
  return { customers: terms, finishedGoods, rebateCustomers, contractCustomers };
}
