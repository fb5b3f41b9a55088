import { CustomerCreated, CustomerSalesTermsSet, ShipToAdded } from '../events/contracts/master';
import { CustomerCreditLimitChanged } from '../events/contracts/receivables';
import { documentStamp, statusChange, type StatusChange } from './history';
import { defineReadModel, on } from './read-model';

export interface CustomerRow {
  id: string;
  name: string;
  credit_limit: number;
  terms: string;
  tax_exempt: boolean;
  email: string;
  phone: string;
  status: 'active' | 'inactive';
  /** The price list its orders are priced from (none: the company's default list). */
  price_list: string | null;
  /** The customer that may pay its invoices (a parent company paying for a subsidiary). */
  parent: string | null;
  freight_terms: 'prepaid' | 'prepay_and_add' | 'collect';
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface ShipToRow {
  customer: string;
  code: string;
  address: string;
  region: string;
  tax_code: string | null;
}

type Customer = CustomerRow & Record<string, unknown>;
type ShipTo = ShipToRow & Record<string, unknown>;

/** Customers with their credit limits and sales terms, and their ship-to addresses. */
export const customers = defineReadModel({
  name: 'customers',
  tables: [
    {
      name: 'customers',
      columns: {
        id: 'text', name: 'text', credit_limit: 'integer', terms: 'text', tax_exempt: 'bool', email: 'text', phone: 'text', status: 'text',
        price_list: 'text', parent: 'text', freight_terms: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['parent']],
    },
    { name: 'ship_to', columns: { customer: 'text', code: 'text', address: 'text', region: 'text', tax_code: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' }, key: ['customer', 'code'] },
  ],
  handlers: [
    on(CustomerCreated, (tx, d, e) => tx.insert('customers', { price_list: null, parent: null, freight_terms: 'prepaid', ...d, ...documentStamp(e, d.status) })),
    on(CustomerSalesTermsSet, (tx, d, e) => tx.update<Customer>('customers', d.customer, (r) => {
      Object.assign(r, { price_list: d.price_list, parent: d.parent, freight_terms: d.freight_terms });
      r.status_history.push(statusChange(r.status, e, 'sales_terms_set'));
    })),
    on(CustomerCreditLimitChanged, (tx, d, e) => tx.update<Customer>('customers', d.customer, (r) => {
      r.credit_limit = d.credit_limit;
      r.status_history.push(statusChange(r.status, e, d.reason));
    })),
    on(ShipToAdded, (tx, d, e) => tx.insert('ship_to', { ...d, created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime })),
  ],
  queries: (t) => ({
    customer: (id: string) => t.get<Customer>('customers', id),
    /** The customers whose invoices `parent` may pay. */
    subsidiaries: (parent: string) => t.find<Customer>('customers', { parent }),
    shipTos: (customer: string) => t.find<ShipTo>('ship_to', { customer }),
    shipTo: (customer: string, code: string) => t.get<ShipTo>('ship_to', { customer, code }),
  }),
});
