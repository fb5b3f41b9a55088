import {
  CustomerCreditHoldPlaced, CustomerCreditHoldReleased, CustomerOrderPlaced, CustomerPaymentBanked, CustomerPaymentSent, DunningActionRecorded,
  PromiseToPayRecorded, type RemittanceLine,
} from '../events/contracts/receivables';
import { defineReadModel, on } from './read-model';

export interface DunningActionRow {
  id: string;
  customer: string;
  level: string;
  channel: string;
  bucket: string;
  invoices: { invoice: string; open_amount: number; due_date: string; days_past_due: number; bucket: string }[];
  total_overdue: number;
  message: string | null;
  note: string;
  created_by: string;
  created_date: string;
  event_id: number;
}

export interface PromiseToPayRow {
  id: string;
  customer: string;
  promise_date: string;
  amount: number;
  invoices: string[];
  dunning: string | null;
  note: string;
  created_by: string;
  created_date: string;
}

export interface CreditHoldRow {
  id: string;
  customer: string;
  reason: string;
  note: string;
  status: 'open' | 'released';
  placed_by: string;
  placed_date: string;
  released_by: string | null;
  released_date: string | null;
  release_note: string | null;
}

export interface CustomerPaymentRow {
  id: string;
  customer: string;
  bank_account: string;
  date: string;
  amount: number;
  reference: string;
  behaviour: string;
  remittance: RemittanceLine[];
  message: string | null;
  statement_line: string | null;
  note: string;
}

type R<T> = T & Record<string, unknown>;

/**
 * Collections (dunning actions, promises to pay, customer credit holds) and the customer
 * counterparty's own confidential records: the orders it placed and the payments it sent, with the
 * statement line the bank showed each payment on.
 */
export const arCollections = defineReadModel({
  name: 'ar-collections',
  tables: [
    {
      name: 'dunning_actions',
      columns: {
        id: 'text', customer: 'text', level: 'text', channel: 'text', bucket: 'text', invoices: 'json', total_overdue: 'integer', message: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', event_id: 'integer',
      },
      key: ['id'],
      indexes: [['customer', 'created_date'], ['created_date']],
    },
    {
      name: 'promises_to_pay',
      columns: {
        id: 'text', customer: 'text', promise_date: 'text', amount: 'integer', invoices: 'json', dunning: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['customer'], ['dunning'], ['promise_date']],
    },
    {
      name: 'credit_holds',
      columns: {
        id: 'text', customer: 'text', reason: 'text', note: 'text', status: 'text', placed_by: 'text', placed_date: 'text', released_by: 'text', released_date: 'text',
        release_note: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['customer', 'status'], ['status']],
    },
    {
      name: 'customer_orders',
      columns: { id: 'text', customer: 'text', customer_po: 'text', ship_to: 'text', message: 'text', lines: 'json', note: 'text', created_date: 'text' },
      key: ['id'],
      indexes: [['customer', 'customer_po'], ['message']],
    },
    {
      name: 'customer_payments',
      columns: {
        id: 'text', customer: 'text', bank_account: 'text', date: 'text', amount: 'integer', reference: 'text', behaviour: 'text', remittance: 'json', message: 'text',
        statement_line: 'text', note: 'text',
      },
      key: ['id'],
      indexes: [['statement_line'], ['customer']],
    },
    { name: 'customer_payment_invoices', columns: { invoice: 'text', payment: 'text', amount: 'integer', discount: 'integer', deducted: 'integer' }, key: ['invoice', 'payment'] },
  ],
  handlers: [
    on(DunningActionRecorded, (tx, d, e) => tx.insert('dunning_actions', { ...d, created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime, event_id: e.seq })),
    on(PromiseToPayRecorded, (tx, d, e) => tx.insert('promises_to_pay', { ...d, created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime })),
    on(CustomerCreditHoldPlaced, (tx, d, e) => tx.insert('credit_holds', {
      ...d, status: 'open', placed_by: e.actor, placed_date: e.businessDate, released_by: null, released_date: null, release_note: null, created_wall: e.wallTime,
    })),
    on(CustomerCreditHoldReleased, (tx, d, e) => tx.update<R<CreditHoldRow>>('credit_holds', d.id, (r) => Object.assign(r, {
      status: 'released', released_by: e.actor, released_date: e.businessDate, release_note: d.note,
    }))),
    on(CustomerOrderPlaced, (tx, d, e) => tx.insert('customer_orders', { ...d, created_date: e.businessDate })),
    on(CustomerPaymentSent, (tx, d) => {
      tx.insert('customer_payments', { ...d, statement_line: null });
      for (const l of d.remittance) {
        tx.upsert('customer_payment_invoices', { invoice: l.invoice, payment: d.id, amount: 0, discount: 0, deducted: 0 }, (r) => {
          r.amount += l.amount;
          r.discount += l.discount;
          r.deducted += l.deduction?.amount ?? 0;
        });
      }
    }),
    on(CustomerPaymentBanked, (tx, d) => tx.update<R<CustomerPaymentRow>>('customer_payments', d.id, (r) => { r.statement_line = d.statement_line; })),
  ],
  queries: (t) => ({
    dunningAction: (id: string) => t.get<R<DunningActionRow>>('dunning_actions', id),
    dunningOf: (customer: string) => t.find<R<DunningActionRow>>('dunning_actions', { customer }, { orderBy: 'id' }),
    lastDunning: (customer: string) => t.find<R<DunningActionRow>>('dunning_actions', { customer }, { orderBy: 'id desc', limit: 1 })[0],
    /** Dunning actions recorded on a day, for the customers who answer them. */
    dunningOn: (date: string) => t.find<R<DunningActionRow>>('dunning_actions', { created_date: date }, { orderBy: 'id' }),
    promise: (id: string) => t.get<R<PromiseToPayRow>>('promises_to_pay', id),
    promisesOf: (customer: string) => t.find<R<PromiseToPayRow>>('promises_to_pay', { customer }, { orderBy: 'id' }),
    promiseFor: (dunning: string): R<PromiseToPayRow> | undefined => t.find<R<PromiseToPayRow>>('promises_to_pay', { dunning })[0],
    /** Promises falling due on a day. */
    promisesDue: (date: string) => t.find<R<PromiseToPayRow>>('promises_to_pay', { promise_date: date }, { orderBy: 'id' }),
    creditHold: (id: string) => t.get<R<CreditHoldRow>>('credit_holds', id),
    openCreditHold: (customer: string) => t.find<R<CreditHoldRow>>('credit_holds', { customer, status: 'open' })[0],
    openCreditHolds: () => t.find<R<CreditHoldRow>>('credit_holds', { status: 'open' }, { orderBy: 'id' }),
    creditHoldsOf: (customer: string) => t.find<R<CreditHoldRow>>('credit_holds', { customer }, { orderBy: 'id' }),
    customerOrder: (id: string) => t.get<R<{ id: string; customer: string; customer_po: string; ship_to: string; message: string; lines: unknown[] }>>('customer_orders', id),
    customerPayment: (id: string) => t.get<R<CustomerPaymentRow>>('customer_payments', id),
    /** Payments the customers sent that no statement line shows yet. */
    unbankedPayments: () => t.find<R<CustomerPaymentRow>>('customer_payments', { statement_line: null }, { orderBy: 'id' }),
    paymentForStatementLine: (line: string) => t.find<R<CustomerPaymentRow>>('customer_payments', { statement_line: line })[0],
    /** How many invoices of a customer have been paid (for the short payer's every n-th). */
    invoicesPaidBy(customer: string): number {
      return (t.prepared('SELECT COUNT(*) AS n FROM customer_payment_invoices p JOIN ar_invoices i ON i.id = p.invoice WHERE i.customer = ?').get(customer) as { n: number }).n;
    },
    /** How many payments a customer has sent. */
    paymentsOf: (customer: string) => t.count('customer_payments', { customer }),
    /** Dunning actions of the fortnight before today that no promise answers yet. */
    unansweredDunning(today: string): R<DunningActionRow>[] {
      const from = new Date(Date.parse(`${today}T00:00:00Z`) - 14 * 86_400_000).toISOString().slice(0, 10);
      return (t.prepared(`SELECT id FROM dunning_actions d WHERE created_date < ? AND created_date >= ? AND NOT EXISTS (SELECT 1 FROM promises_to_pay p WHERE p.dunning = d.id) ORDER BY id`)
        .all(today, from) as { id: string }[]).map((r) => t.get<R<DunningActionRow>>('dunning_actions', r.id)!);
    },
    /** What the customers have sent against an invoice: cash, discount taken and deducted, in cents. */
    sentFor(invoice: string): { amount: number; discount: number; deducted: number } {
      const row = t.prepared('SELECT COALESCE(SUM(amount), 0) AS amount, COALESCE(SUM(discount), 0) AS discount, COALESCE(SUM(deducted), 0) AS deducted FROM customer_payment_invoices WHERE invoice = ?').get(invoice);
      return row as { amount: number; discount: number; deducted: number };
    },
  }),
});
