import {
  ApInvoiceApproved, ApInvoiceEntered, ApInvoiceFlaggedDuplicate, ApInvoiceHoldPlaced, ApInvoiceHoldReleased, ApInvoiceNoteAdded,
  ApInvoiceRejected, ApInvoiceRevised, ApInvoiceValidated, ApInvoiceVoided, ApPolicySet, type ApInvoiceLine, type ApMovement,
  type GrniMovement, type MatchLine,
} from '../events/contracts/payables';
import type { Journal } from '../events/contracts/ledger';
import type { EventRow } from '../events/event-row';
import { statusChange, type StatusChange } from './history';
import { journalOf, UnpostableJournal } from './ledger';
import { controlNet, listOf } from './subledger-movements';
import { apQueries } from './payables-queries';

export { DEFAULT_AP_POLICY, type ApPolicyRow } from './payables-queries';
import { defineReadModel, on, onEvery, type ProjectionTx } from './read-model';

/** Where an invoice is in its life; `status` adds on_hold while any hold is open. */
export type ApLifecycle = 'entered' | 'matched' | 'approved' | 'paid' | 'rejected' | 'voided';
export type ApInvoiceStatus = ApLifecycle | 'on_hold';

export interface ApInvoiceRow {
  id: string;
  vendor: string;
  vendor_invoice_number: string;
  normalized_number: string;
  invoice_date: string;
  po: string | null;
  source_message: string | null;
  department: string | null;
  lines_total: number;
  tax: number;
  freight: number;
  total: number;
  terms: string;
  due_date: string;
  discount_date: string | null;
  discount_amount: number;
  status: ApInvoiceStatus;
  lifecycle: ApLifecycle;
  /** Validated: its postings are in the ledger and it is an open item of the AP subledger. */
  posted: boolean;
  gl_date: string | null;
  /** The validation's journal, as posted: what a void reverses. */
  posting: Journal | null;
  open_holds: number;
  hold_reasons: string[];
  duplicate_of: string | null;
  /** The sum of its AP movements: what the AP subledger holds for it. */
  ap_balance: number;
  /** What is still owed: the AP balance once posted, the billed total before, nothing once rejected or voided. */
  open_amount: number;
  paid_amount: number;
  discount_taken: number;
  credited_amount: number;
  debit_memo_amount: number;
  written_off_amount: number;
  /** `matched` when every line matched at validation, `exceptions` otherwise; null before. */
  match_result: string | null;
  validated_by: string | null;
  validated_date: string | null;
  approved_by: string | null;
  approved_date: string | null;
  reason: string | null;
  revisions: number;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface ApInvoiceLineRow extends ApInvoiceLine {
  invoice: string;
  po: string | null;
  match_result: string | null;
  /** Matched at validation; counts against the PO line until the invoice is voided. */
  matched_qty: number;
  match: MatchLine | null;
}

export interface HoldRow {
  id: string;
  invoice: string;
  vendor: string;
  reason: string;
  note: string;
  status: 'open' | 'released';
  placed_by: string;
  placed_date: string;
  placed_event: number;
  released_by: string | null;
  released_date: string | null;
  released_event: number | null;
  release_note: string | null;
}

export interface ApTransactionRow extends ApMovement {
  id: string;
  event_id: number;
  n: number;
  date: string;
  period: string;
  source_type: string;
  posted_by: string;
}

export interface GrniMatchRow extends GrniMovement {
  event_id: number;
  n: number;
  date: string;
  source_type: string;
}

type Inv = ApInvoiceRow & Record<string, unknown>;
type Line = ApInvoiceLineRow & Record<string, unknown>;
type Hold = HoldRow & Record<string, unknown>;

function effectiveStatus(r: Pick<ApInvoiceRow, 'lifecycle' | 'open_holds'>): ApInvoiceStatus {
  if (r.lifecycle === 'rejected' || r.lifecycle === 'voided' || r.lifecycle === 'paid') return r.lifecycle;
  return r.open_holds > 0 ? 'on_hold' : r.lifecycle;
}

/** Applies a change and records the status it leads to, when it changed. */
function change(tx: ProjectionTx, id: string, event: EventRow, reason: string | null, recipe: (r: Inv) => void): void {
  tx.update<Inv>('ap_invoices', id, (r) => {
    recipe(r as Inv);
    if (r.lifecycle === 'rejected' || r.lifecycle === 'voided') r.open_amount = 0;
    const status = effectiveStatus(r);
    if (status !== r.status) {
      r.status = status;
      r.status_history.push(statusChange(status, event, reason));
    }
  });
}

function writeLines(tx: ProjectionTx, invoice: string, po: string | null, lines: readonly ApInvoiceLine[]): void {
  for (const old of tx.find<Line>('ap_invoice_lines', { invoice })) tx.remove('ap_invoice_lines', { invoice, line: old.line });
  for (const l of lines) tx.insert('ap_invoice_lines', { invoice, po, ...l, match_result: null, matched_qty: 0, match: null });
}

const billedColumns = (d: { vendor_invoice_number: string; normalized_number: string; invoice_date: string; lines: readonly ApInvoiceLine[]; tax: number; freight: number; total: number; terms: string; due_date: string; discount_date: string | null; discount_amount: number }) => ({
  vendor_invoice_number: d.vendor_invoice_number, normalized_number: d.normalized_number, invoice_date: d.invoice_date,
  lines_total: d.lines.reduce((s, l) => s + l.amount, 0), tax: d.tax, freight: d.freight, total: d.total, terms: d.terms,
  due_date: d.due_date, discount_date: d.discount_date, discount_amount: d.discount_amount,
});

const SETTLED_BY: Partial<Record<ApMovement['kind'], keyof ApInvoiceRow>> = {
  payment: 'paid_amount', payment_reversed: 'paid_amount', discount: 'discount_taken', discount_reversed: 'discount_taken',
  credit: 'credited_amount', debit_memo: 'debit_memo_amount', write_off: 'written_off_amount',
};

function applyMovement(tx: ProjectionTx, m: ApMovement, event: EventRow): void {
  if (m.invoice === null) return;
  if (!tx.get('ap_invoices', m.invoice)) throw new UnpostableJournal(`${event.type}: AP movement for unknown invoice ${m.invoice}.`);
  change(tx, m.invoice, event, m.kind === 'invoice' ? null : m.kind, (r) => {
    r.ap_balance += m.amount;
    const column = SETTLED_BY[m.kind];
    if (column) (r as Record<string, number>)[column] -= m.amount;
    if (!r.posted || r.lifecycle === 'voided' || r.lifecycle === 'rejected') return;
    r.open_amount = r.ap_balance;
    if (m.kind !== 'invoice' && r.open_amount === 0 && (r.lifecycle === 'matched' || r.lifecycle === 'approved')) r.lifecycle = 'paid';
    else if (r.lifecycle === 'paid' && r.open_amount !== 0) r.lifecycle = r.approved_by ? 'approved' : 'matched';
  });
}

/**
 * AP invoices as billed with their match results, holds and notes, and the two subledgers AP keeps:
 * ap_transactions (every `ap` movement any event carries) and grni_matches (every `grni` movement).
 * Both are checked against the event's own journal, so AP and GRNI tie to their control accounts by
 * construction: an event whose movements differ from its postings cannot be written.
 */
export const apInvoices = defineReadModel({
  name: 'ap-invoices',
  tables: [
    {
      name: 'ap_invoices',
      columns: {
        id: 'text', vendor: 'text', vendor_invoice_number: 'text', normalized_number: 'text', invoice_date: 'text', po: 'text', source_message: 'text',
        department: 'text', lines_total: 'integer', tax: 'integer', freight: 'integer', total: 'integer', terms: 'text', due_date: 'text',
        discount_date: 'text', discount_amount: 'integer', status: 'text', lifecycle: 'text', posted: 'bool', gl_date: 'text', posting: 'json', open_holds: 'integer',
        hold_reasons: 'json', duplicate_of: 'text', ap_balance: 'integer', open_amount: 'integer', paid_amount: 'integer', discount_taken: 'integer',
        credited_amount: 'integer', debit_memo_amount: 'integer', written_off_amount: 'integer', match_result: 'text', validated_by: 'text',
        validated_date: 'text', approved_by: 'text', approved_date: 'text', reason: 'text', revisions: 'integer', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['vendor', 'normalized_number'], ['status'], ['po'], ['due_date']],
    },
    {
      name: 'ap_invoice_lines',
      columns: {
        invoice: 'text', line: 'integer', po: 'text', po_line: 'integer', item: 'text', description: 'text', qty: 'real', unit_price: 'integer',
        amount: 'integer', account: 'text', department: 'text', match_result: 'text', matched_qty: 'real', match: 'json',
      },
      key: ['invoice', 'line'],
      indexes: [['po', 'po_line']],
    },
    {
      name: 'holds',
      columns: {
        id: 'text', invoice: 'text', vendor: 'text', reason: 'text', note: 'text', status: 'text', placed_by: 'text', placed_date: 'text',
        placed_event: 'integer', released_by: 'text', released_date: 'text', released_event: 'integer', release_note: 'text', created_wall: 'text',
      },
      key: ['id'],
      indexes: [['invoice'], ['status']],
    },
    { name: 'ap_invoice_notes', columns: { invoice: 'text', event_id: 'integer', text: 'text', by: 'text', date: 'text', created_wall: 'text' }, key: ['invoice', 'event_id'] },
    {
      name: 'ap_transactions',
      columns: {
        id: 'text', event_id: 'integer', n: 'integer', date: 'text', period: 'text', vendor: 'text', invoice: 'text', kind: 'text', amount: 'integer',
        document_type: 'text', document_id: 'text', source_type: 'text', posted_by: 'text',
      },
      key: ['id'],
      indexes: [['invoice'], ['vendor', 'date'], ['date']],
    },
    {
      name: 'grni_matches',
      columns: { event_id: 'integer', n: 'integer', date: 'text', invoice: 'text', po: 'text', po_line: 'integer', qty: 'real', value: 'integer', source_type: 'text' },
      key: ['event_id', 'n'],
      indexes: [['po', 'po_line'], ['invoice']],
    },
    {
      name: 'ap_policy',
      columns: {
        id: 'integer', price_tolerance_bp: 'integer', price_variance_account: 'text', quantity_variance_account: 'text', freight_account: 'text',
        tax_account: 'text', write_off_account: 'text', discount_account: 'text', set_by: 'text', set_date: 'text',
      },
      key: ['id'],
    },
  ],
  handlers: [
    on(ApInvoiceEntered, (tx, d, e) => {
      tx.insert('ap_invoices', {
        id: d.id, vendor: d.vendor, po: d.po, source_message: d.source_message, department: d.department, ...billedColumns(d),
        status: 'entered', lifecycle: 'entered', posted: false, gl_date: null, posting: null, open_holds: 0, hold_reasons: [], duplicate_of: null,
        ap_balance: 0, open_amount: d.total, paid_amount: 0, discount_taken: 0, credited_amount: 0, debit_memo_amount: 0, written_off_amount: 0,
        match_result: null, validated_by: null, validated_date: null, approved_by: null, approved_date: null, reason: null, revisions: 0, note: d.note,
        created_by: e.actor, created_date: e.businessDate, created_wall: e.wallTime, status_history: [statusChange('entered', e)],
      });
      writeLines(tx, d.id, d.po, d.lines);
    }),
    on(ApInvoiceRevised, (tx, d, e) => {
      const inv = tx.update<Inv>('ap_invoices', d.id, (r) => {
        Object.assign(r, billedColumns(d));
        r.open_amount = d.total;
        r.revisions += 1;
        r.status_history.push(statusChange(r.status, e, d.reason ?? 'revised'));
      });
      writeLines(tx, d.id, inv.po, d.lines);
    }),
    on(ApInvoiceValidated, (tx, d, e) => {
      const exceptions = d.match.some((m) => m.exceptions.length > 0) || d.arithmetic.difference !== 0;
      change(tx, d.id, e, null, (r) => {
        Object.assign(r, { lifecycle: 'matched', posted: true, gl_date: d.gl_date, posting: d.journal, validated_by: e.actor, validated_date: e.businessDate, match_result: exceptions ? 'exceptions' : 'matched' });
      });
      for (const m of d.match) tx.update<Line>('ap_invoice_lines', { invoice: d.id, line: m.line }, (r) => {
        r.match_result = m.result;
        r.matched_qty = m.matched_qty;
        r.match = m;
      });
    }),
    on(ApInvoiceHoldPlaced, (tx, d, e) => {
      const inv = tx.get<Inv>('ap_invoices', d.invoice)!;
      tx.insert('holds', {
        id: d.hold, invoice: d.invoice, vendor: inv.vendor, reason: d.reason, note: d.note, status: 'open', placed_by: e.actor, placed_date: e.businessDate,
        placed_event: e.seq, released_by: null, released_date: null, released_event: null, release_note: null, created_wall: e.wallTime,
      });
      change(tx, d.invoice, e, d.reason, (r) => {
        r.open_holds += 1;
        r.hold_reasons = [...new Set([...r.hold_reasons, d.reason])].sort();
      });
    }),
    on(ApInvoiceHoldReleased, (tx, d, e) => {
      tx.update<Hold>('holds', d.hold, (r) => Object.assign(r, { status: 'released', released_by: e.actor, released_date: e.businessDate, released_event: e.seq, release_note: d.note }));
      const stillOpen = tx.find<Hold>('holds', { invoice: d.invoice, status: 'open' });
      change(tx, d.invoice, e, `released_${d.reason}`, (r) => {
        r.open_holds = stillOpen.length;
        r.hold_reasons = [...new Set(stillOpen.map((h) => h.reason))].sort();
      });
    }),
    on(ApInvoiceFlaggedDuplicate, (tx, d, e) => change(tx, d.id, e, null, (r) => {
      r.duplicate_of = d.original;
      r.status_history.push(statusChange(r.status, e, 'flagged_duplicate'));
    })),
    on(ApInvoiceNoteAdded, (tx, d, e) => tx.insert('ap_invoice_notes', { invoice: d.id, event_id: e.seq, text: d.text, by: e.actor, date: e.businessDate, created_wall: e.wallTime })),
    on(ApInvoiceApproved, (tx, d, e) => change(tx, d.id, e, null, (r) => Object.assign(r, { lifecycle: 'approved', approved_by: e.actor, approved_date: e.businessDate }))),
    on(ApInvoiceRejected, (tx, d, e) => change(tx, d.id, e, d.reason, (r) => Object.assign(r, { lifecycle: 'rejected', reason: d.reason }))),
    on(ApInvoiceVoided, (tx, d, e) => change(tx, d.id, e, d.reason, (r) => Object.assign(r, { lifecycle: 'voided', reason: d.reason }))),
    on(ApPolicySet, (tx, d, e) => {
      const row = { id: 1, ...d, set_by: e.actor, set_date: e.businessDate };
      tx.upsert('ap_policy', row, (r) => Object.assign(r, row));
    }),
    onEvery((tx, event) => {
      const ap = listOf<ApMovement>(event.data, 'ap');
      const grni = listOf<GrniMovement>(event.data, 'grni');
      if (ap.length === 0 && grni.length === 0) return;
      const date = journalOf(event.data)?.date ?? event.businessDate;
      const apTotal = ap.reduce((s, m) => s + m.amount, 0);
      if (ap.length > 0 && apTotal !== controlNet(tx, event, 'ap')) {
        throw new UnpostableJournal(`${event.type}: its AP movements (${apTotal}) differ from what its journal posts to AP (${controlNet(tx, event, 'ap')}).`);
      }
      const grniTotal = grni.reduce((s, m) => s + m.value, 0);
      if (grni.length > 0 && grniTotal !== controlNet(tx, event, 'grni')) {
        throw new UnpostableJournal(`${event.type}: its GRNI movements (${grniTotal}) differ from what its journal posts to GRNI (${controlNet(tx, event, 'grni')}).`);
      }
      ap.forEach((m, i) => {
        tx.insert('ap_transactions', {
          id: `APT-${String(event.seq).padStart(6, '0')}-${i + 1}`, event_id: event.seq, n: i + 1, date, period: date.slice(0, 7), ...m,
          source_type: event.type, posted_by: event.actor,
        });
        applyMovement(tx, m, event);
      });
      grni.forEach((m, i) => tx.insert('grni_matches', { event_id: event.seq, n: i + 1, date, ...m, source_type: event.type }));
    }),
  ],
  queries: apQueries,
});
