import { ContractPriceSet, PriceListCreated, PriceListPriceSet, RebateAgreementCreated, type RebateTier } from '../events/contracts/sales';
import { defineReadModel, on } from './read-model';

export interface PriceListRow {
  id: string;
  name: string;
  currency: string;
  note: string;
  created_by: string;
  created_date: string;
}

export interface PriceListPriceRow {
  price_list: string;
  item: string;
  min_qty: number;
  valid_from: string;
  valid_to: string | null;
  unit_price: number;
  note: string;
  set_by: string;
  set_date: string;
  event_id: number;
}

export interface ContractPriceRow {
  id: string;
  customer: string;
  item: string;
  unit_price: number;
  valid_from: string;
  valid_to: string | null;
  reference: string;
  note: string;
  created_by: string;
  created_date: string;
}

export interface RebateAgreementRow {
  id: string;
  customer: string;
  valid_from: string;
  valid_to: string;
  tiers: RebateTier[];
  reference: string;
  note: string;
  created_by: string;
  created_date: string;
}

type R<T> = T & Record<string, unknown>;
const stamp = (e: { actor: string; businessDate: string; wallTime: string }) => ({ created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime });
const inEffect = (r: { valid_from: string; valid_to: string | null }, date: string) => r.valid_from <= date && (r.valid_to === null || date <= r.valid_to);

/**
 * Price lists with their prices by item, quantity break and validity dates; customers' contract
 * prices; volume rebate agreements. What a line's price is granted by (docs/sales.md, "Prices").
 */
export const salesPricing = defineReadModel({
  name: 'sales-pricing',
  tables: [
    { name: 'price_lists', columns: { id: 'text', name: 'text', currency: 'text', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' }, key: ['id'] },
    {
      name: 'price_list_prices',
      columns: {
        price_list: 'text', item: 'text', min_qty: 'real', valid_from: 'text', valid_to: 'text', unit_price: 'integer', note: 'text', set_by: 'text', set_date: 'text',
        event_id: 'integer', created_wall: 'text',
      },
      key: ['price_list', 'item', 'min_qty', 'valid_from'],
      indexes: [['item']],
    },
    {
      name: 'contract_prices',
      columns: {
        id: 'text', customer: 'text', item: 'text', unit_price: 'integer', valid_from: 'text', valid_to: 'text', reference: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['customer', 'item']],
    },
    {
      name: 'rebate_agreements',
      columns: {
        id: 'text', customer: 'text', valid_from: 'text', valid_to: 'text', tiers: 'json', reference: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['customer']],
    },
  ],
  handlers: [
    on(PriceListCreated, (tx, d, e) => tx.insert('price_lists', { ...d, ...stamp(e) })),
    on(PriceListPriceSet, (tx, d, e) => {
      const row = { ...d, set_by: e.actor, set_date: e.businessDate, event_id: e.seq, created_wall: e.wallTime };
      tx.upsert('price_list_prices', row, (r) => Object.assign(r, row));
    }),
    on(ContractPriceSet, (tx, d, e) => tx.insert('contract_prices', { ...d, ...stamp(e) })),
    on(RebateAgreementCreated, (tx, d, e) => tx.insert('rebate_agreements', { ...d, ...stamp(e) })),
  ],
  queries: (t) => ({
    priceList: (id: string) => t.get<R<PriceListRow>>('price_lists', id),
    pricesOf: (priceList: string) => t.find<R<PriceListPriceRow>>('price_list_prices', { price_list: priceList }, { orderBy: ['item', 'valid_from', 'min_qty'] }),
    /**
     * The list's price for a quantity on a date: among the prices in effect, those that took effect
     * last, at the highest break the quantity reaches.
     */
    listPrice(priceList: string, item: string, qty: number, date: string): R<PriceListPriceRow> | undefined {
      const rows = t.find<R<PriceListPriceRow>>('price_list_prices', { price_list: priceList, item }, { orderBy: ['valid_from desc', 'min_qty desc'] }).filter((r) => inEffect(r, date));
      const latest = rows[0]?.valid_from;
      return rows.find((r) => r.valid_from === latest && qty >= r.min_qty);
    },
    contractPrice(customer: string, item: string, date: string): R<ContractPriceRow> | undefined {
      return t.find<R<ContractPriceRow>>('contract_prices', { customer, item }, { orderBy: ['valid_from desc', 'id desc'] }).find((r) => inEffect(r, date));
    },
    contract: (id: string) => t.get<R<ContractPriceRow>>('contract_prices', id),
    contractsOf: (customer: string) => t.find<R<ContractPriceRow>>('contract_prices', { customer }, { orderBy: ['item', 'valid_from'] }),
    rebateAgreement: (id: string) => t.get<R<RebateAgreementRow>>('rebate_agreements', id),
    rebateAgreementsOf: (customer: string) => t.find<R<RebateAgreementRow>>('rebate_agreements', { customer }, { orderBy: ['valid_from', 'id'] }),
    rebateAgreements: () => t.find<R<RebateAgreementRow>>('rebate_agreements', {}, { orderBy: ['customer', 'valid_from', 'id'] }),
  }),
});
