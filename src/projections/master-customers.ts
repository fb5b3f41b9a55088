import { CustomerCreated, ShipToAdded } from '../events/contracts/master';
import { documentStamp, type StatusChange } from './history';
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

/** Customers and their ship-to addresses: master data only; sales and receivables come later. */
export const customers = defineReadModel({
  name: 'customers',
  tables: [
    {
      name: 'customers',
      columns: {
        id: 'text', name: 'text', credit_limit: 'integer', terms: 'text', tax_exempt: 'bool', email: 'text', phone: 'text', status: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
    },
    { name: 'ship_to', columns: { customer: 'text', code: 'text', address: 'text', region: 'text', tax_code: 'text', created_by: 'text', created_date: 'text', created_wall: 'text' }, key: ['customer', 'code'] },
  ],
  handlers: [
    on(CustomerCreated, (tx, d, e) => tx.insert('customers', { ...d, ...documentStamp(e, d.status) })),
    on(ShipToAdded, (tx, d, e) => tx.insert('ship_to', { ...d, created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime })),
  ],
  queries: (t) => ({
    customer: (id: string) => t.get<Customer>('customers', id),
    shipTos: (customer: string) => t.find<ShipTo>('ship_to', { customer }),
    shipTo: (customer: string, code: string) => t.get<ShipTo>('ship_to', { customer, code }),
  }),
});
