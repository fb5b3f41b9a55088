import {
  PurchaseOrderAcknowledged, PurchaseOrderApproved, PurchaseOrderCancelled, PurchaseOrderClosed, PurchaseOrderCreated,
  PurchaseOrderLineShortClosed, PurchaseOrderRevised, PurchaseOrderSent, VendorRequestAnswered, VendorRequestRaised,
} from '../events/contracts/purchasing';
import { ReceiptPosted, ReceiptReversed } from '../events/contracts/receiving';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { roundQty } from './quantities';
import { defineReadModel, on, type ProjectionTx } from './read-model';

export type PoStatus = 'draft' | 'approved' | 'sent' | 'partially_received' | 'received' | 'closed' | 'cancelled';
export type PoLineStatus = 'open' | 'received' | 'short_closed' | 'cancelled';

export interface PurchaseOrderRow {
  id: string;
  vendor: string;
  buyer: string;
  ship_to: string;
  department: string | null;
  total: number;
  status: PoStatus;
  note: string;
  approved_by: string | null;
  approved_date: string | null;
  sent_by: string | null;
  sent_date: string | null;
  closed_date: string | null;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface PoLineRow {
  po: string;
  line: number;
  item: string | null;
  description: string;
  qty: number;
  unit: string;
  unit_price: number;
  amount: number;
  need_by: string;
  account: string;
  requisition_lines: { requisition: string; line: number }[];
  status: PoLineStatus;
  /** Received net of reversals, substitutes included; refused quantities are not received. */
  received_qty: number;
  confirmed_date: string | null;
  confirmed_qty: number | null;
  /** The open quantity given up by a short-close or a cancelled line, and why. */
  closed_qty: number;
  closed_reason: string | null;
}

export interface PoAcknowledgementRow {
  id: string;
  po: string;
  line: number;
  confirmed_date: string;
  confirmed_qty: number;
  /** A different unit price the vendor gives notice of, in cents; null when none. */
  price_notice: number | null;
  price_note: string;
  note: string;
  acknowledged_by: string;
  acknowledged_date: string;
}

export interface VendorRequestRow {
  id: string;
  po: string;
  line: number;
  kind: 'expedite' | 'defer' | 'cancel_line';
  date: string | null;
  note: string;
  status: 'pending' | 'accepted' | 'refused';
  raised_by: string;
  raised_date: string;
  answered_by: string | null;
  answered_date: string | null;
  answer_date: string | null;
  answer_note: string | null;
  status_history: StatusChange[];
}

type Po = PurchaseOrderRow & Record<string, unknown>;
type Line = PoLineRow & Record<string, unknown>;

/** What a line still expects: ordered less received, nothing once short-closed, cancelled or over-received. */
export function openQtyOf(line: Pick<PoLineRow, 'qty' | 'received_qty' | 'status'>): number {
  if (line.status === 'short_closed' || line.status === 'cancelled') return 0;
  return Math.max(0, roundQty(line.qty - line.received_qty));
}

const RECEIVING: readonly PoStatus[] = ['sent', 'partially_received', 'received'];

function setStatus(tx: ProjectionTx, id: string, status: PoStatus, event: EventRow, reason: string | null, recipe: (r: Po) => void = () => undefined): void {
  tx.update<Po>('purchase_orders', id, (r) => {
    r.status = status;
    r.status_history.push(statusChange(status, event, reason));
    recipe(r as Po);
  });
}

/** A receiving PO is received when no line expects more, partially received once anything came. */
function settleProgress(tx: ProjectionTx, id: string, event: EventRow): void {
  const po = tx.get<Po>('purchase_orders', id);
  if (!po || !RECEIVING.includes(po.status)) return;
  const lines = tx.find<Line>('po_lines', { po: id });
  const done = lines.every((l) => l.status !== 'open');
  const any = lines.some((l) => l.received_qty > 0);
  const next: PoStatus = done ? 'received' : any ? 'partially_received' : 'sent';
  if (next !== po.status) setStatus(tx, id, next, event, null);
}

function writeLines(tx: ProjectionTx, po: string, lines: readonly Omit<PoLineRow, 'po' | 'status' | 'received_qty' | 'confirmed_date' | 'confirmed_qty' | 'closed_qty' | 'closed_reason'>[]): void {
  for (const old of tx.find<Line>('po_lines', { po })) tx.remove('po_lines', { po, line: old.line });
  for (const l of lines) {
    tx.insert('po_lines', { po, ...l, status: 'open', received_qty: 0, confirmed_date: null, confirmed_qty: null, closed_qty: 0, closed_reason: null });
  }
}

function receive(tx: ProjectionTx, po: string, lines: readonly { po_line: number; qty_received: number }[], sign: 1 | -1, event: EventRow): void {
  for (const l of lines) {
    tx.update<Line>('po_lines', { po, line: l.po_line }, (r) => {
      r.received_qty = roundQty(r.received_qty + sign * l.qty_received);
      if (r.status === 'open' && r.received_qty >= r.qty) r.status = 'received';
      else if (r.status === 'received' && r.received_qty < r.qty) r.status = 'open';
    });
  }
  settleProgress(tx, po, event);
}

function giveUp(tx: ProjectionTx, po: string, line: number, status: PoLineStatus, reason: string): void {
  tx.update<Line>('po_lines', { po, line }, (r) => {
    r.closed_qty = openQtyOf(r as Line);
    r.closed_reason = reason;
    r.status = status;
  });
}

/** Purchase orders with their lines, the vendor's acknowledgements and the buyer's requests to the vendor. */
export const purchaseOrders = defineReadModel({
  name: 'purchase-orders',
  tables: [
    {
      name: 'purchase_orders',
      columns: {
        id: 'text', vendor: 'text', buyer: 'text', ship_to: 'text', department: 'text', total: 'integer', status: 'text', note: 'text',
        approved_by: 'text', approved_date: 'text', sent_by: 'text', sent_date: 'text', closed_date: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['status'], ['vendor', 'status'], ['buyer']],
    },
    {
      name: 'po_lines',
      columns: {
        po: 'text', line: 'integer', item: 'text', description: 'text', qty: 'real', unit: 'text', unit_price: 'integer', amount: 'integer',
        need_by: 'text', account: 'text', requisition_lines: 'json', status: 'text', received_qty: 'real', confirmed_date: 'text',
        confirmed_qty: 'real', closed_qty: 'real', closed_reason: 'text',
      },
      key: ['po', 'line'],
      indexes: [['item']],
    },
    {
      name: 'po_acknowledgements',
      columns: {
        id: 'text', po: 'text', line: 'integer', confirmed_date: 'text', confirmed_qty: 'real', price_notice: 'integer', price_note: 'text',
        note: 'text', acknowledged_by: 'text', acknowledged_date: 'text', created_wall: 'text',
      },
      key: ['id', 'line'],
      indexes: [['po']],
    },
    {
      name: 'vendor_requests',
      columns: {
        id: 'text', po: 'text', line: 'integer', kind: 'text', date: 'text', note: 'text', status: 'text', raised_by: 'text', raised_date: 'text',
        answered_by: 'text', answered_date: 'text', answer_date: 'text', answer_note: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['po'], ['status']],
    },
  ],
  handlers: [
    on(PurchaseOrderCreated, (tx, d, e) => {
      tx.insert('purchase_orders', {
        id: d.id, vendor: d.vendor, buyer: d.buyer, ship_to: d.ship_to, department: d.department, total: d.total, status: 'draft', note: d.note,
        approved_by: null, approved_date: null, sent_by: null, sent_date: null, closed_date: null, ...documentStamp(e, 'draft'),
      });
      writeLines(tx, d.id, d.lines);
    }),
    on(PurchaseOrderRevised, (tx, d) => {
      tx.update<Po>('purchase_orders', d.id, (r) => Object.assign(r, { ship_to: d.ship_to, total: d.total, note: d.note }));
      writeLines(tx, d.id, d.lines);
    }),
    on(PurchaseOrderApproved, (tx, d, e) => setStatus(tx, d.id, 'approved', e, null, (r) => Object.assign(r, { approved_by: e.actor, approved_date: e.businessDate }))),
    on(PurchaseOrderSent, (tx, d, e) => setStatus(tx, d.id, 'sent', e, null, (r) => Object.assign(r, { sent_by: e.actor, sent_date: e.businessDate }))),
    on(PurchaseOrderCancelled, (tx, d, e) => setStatus(tx, d.id, 'cancelled', e, d.reason, (r) => { r.closed_date = e.businessDate; })),
    on(PurchaseOrderClosed, (tx, d, e) => setStatus(tx, d.id, 'closed', e, d.reason, (r) => { r.closed_date = e.businessDate; })),
    on(PurchaseOrderLineShortClosed, (tx, d, e) => {
      giveUp(tx, d.id, d.line, 'short_closed', d.reason);
      settleProgress(tx, d.id, e);
    }),
    on(PurchaseOrderAcknowledged, (tx, d, e) => {
      const notices = new Map(d.price_notices.map((n) => [n.line, n]));
      for (const l of d.lines) {
        const notice = notices.get(l.line);
        tx.insert('po_acknowledgements', {
          id: d.id, po: d.po, line: l.line, confirmed_date: l.confirmed_date, confirmed_qty: l.confirmed_qty, price_notice: notice?.unit_price ?? null,
          price_note: notice?.note ?? '', note: d.note, acknowledged_by: e.actor, acknowledged_date: e.businessDate, created_wall: e.wallTime,
        });
        tx.update<Line>('po_lines', { po: d.po, line: l.line }, (r) => { r.confirmed_date = l.confirmed_date; r.confirmed_qty = l.confirmed_qty; });
      }
    }),
    on(VendorRequestRaised, (tx, d, e) => tx.insert('vendor_requests', {
      id: d.id, po: d.po, line: d.line, kind: d.kind, date: d.date, note: d.note, status: 'pending', raised_by: e.actor, raised_date: e.businessDate,
      answered_by: null, answered_date: null, answer_date: null, answer_note: null, created_wall: e.wallTime, status_history: [statusChange('pending', e)],
    })),
    on(VendorRequestAnswered, (tx, d, e) => {
      tx.update<VendorRequestRow & Record<string, unknown>>('vendor_requests', d.id, (r) => {
        Object.assign(r, { status: d.decision, answered_by: e.actor, answered_date: e.businessDate, answer_date: d.date, answer_note: d.note });
        r.status_history.push(statusChange(d.decision, e));
      });
      if (d.decision !== 'accepted') return;
      if (d.kind === 'cancel_line') {
        giveUp(tx, d.po, d.line, 'cancelled', 'vendor_cancelled');
        settleProgress(tx, d.po, e);
      } else if (d.date) {
        tx.update<Line>('po_lines', { po: d.po, line: d.line }, (r) => { r.confirmed_date = d.date; });
      }
    }),
    on(ReceiptPosted, (tx, d, e) => receive(tx, d.po, d.lines, 1, e)),
    on(ReceiptReversed, (tx, d, e) => receive(tx, d.po, d.lines, -1, e)),
  ],
  queries: (t) => ({
    po: (id: string) => t.get<Po>('purchase_orders', id),
    poLine: (po: string, line: number) => t.get<Line>('po_lines', { po, line }),
    poLines: (po: string) => t.find<Line>('po_lines', { po }),
    /** Ordered less received; zero for a line short-closed or cancelled. */
    openQty(po: string, line: number): number {
      const l = t.get<Line>('po_lines', { po, line });
      return l ? openQtyOf(l) : 0;
    },
    posWithStatus: (statuses: readonly PoStatus[]) => t.find<Po>('purchase_orders', { status: [...statuses] }),
    posOfVendor: (vendor: string, statuses?: readonly PoStatus[]) => t.find<Po>('purchase_orders', { vendor, status: statuses ? [...statuses] : undefined }),
    acknowledgements: (po: string) => t.find<PoAcknowledgementRow & Record<string, unknown>>('po_acknowledgements', { po }),
    vendorRequest: (id: string) => t.get<VendorRequestRow & Record<string, unknown>>('vendor_requests', id),
    vendorRequests: (po: string) => t.find<VendorRequestRow & Record<string, unknown>>('vendor_requests', { po }),
    pendingVendorRequests: () => t.find<VendorRequestRow & Record<string, unknown>>('vendor_requests', { status: 'pending' }),
  }),
});
