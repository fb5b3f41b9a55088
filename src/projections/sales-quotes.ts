import { QuoteCancelled, QuoteCreated, SalesOrderEntered, type PriceSource } from '../events/contracts/sales';
import { documentStamp, statusChange, type StatusChange } from './history';
import { defineReadModel, on } from './read-model';

export interface QuoteRow {
  id: string;
  customer: string;
  ship_to: string;
  quote_date: string;
  valid_until: string;
  total: number;
  status: 'open' | 'converted' | 'cancelled';
  sales_order: string | null;
  source_message: string | null;
  reason: string | null;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface QuoteLineRow {
  quote: string;
  line: number;
  item: string;
  description: string;
  unit: string;
  qty: number;
  unit_price: number;
  granted_price: number | null;
  price_source: PriceSource;
  amount: number;
}

type Quote = QuoteRow & Record<string, unknown>;

/** Quotes with their priced lines; a quote is converted when a sales order is entered from it. */
export const salesQuotes = defineReadModel({
  name: 'sales-quotes',
  tables: [
    {
      name: 'quotes',
      columns: {
        id: 'text', customer: 'text', ship_to: 'text', quote_date: 'text', valid_until: 'text', total: 'integer', status: 'text', sales_order: 'text',
        source_message: 'text', reason: 'text', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['customer'], ['status']],
    },
    {
      name: 'quote_lines',
      columns: {
        quote: 'text', line: 'integer', item: 'text', description: 'text', unit: 'text', qty: 'real', unit_price: 'integer', granted_price: 'integer',
        price_source: 'json', amount: 'integer',
      },
      key: ['quote', 'line'],
    },
  ],
  handlers: [
    on(QuoteCreated, (tx, d, e) => {
      const { lines, ...header } = d;
      tx.insert('quotes', { ...header, status: 'open', sales_order: null, reason: null, ...documentStamp(e, 'open') });
      for (const l of lines) tx.insert('quote_lines', { quote: d.id, ...l });
    }),
    on(QuoteCancelled, (tx, d, e) => tx.update<Quote>('quotes', d.id, (q) => {
      Object.assign(q, { status: 'cancelled', reason: d.reason });
      q.status_history.push(statusChange('cancelled', e, d.reason));
    })),
    on(SalesOrderEntered, (tx, d, e) => {
      if (!d.quote) return;
      tx.update<Quote>('quotes', d.quote, (q) => {
        Object.assign(q, { status: 'converted', sales_order: d.id });
        q.status_history.push(statusChange('converted', e));
      });
    }),
  ],
  queries: (t) => ({
    quote: (id: string) => t.get<Quote>('quotes', id),
    lines: (id: string) => t.find<QuoteLineRow & Record<string, unknown>>('quote_lines', { quote: id }, { orderBy: 'line' }),
  }),
});
