import {
  ApprovedSubstituteAdded, ApprovedSubstituteRemoved, ItemCreated, ItemPlanningUpdated, LocationCreated, PriceAgreementCreated, WarehouseCreated,
} from '../events/contracts/master';
import { documentStamp, type StatusChange } from './history';
import { defineReadModel, on } from './read-model';

export interface ItemRow {
  id: string;
  description: string;
  type: 'stock' | 'non_stock' | 'service';
  unit: string;
  category: string;
  lot_controlled: boolean;
  shelf_life_days: number | null;
  standard_cost: number;
  preferred_vendor: string | null;
  lead_time_days: number;
  order_multiple: number;
  moq: number;
  safety_stock: number;
  inventory_account: string | null;
  expense_account: string | null;
  status: 'active';
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface PriceAgreementRow {
  id: string;
  vendor: string;
  item: string;
  breaks: { min_qty: number; unit_price: number }[];
  valid_from: string;
  valid_to: string | null;
  reference: string;
  created_by: string;
  created_date: string;
}

export interface SubstituteRow {
  item: string;
  substitute: string;
  /** A vendor id, or ANY_VENDOR when the substitute is approved from every vendor. */
  vendor: string;
  status: 'approved' | 'removed';
  note: string;
  changed_by: string;
  changed_date: string;
}

/** The price an agreement gives for a quantity on a date. */
export interface AgreedPrice {
  agreement: string;
  unit_price: number;
  min_qty: number;
}

/** Key columns cannot be NULL: a substitute approved from any vendor is stored under this marker. */
export const ANY_VENDOR = '*';

type Item = ItemRow & Record<string, unknown>;
type Agreement = PriceAgreementRow & Record<string, unknown>;
type Substitute = SubstituteRow & Record<string, unknown>;

/** Items with their planning data, warehouses and locations, price agreements and approved substitutes. */
export const items = defineReadModel({
  name: 'items',
  tables: [
    {
      name: 'items',
      columns: {
        id: 'text', description: 'text', type: 'text', unit: 'text', category: 'text', lot_controlled: 'bool', shelf_life_days: 'integer',
        standard_cost: 'integer', preferred_vendor: 'text', lead_time_days: 'integer', order_multiple: 'real', moq: 'real', safety_stock: 'real',
        inventory_account: 'text', expense_account: 'text', status: 'text', created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['preferred_vendor']],
    },
    { name: 'warehouses', columns: { id: 'text', name: 'text', region: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' }, key: ['id'] },
    { name: 'locations', columns: { warehouse: 'text', code: 'text', description: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' }, key: ['warehouse', 'code'] },
    {
      name: 'price_agreements',
      columns: { id: 'text', vendor: 'text', item: 'text', breaks: 'json', valid_from: 'text', valid_to: 'text', reference: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' },
      key: ['id'],
      indexes: [['vendor', 'item']],
    },
    {
      name: 'approved_substitutes',
      columns: { item: 'text', substitute: 'text', vendor: 'text', status: 'text', note: 'text', changed_by: 'text', changed_date: 'text' },
      key: ['item', 'substitute', 'vendor'],
    },
  ],
  handlers: [
    on(ItemCreated, (tx, d, e) => tx.insert('items', { ...d, status: 'active', ...documentStamp(e, 'active') })),
    on(ItemPlanningUpdated, (tx, d) => void tx.update<Item>('items', d.item, (r) => {
      Object.assign(r, { preferred_vendor: d.preferred_vendor, lead_time_days: d.lead_time_days, order_multiple: d.order_multiple, moq: d.moq, safety_stock: d.safety_stock });
    })),
    on(WarehouseCreated, (tx, d, e) => tx.insert('warehouses', { ...d, created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime })),
    on(LocationCreated, (tx, d, e) => tx.insert('locations', { ...d, created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime })),
    on(PriceAgreementCreated, (tx, d, e) => tx.insert('price_agreements', { ...d, created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime })),
    on(ApprovedSubstituteAdded, (tx, d, e) => {
      const row = { item: d.item, substitute: d.substitute, vendor: d.vendor ?? ANY_VENDOR, status: 'approved', note: d.note, changed_by: e.actor, changed_date: e.businessDate };
      tx.upsert<Substitute>('approved_substitutes', row as Substitute, (r) => Object.assign(r, row));
    }),
    on(ApprovedSubstituteRemoved, (tx, d, e) => void tx.update<Substitute>('approved_substitutes', { item: d.item, substitute: d.substitute, vendor: d.vendor ?? ANY_VENDOR }, (r) => {
      Object.assign(r, { status: 'removed', note: d.reason, changed_by: e.actor, changed_date: e.businessDate });
    })),
  ],
  queries: (t) => ({
    item: (id: string) => t.get<Item>('items', id),
    warehouse: (id: string) => t.get<{ id: string; name: string; region: string } & Record<string, unknown>>('warehouses', id),
    warehouses: () => t.find<{ id: string; name: string; region: string } & Record<string, unknown>>('warehouses'),
    locations: (warehouse: string) => t.find<{ warehouse: string; code: string; description: string } & Record<string, unknown>>('locations', { warehouse }),
    location: (warehouse: string, code: string) => t.get<{ warehouse: string; code: string } & Record<string, unknown>>('locations', { warehouse, code }),
    priceAgreement: (id: string) => t.get<Agreement>('price_agreements', id),
    priceAgreements: (vendor: string, item: string) => t.find<Agreement>('price_agreements', { vendor, item }),
    /**
     * The agreed unit price (cents) for a quantity on a date: among the agreements valid that day the
     * one that took effect last (then the later id), and its highest break the quantity reaches.
     * Undefined when no agreement applies or the quantity is below its first break.
     */
    priceFor(vendor: string, item: string, qty: number, date: string): AgreedPrice | undefined {
      const valid = t.find<Agreement>('price_agreements', { vendor, item }, { orderBy: ['valid_from desc', 'id desc'] })
        .filter((a) => a.valid_from <= date && (a.valid_to === null || date <= a.valid_to));
      const agreement = valid[0];
      if (!agreement) return undefined;
      const reached = [...agreement.breaks].sort((a, b) => b.min_qty - a.min_qty).find((b) => qty >= b.min_qty);
      return reached ? { agreement: agreement.id, unit_price: reached.unit_price, min_qty: reached.min_qty } : undefined;
    },
    substitutesOf: (item: string) => t.find<Substitute>('approved_substitutes', { item, status: 'approved' }),
    substitute: (item: string, substitute: string, vendor: string | null) => t.get<Substitute>('approved_substitutes', { item, substitute, vendor: vendor ?? ANY_VENDOR }),
    /** True when `substitute` may be received for `item` from this vendor (approved for it or for any vendor). */
    isApprovedSubstitute(item: string, substitute: string, vendor: string): boolean {
      return t.find<Substitute>('approved_substitutes', { item, substitute, vendor: [vendor, ANY_VENDOR], status: 'approved' }).length > 0;
    },
  }),
});
