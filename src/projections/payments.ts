import {
  ExternalPaymentRecorded, PaymentCleared, PaymentMade, PaymentReturned, PaymentRunApproved, PaymentRunCancelled, PaymentRunCreated,
  PaymentRunItemAdded, PaymentRunItemRemoved, PaymentRunReleased, PaymentRunReturned, PaymentRunSubmitted, PaymentVoided,
  type PaymentRecord, type RunItem,
} from '../events/contracts/payments';
import type { CashMovement } from '../events/contracts/ledger';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { bankTransactionId } from './ledger-cash';
import { defineReadModel, on, type ProjectionTx } from './read-model';

export type PaymentRunStatus = 'draft' | 'submitted' | 'approved' | 'returned' | 'released' | 'cancelled';
export type PaymentStatus = 'released' | 'cleared' | 'returned' | 'voided';

export interface PaymentRunRow {
  id: string;
  payment_date: string;
  bank_account: string;
  status: PaymentRunStatus;
  total_amount: number;
  total_discount: number;
  item_count: number;
  note: string;
  submitted_date: string | null;
  approved_by: string | null;
  approved_date: string | null;
  released_by: string | null;
  released_date: string | null;
  reason: string | null;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface PaymentRunItemRow extends RunItem {
  run: string;
  status: 'proposed' | 'removed' | 'paid';
  payment: string | null;
  added_by: string;
  added_date: string;
  added_event: number;
  removed_reason: string | null;
}

export interface PaymentRow {
  id: string;
  vendor: string;
  run: string | null;
  method: 'run' | 'manual' | 'external';
  bank_account: string;
  vendor_bank_account: string | null;
  amount: number;
  discount: number;
  date: string;
  reference: string;
  status: PaymentStatus;
  /** The book-side cash movement the payment made (BT-…): what its statement line matches. */
  bank_transaction: string;
  statement_line: string | null;
  cleared_date: string | null;
  returned_date: string | null;
  reason: string | null;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface AllocationRow {
  payment: string;
  /** Its place in the payment: the order the invoices were settled in. */
  n: number;
  invoice: string;
  amount: number;
  discount: number;
}

type Run = PaymentRunRow & Record<string, unknown>;
type Item = PaymentRunItemRow & Record<string, unknown>;
type Payment = PaymentRow & Record<string, unknown>;

function runStatus(tx: ProjectionTx, id: string, status: PaymentRunStatus, event: EventRow, reason: string | null, recipe: (r: Run) => void = () => undefined): void {
  tx.update<Run>('payment_runs', id, (r) => {
    r.status = status;
    r.status_history.push(statusChange(status, event, reason));
    recipe(r as Run);
  });
}

function addItem(tx: ProjectionTx, run: string, item: RunItem, event: EventRow): void {
  const row = { run, ...item, status: 'proposed', payment: null, added_by: event.actor, added_date: event.businessDate, added_event: event.seq, removed_reason: null };
  tx.upsert<Item>('payment_run_items', row as Item, (r) => Object.assign(r, row));
}

function retotal(tx: ProjectionTx, run: string): void {
  const items = tx.find<Item>('payment_run_items', { run, status: ['proposed', 'paid'] });
  tx.update<Run>('payment_runs', run, (r) => {
    r.total_amount = items.reduce((s, i) => s + i.amount, 0);
    r.total_discount = items.reduce((s, i) => s + i.discount, 0);
    r.item_count = items.length;
  });
}

function insertPayment(tx: ProjectionTx, p: PaymentRecord, cash: readonly CashMovement[], event: EventRow, fields: { run: string | null; method: PaymentRow['method']; bank_account: string; date: string; reference: string; status: PaymentStatus; statement_line: string | null }): void {
  const index = cash.findIndex((c) => c.reference === p.id);
  tx.insert('payments', {
    id: p.id, vendor: p.vendor, vendor_bank_account: p.vendor_bank_account, amount: p.amount, discount: p.discount, ...fields,
    bank_transaction: bankTransactionId(event.seq, index + 1), cleared_date: fields.status === 'cleared' ? fields.date : null, returned_date: null, reason: null,
    ...documentStamp(event, fields.status),
  });
  p.allocations.forEach((a, i) => tx.insert('payment_allocations', { payment: p.id, n: i + 1, ...a }));
}

function paymentStatus(tx: ProjectionTx, id: string, status: PaymentStatus, event: EventRow, reason: string | null, recipe: (r: Payment) => void = () => undefined): void {
  tx.update<Payment>('payments', id, (r) => {
    r.status = status;
    r.reason = reason;
    r.status_history.push(statusChange(status, event, reason));
    recipe(r as Payment);
  });
}

/** Payment runs with their proposed items, and payments (PAY) with the invoices each settles. */
export const payments = defineReadModel({
  name: 'payments',
  tables: [
    {
      name: 'payment_runs',
      columns: {
        id: 'text', payment_date: 'text', bank_account: 'text', status: 'text', total_amount: 'integer', total_discount: 'integer', item_count: 'integer',
        note: 'text', submitted_date: 'text', approved_by: 'text', approved_date: 'text', released_by: 'text', released_date: 'text', reason: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['status']],
    },
    {
      name: 'payment_run_items',
      columns: {
        run: 'text', invoice: 'text', vendor: 'text', amount: 'integer', discount: 'integer', open_amount: 'integer', vendor_bank_account: 'text',
        status: 'text', payment: 'text', added_by: 'text', added_date: 'text', added_event: 'integer', removed_reason: 'text',
      },
      key: ['run', 'invoice'],
      indexes: [['invoice']],
    },
    {
      name: 'payments',
      columns: {
        id: 'text', vendor: 'text', run: 'text', method: 'text', bank_account: 'text', vendor_bank_account: 'text', amount: 'integer', discount: 'integer',
        date: 'text', reference: 'text', status: 'text', bank_transaction: 'text', statement_line: 'text', cleared_date: 'text', returned_date: 'text',
        reason: 'text', created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['vendor'], ['status'], ['run']],
    },
    { name: 'payment_allocations', columns: { payment: 'text', n: 'integer', invoice: 'text', amount: 'integer', discount: 'integer' }, key: ['payment', 'invoice'], indexes: [['invoice']] },
  ],
  handlers: [
    on(PaymentRunCreated, (tx, d, e) => {
      tx.insert('payment_runs', {
        id: d.id, payment_date: d.payment_date, bank_account: d.bank_account, status: 'draft', total_amount: 0, total_discount: 0, item_count: 0, note: d.note,
        submitted_date: null, approved_by: null, approved_date: null, released_by: null, released_date: null, reason: null, ...documentStamp(e, 'draft'),
      });
      for (const item of d.items) addItem(tx, d.id, item, e);
      retotal(tx, d.id);
    }),
    on(PaymentRunItemAdded, (tx, d, e) => {
      addItem(tx, d.id, d.item, e);
      retotal(tx, d.id);
    }),
    on(PaymentRunItemRemoved, (tx, d) => {
      tx.update<Item>('payment_run_items', { run: d.id, invoice: d.invoice }, (r) => { r.status = 'removed'; r.removed_reason = d.reason; });
      retotal(tx, d.id);
    }),
    on(PaymentRunSubmitted, (tx, d, e) => runStatus(tx, d.id, 'submitted', e, null, (r) => { r.submitted_date = e.businessDate; })),
    on(PaymentRunApproved, (tx, d, e) => runStatus(tx, d.id, 'approved', e, null, (r) => { r.approved_by = e.actor; r.approved_date = e.businessDate; })),
    on(PaymentRunReturned, (tx, d, e) => runStatus(tx, d.id, 'returned', e, d.reason, (r) => { r.reason = d.reason; })),
    on(PaymentRunCancelled, (tx, d, e) => runStatus(tx, d.id, 'cancelled', e, d.reason, (r) => { r.reason = d.reason; })),
    on(PaymentRunReleased, (tx, d, e) => {
      runStatus(tx, d.id, 'released', e, null, (r) => { r.released_by = e.actor; r.released_date = d.date; });
      for (const p of d.payments) {
        insertPayment(tx, p, d.cash, e, { run: d.id, method: 'run', bank_account: d.bank_account, date: d.date, reference: d.id, status: 'released', statement_line: null });
        for (const a of p.allocations) tx.update<Item>('payment_run_items', { run: d.id, invoice: a.invoice }, (r) => { r.status = 'paid'; r.payment = p.id; });
      }
    }),
    on(PaymentMade, (tx, d, e) => insertPayment(tx, d.payment, d.cash, e, {
      run: null, method: 'manual', bank_account: d.bank_account, date: d.date, reference: d.payment.id, status: 'released', statement_line: null,
    })),
    on(ExternalPaymentRecorded, (tx, d, e) => insertPayment(tx, d.payment, d.cash, e, {
      run: null, method: 'external', bank_account: d.bank_account, date: d.date, reference: d.reference, status: 'cleared', statement_line: d.statement_line,
    })),
    on(PaymentCleared, (tx, d, e) => paymentStatus(tx, d.id, 'cleared', e, null, (r) => { r.statement_line = d.statement_line; r.cleared_date = d.date; })),
    on(PaymentReturned, (tx, d, e) => paymentStatus(tx, d.id, 'returned', e, d.reason, (r) => { r.returned_date = d.journal.date; })),
    on(PaymentVoided, (tx, d, e) => paymentStatus(tx, d.id, 'voided', e, d.reason)),
  ],
  queries: (t) => ({
    run: (id: string) => t.get<Run>('payment_runs', id),
    runItems: (run: string) => t.find<Item>('payment_run_items', { run }),
    proposedItems: (run: string) => t.find<Item>('payment_run_items', { run, status: 'proposed' }),
    runsWithStatus: (statuses: readonly PaymentRunStatus[]) => t.find<Run>('payment_runs', { status: [...statuses] }),
    /** Items proposing the invoice in runs not yet released or cancelled. */
    liveProposals(invoice: string): Item[] {
      const items = t.find<Item>('payment_run_items', { invoice, status: 'proposed' });
      return items.filter((i) => ['draft', 'submitted', 'approved', 'returned'].includes(t.get<Run>('payment_runs', i.run)!.status));
    },
    payment: (id: string) => t.get<Payment>('payments', id),
    allocations: (payment: string) => t.find<AllocationRow & Record<string, unknown>>('payment_allocations', { payment }, { orderBy: 'n' }),
    /** Every payment allocated to an invoice, with its allocation, oldest first. */
    paymentsOfInvoice(invoice: string): (PaymentRow & { allocated: number; allocated_discount: number })[] {
      return t.find<AllocationRow & Record<string, unknown>>('payment_allocations', { invoice }, { orderBy: 'payment' })
        .map((a) => ({ ...t.get<Payment>('payments', a.payment)!, allocated: a.amount, allocated_discount: a.discount }));
    },
    paymentsWithStatus: (status: PaymentStatus) => t.find<Payment>('payments', { status }),
  }),
});
