import {
  ArCreditMemoApplied, ArCreditMemoIssued, CashReceiptApplied, CashReceiptRecorded, CashReceiptReversed, DeductionResolved, type Application,
} from '../events/contracts/receivables';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { defineReadModel, on, type ProjectionTx } from './read-model';

export type CashReceiptStatus = 'unapplied' | 'partially_applied' | 'applied' | 'reversed';

export interface CashReceiptRow {
  id: string;
  customer: string;
  bank_account: string;
  date: string;
  amount: number;
  reference: string;
  statement_line: string | null;
  source_message: string | null;
  applied_amount: number;
  /** Still on the customer's account. */
  unapplied_amount: number;
  status: CashReceiptStatus;
  reason: string | null;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface ApplicationRow {
  receipt: string;
  event_id: number;
  n: number;
  date: string;
  invoice: string;
  customer: string;
  amount: number;
  discount: number;
  deduction: string | null;
  deduction_amount: number;
  deduction_reason: string | null;
  /** False once the receipt was reversed. */
  live: boolean;
  applied_by: string;
}

export type DeductionStatus = 'open' | 'accepted' | 'rejected' | 'cancelled';

export interface DeductionRow {
  id: string;
  receipt: string;
  invoice: string;
  customer: string;
  amount: number;
  reason: string;
  status: DeductionStatus;
  taken_date: string;
  resolved_by: string | null;
  resolved_date: string | null;
  account: string | null;
  note: string | null;
}

export interface ArCreditMemoRow {
  id: string;
  customer: string;
  date: string;
  reason: string;
  invoice: string | null;
  rma: string | null;
  rebate_agreement: string | null;
  subtotal: number;
  tax: number;
  restocking_fee: number;
  total: number;
  /** Still on the customer's account. */
  unapplied_amount: number;
  lines: unknown[];
  note: string;
  created_by: string;
  created_date: string;
}

type Receipt = CashReceiptRow & Record<string, unknown>;
type Deduction = DeductionRow & Record<string, unknown>;
type Memo = ArCreditMemoRow & Record<string, unknown>;

function receiptStatus(r: CashReceiptRow): CashReceiptStatus {
  if (r.status === 'reversed') return 'reversed';
  return r.unapplied_amount === 0 ? 'applied' : r.applied_amount === 0 ? 'unapplied' : 'partially_applied';
}

function applied(tx: ProjectionTx, receipt: string, applications: readonly Application[], event: EventRow): void {
  applications.forEach((a, i) => {
    tx.insert('applications', {
      receipt, event_id: event.seq, n: i + 1, date: event.businessDate, invoice: a.invoice, customer: a.customer, amount: a.amount, discount: a.discount,
      deduction: a.deduction?.id ?? null, deduction_amount: a.deduction?.amount ?? 0, deduction_reason: a.deduction?.reason ?? null, live: true, applied_by: event.actor,
    });
    if (a.deduction) {
      tx.insert('deductions', {
        id: a.deduction.id, receipt, invoice: a.invoice, customer: a.customer, amount: a.deduction.amount, reason: a.deduction.reason, status: 'open',
        taken_date: event.businessDate, resolved_by: null, resolved_date: null, account: null, note: null, created_wall: event.wallTime,
      });
    }
  });
  const cash = applications.reduce((s, a) => s + a.amount, 0);
  tx.update<Receipt>('cash_receipts', receipt, (r) => {
    r.applied_amount += cash;
    r.unapplied_amount -= cash;
    const status = receiptStatus(r as CashReceiptRow);
    if (status !== r.status) {
      r.status = status;
      r.status_history.push(statusChange(status, event));
    }
  });
}

/**
 * Cash receipts with their applications to invoices, the deductions short payments opened, and AR
 * credit memos (returns, rebates, allowances) with what is left of them on account.
 */
export const arCash = defineReadModel({
  name: 'ar-cash',
  tables: [
    {
      name: 'cash_receipts',
      columns: {
        id: 'text', customer: 'text', bank_account: 'text', date: 'text', amount: 'integer', reference: 'text', statement_line: 'text', source_message: 'text',
        applied_amount: 'integer', unapplied_amount: 'integer', status: 'text', reason: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['customer', 'status'], ['statement_line'], ['source_message']],
    },
    {
      name: 'applications',
      columns: {
        receipt: 'text', event_id: 'integer', n: 'integer', date: 'text', invoice: 'text', customer: 'text', amount: 'integer', discount: 'integer',
        deduction: 'text', deduction_amount: 'integer', deduction_reason: 'text', live: 'bool', applied_by: 'text',
      },
      key: ['event_id', 'n'],
      indexes: [['receipt'], ['invoice']],
    },
    {
      name: 'deductions',
      columns: {
        id: 'text', receipt: 'text', invoice: 'text', customer: 'text', amount: 'integer', reason: 'text', status: 'text', taken_date: 'text',
        resolved_by: 'text', resolved_date: 'text', account: 'text', note: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['status'], ['invoice'], ['receipt']],
    },
    {
      name: 'ar_credit_memos',
      columns: {
        id: 'text', customer: 'text', date: 'text', reason: 'text', invoice: 'text', rma: 'text', rebate_agreement: 'text', subtotal: 'integer', tax: 'integer',
        restocking_fee: 'integer', total: 'integer', unapplied_amount: 'integer', lines: 'json', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['customer'], ['invoice'], ['rma'], ['rebate_agreement']],
    },
  ],
  handlers: [
    on(CashReceiptRecorded, (tx, d, e) => {
      const { applications, journal: _j, cash: _c, ar: _a, ...header } = d;
      tx.insert('cash_receipts', { ...header, applied_amount: 0, unapplied_amount: d.amount, status: 'unapplied', reason: null, ...documentStamp(e, 'unapplied') });
      if (applications.length) applied(tx, d.id, applications, e);
    }),
    on(CashReceiptApplied, (tx, d, e) => applied(tx, d.id, d.applications, e)),
    on(CashReceiptReversed, (tx, d, e) => {
      for (const a of tx.find<ApplicationRow & Record<string, unknown>>('applications', { receipt: d.id })) {
        tx.update('applications', { event_id: a.event_id, n: a.n }, (r: Record<string, unknown>) => { r.live = false; });
      }
      for (const ded of tx.find<Deduction>('deductions', { receipt: d.id, status: 'open' })) {
        tx.update<Deduction>('deductions', ded.id, (r) => Object.assign(r, { status: 'cancelled', resolved_by: e.actor, resolved_date: e.businessDate, note: d.reason }));
      }
      tx.update<Receipt>('cash_receipts', d.id, (r) => {
        Object.assign(r, { status: 'reversed', reason: d.reason, applied_amount: 0, unapplied_amount: 0 });
        r.status_history.push(statusChange('reversed', e, d.reason));
      });
    }),
    on(DeductionResolved, (tx, d, e) => {
      tx.update<Deduction>('deductions', d.id, (r) => Object.assign(r, { status: d.resolution, resolved_by: e.actor, resolved_date: e.businessDate, account: d.account, note: d.note }));
    }),
    on(ArCreditMemoIssued, (tx, d, e) => {
      const { journal: _j, ar: _a, ...memo } = d;
      tx.insert('ar_credit_memos', { ...memo, unapplied_amount: d.invoice ? 0 : d.total, created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime });
    }),
    on(ArCreditMemoApplied, (tx, d) => tx.update<Memo>('ar_credit_memos', d.id, (r) => { r.unapplied_amount -= d.amount; })),
  ],
  queries: (t) => ({
    receipt: (id: string) => t.get<Receipt>('cash_receipts', id),
    receiptsOf: (customer: string) => t.find<Receipt>('cash_receipts', { customer }, { orderBy: 'id' }),
    receiptForStatementLine: (line: string) => t.find<Receipt>('cash_receipts', { statement_line: line }).find((r) => r.status !== 'reversed'),
    receiptsFromMessage: (message: string) => t.find<Receipt>('cash_receipts', { source_message: message }),
    applicationsOf: (receipt: string) => t.find<ApplicationRow & Record<string, unknown>>('applications', { receipt }, { orderBy: ['event_id', 'n'] }),
    applicationsTo: (invoice: string) => t.find<ApplicationRow & Record<string, unknown>>('applications', { invoice }, { orderBy: ['event_id', 'n'] }),
    deduction: (id: string) => t.get<Deduction>('deductions', id),
    deductionsOf: (invoice: string) => t.find<Deduction>('deductions', { invoice }, { orderBy: 'id' }),
    openDeductions: () => t.find<Deduction>('deductions', { status: 'open' }, { orderBy: 'id' }),
    creditMemo: (id: string) => t.get<Memo>('ar_credit_memos', id),
    creditMemosOf: (invoice: string) => t.find<Memo>('ar_credit_memos', { invoice }, { orderBy: 'id' }),
    creditMemosOfRebate: (agreement: string) => t.find<Memo>('ar_credit_memos', { rebate_agreement: agreement }, { orderBy: 'id' }),
    /** Credit memos and receipts of a customer with something left on account. */
    onAccountDocuments(customer: string): { type: 'cash_receipt' | 'ar_credit_memo'; id: string; amount: number }[] {
      const receipts = t.find<Receipt>('cash_receipts', { customer }).filter((r) => r.unapplied_amount > 0).map((r) => ({ type: 'cash_receipt' as const, id: r.id, amount: r.unapplied_amount }));
      const memos = t.find<Memo>('ar_credit_memos', { customer }).filter((m) => m.unapplied_amount > 0).map((m) => ({ type: 'ar_credit_memo' as const, id: m.id, amount: m.unapplied_amount }));
      return [...receipts, ...memos].sort((a, b) => (a.id < b.id ? -1 : 1));
    },
  }),
});
