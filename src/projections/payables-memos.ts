import {
  DebitMemoRaised, DisputeOpened, DisputeRefused, DisputeWithdrawn, VendorCreditApplied, VendorCreditRecorded, VendorInvoiceBilled,
} from '../events/contracts/payables-memos';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { journalOf } from './ledger';
import { defineReadModel, on, type ProjectionTx } from './read-model';

export interface VendorCreditRow {
  id: string;
  vendor: string;
  vendor_reference: string;
  document_date: string;
  gl_date: string;
  amount: number;
  account: string;
  invoice: string | null;
  dispute: string | null;
  source_message: string | null;
  note: string;
  applied_amount: number;
  unapplied_amount: number;
  status: 'on_account' | 'applied';
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface CreditApplicationRow {
  credit: string;
  event_id: number;
  invoice: string;
  amount: number;
  date: string;
  by: string;
}

export interface DebitMemoRow {
  id: string;
  vendor: string;
  invoice: string;
  amount: number;
  account: string;
  reason: string;
  lines: { po_line: number; qty: number; unit_price: number; amount: number }[];
  note: string;
  gl_date: string;
  created_by: string;
  created_date: string;
}

export type DisputeStatus = 'open' | 'resolved' | 'refused' | 'withdrawn';

export interface DisputeRow {
  id: string;
  invoice: string;
  vendor: string;
  reason: string;
  amount: number;
  note: string;
  status: DisputeStatus;
  credit: string | null;
  answered_by: string | null;
  answered_date: string | null;
  answer_note: string | null;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface VendorBillingRow {
  id: string;
  vendor: string;
  invoice_number: string;
  invoice_date: string;
  po: string | null;
  source_type: 'delivery' | 'receipt';
  source_id: string;
  message: string;
  lines: { po_line: number | null; item: string | null; description: string; qty: number; unit_price: number; amount: number }[];
  tax: number;
  freight: number;
  total: number;
  terms: string;
  defects: string[];
  bank_notice: { bank_name: string; routing: string; account: string } | null;
  resubmission_of: string | null;
  created_date: string;
}

type Credit = VendorCreditRow & Record<string, unknown>;
type Dispute = DisputeRow & Record<string, unknown>;

function apply(tx: ProjectionTx, credit: string, invoice: string, amount: number, event: EventRow): void {
  tx.insert('vendor_credit_applications', { credit, event_id: event.seq, invoice, amount, date: journalOf(event.data)?.date ?? event.businessDate, by: event.actor });
  tx.update<Credit>('vendor_credits', credit, (r) => {
    r.applied_amount += amount;
    r.unapplied_amount -= amount;
    const status = r.unapplied_amount === 0 ? 'applied' : 'on_account';
    if (status !== r.status) {
      r.status = status;
      r.status_history.push(statusChange(status, event, null));
    }
  });
}

function answer(tx: ProjectionTx, id: string, status: DisputeStatus, event: EventRow, note: string, recipe: (r: Dispute) => void = () => undefined): void {
  tx.update<Dispute>('disputes', id, (r) => {
    Object.assign(r, { status, answered_by: event.actor, answered_date: event.businessDate, answer_note: note });
    r.status_history.push(statusChange(status, event, null));
    recipe(r as Dispute);
  });
}

/**
 * Vendor credit memos and how they were applied, debit memos, disputes, and (for the simulator and
 * the grader) what vendor counterparties billed. Their AP effect is folded with every other AP
 * movement in ap_transactions; these tables hold the documents.
 */
export const apMemos = defineReadModel({
  name: 'ap-memos',
  tables: [
    {
      name: 'vendor_credits',
      columns: {
        id: 'text', vendor: 'text', vendor_reference: 'text', document_date: 'text', gl_date: 'text', amount: 'integer', account: 'text', invoice: 'text',
        dispute: 'text', source_message: 'text', note: 'text', applied_amount: 'integer', unapplied_amount: 'integer', status: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['vendor', 'status']],
    },
    {
      name: 'vendor_credit_applications',
      columns: { credit: 'text', event_id: 'integer', invoice: 'text', amount: 'integer', date: 'text', by: 'text' },
      key: ['credit', 'event_id'],
      indexes: [['invoice']],
    },
    {
      name: 'debit_memos',
      columns: {
        id: 'text', vendor: 'text', invoice: 'text', amount: 'integer', account: 'text', reason: 'text', lines: 'json', note: 'text', gl_date: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['invoice']],
    },
    {
      name: 'disputes',
      columns: {
        id: 'text', invoice: 'text', vendor: 'text', reason: 'text', amount: 'integer', note: 'text', status: 'text', credit: 'text', answered_by: 'text',
        answered_date: 'text', answer_note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['invoice'], ['status']],
    },
    {
      name: 'vendor_billings',
      columns: {
        id: 'text', vendor: 'text', invoice_number: 'text', invoice_date: 'text', po: 'text', source_type: 'text', source_id: 'text', message: 'text',
        lines: 'json', tax: 'integer', freight: 'integer', total: 'integer', terms: 'text', defects: 'json', bank_notice: 'json', resubmission_of: 'text',
        created_date: 'text',
      },
      key: ['id'],
      indexes: [['source_type', 'source_id'], ['vendor']],
    },
  ],
  handlers: [
    on(VendorCreditRecorded, (tx, d, e) => {
      tx.insert('vendor_credits', {
        id: d.id, vendor: d.vendor, vendor_reference: d.vendor_reference, document_date: d.document_date, gl_date: d.journal.date, amount: d.amount,
        account: d.account, invoice: d.invoice, dispute: d.dispute, source_message: d.source_message, note: d.note, applied_amount: 0,
        unapplied_amount: d.amount, ...documentStamp(e, 'on_account'), status: 'on_account',
      });
      if (d.invoice) apply(tx, d.id, d.invoice, d.amount, e);
      if (d.dispute) answer(tx, d.dispute, 'resolved', e, d.note, (r) => { r.credit = d.id; });
    }),
    on(VendorCreditApplied, (tx, d, e) => apply(tx, d.id, d.invoice, d.amount, e)),
    on(DebitMemoRaised, (tx, d, e) => {
      const { created_by, created_date, created_wall } = documentStamp(e, 'raised');
      tx.insert('debit_memos', {
        id: d.id, vendor: d.vendor, invoice: d.invoice, amount: d.amount, account: d.account, reason: d.reason, lines: d.lines, note: d.note,
        gl_date: d.journal.date, created_by, created_date, created_wall,
      });
    }),
    on(DisputeOpened, (tx, d, e) => tx.insert('disputes', {
      id: d.id, invoice: d.invoice, vendor: d.vendor, reason: d.reason, amount: d.amount, note: d.note, status: 'open', credit: null,
      answered_by: null, answered_date: null, answer_note: null, ...documentStamp(e, 'open', d.reason),
    })),
    on(DisputeRefused, (tx, d, e) => answer(tx, d.id, 'refused', e, d.note)),
    on(DisputeWithdrawn, (tx, d, e) => tx.update<Dispute>('disputes', d.id, (r) => {
      r.status = 'withdrawn';
      r.status_history.push(statusChange('withdrawn', e, d.reason));
    })),
    on(VendorInvoiceBilled, (tx, d, e) => tx.insert('vendor_billings', {
      id: d.id, vendor: d.vendor, invoice_number: d.invoice_number, invoice_date: d.invoice_date, po: d.po, source_type: d.source_type, source_id: d.source_id,
      message: d.message, lines: d.lines, tax: d.tax, freight: d.freight, total: d.total, terms: d.terms, defects: d.defects, bank_notice: d.bank_notice,
      resubmission_of: d.resubmission_of, created_date: e.businessDate,
    })),
  ],
  queries: (t) => ({
    credit: (id: string) => t.get<Credit>('vendor_credits', id),
    creditsOnAccount: (vendor: string) => t.find<Credit>('vendor_credits', { vendor, status: 'on_account' }),
    applicationsOf: (credit: string) => t.find<CreditApplicationRow & Record<string, unknown>>('vendor_credit_applications', { credit }),
    applicationsTo: (invoice: string) => t.find<CreditApplicationRow & Record<string, unknown>>('vendor_credit_applications', { invoice }, { orderBy: ['event_id', 'credit'] }),
    debitMemo: (id: string) => t.get<DebitMemoRow & Record<string, unknown>>('debit_memos', id),
    debitMemosOf: (invoice: string) => t.find<DebitMemoRow & Record<string, unknown>>('debit_memos', { invoice }),
    dispute: (id: string) => t.get<Dispute>('disputes', id),
    disputesOf: (invoice: string) => t.find<Dispute>('disputes', { invoice }),
    openDisputes: () => t.find<Dispute>('disputes', { status: 'open' }),
    billing: (id: string) => t.get<VendorBillingRow & Record<string, unknown>>('vendor_billings', id),
    /** What a vendor billed for one shipment or receipt (its resubmissions included), oldest first. */
    billingsOf: (sourceType: 'delivery' | 'receipt', sourceId: string) =>
      t.find<VendorBillingRow & Record<string, unknown>>('vendor_billings', { source_type: sourceType, source_id: sourceId }),
    billingsOfVendor: (vendor: string) => t.find<VendorBillingRow & Record<string, unknown>>('vendor_billings', { vendor }),
    /** A vendor's shipments (deliveries it announced) or posted receipts it has not billed yet, by date then id. */
    unbilled: (vendor: string, sourceType: 'delivery' | 'receipt') => {
      const sql = sourceType === 'delivery'
        ? `SELECT id, po, ship_date AS date FROM deliveries s WHERE vendor = ?`
        : `SELECT id, po, date FROM receipts s WHERE vendor = ? AND status = 'posted'`;
      return t.all<{ id: string; po: string; date: string }>(`${sql} AND NOT EXISTS (SELECT 1 FROM vendor_billings b WHERE b.source_type = ? AND b.source_id = s.id) ORDER BY date, id`, vendor, sourceType);
    },
    billings: () => t.find<VendorBillingRow & Record<string, unknown>>('vendor_billings'),
  }),
});
