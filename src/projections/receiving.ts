import { DeliveryAnnounced, ReceiptPosted, ReceiptReversed } from '../events/contracts/receiving';
import { documentStamp, statusChange, type StatusChange } from './history';
import { roundQty } from './quantities';
import { defineReadModel, on } from './read-model';

export interface DeliveryRow {
  id: string;
  po: string;
  vendor: string;
  warehouse: string;
  ship_date: string;
  expected_date: string;
  status: 'announced' | 'received';
  receipt: string | null;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface DeliveryLineRow {
  delivery: string;
  line: number;
  po: string;
  po_line: number;
  item: string | null;
  substitute_for: string | null;
  qty: number;
  lot: string | null;
  expiry: string | null;
}

export interface ReceiptRow {
  id: string;
  po: string;
  vendor: string;
  warehouse: string;
  date: string;
  delivery: string | null;
  packing_slip: string;
  total: number;
  status: 'posted' | 'reversed';
  reversal_date: string | null;
  reversal_reason: string | null;
  note: string;
  posted_event: number;
  reversal_event: number | null;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface ReceiptLineRow {
  receipt: string;
  line: number;
  po: string;
  po_line: number;
  item: string | null;
  substitute_for: string | null;
  description: string;
  qty_received: number;
  qty_refused: number;
  refusal_reason: string | null;
  lot: string | null;
  expiry: string | null;
  location: string | null;
  unit_price: number;
  amount: number;
  account: string;
  stock: boolean;
  /** The receipt's posting date, and its reversal's when it was reversed. */
  date: string;
  status: 'posted' | 'reversed';
  reversal_date: string | null;
}

type Receipt = ReceiptRow & Record<string, unknown>;
type ReceiptLine = ReceiptLineRow & Record<string, unknown>;
type Delivery = DeliveryRow & Record<string, unknown>;

/** Deliveries vendors announce, and receipts (RCV) posted against sent POs, with their reversals. */
export const receiving = defineReadModel({
  name: 'receiving',
  tables: [
    {
      name: 'deliveries',
      columns: {
        id: 'text', po: 'text', vendor: 'text', warehouse: 'text', ship_date: 'text', expected_date: 'text', status: 'text', receipt: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['po'], ['vendor'], ['status', 'expected_date']],
    },
    {
      name: 'delivery_lines',
      columns: { delivery: 'text', line: 'integer', po: 'text', po_line: 'integer', item: 'text', substitute_for: 'text', qty: 'real', lot: 'text', expiry: 'text' },
      key: ['delivery', 'line'],
      indexes: [['po', 'po_line']],
    },
    {
      name: 'receipts',
      columns: {
        id: 'text', po: 'text', vendor: 'text', warehouse: 'text', date: 'text', delivery: 'text', packing_slip: 'text', total: 'integer', status: 'text',
        reversal_date: 'text', reversal_reason: 'text', note: 'text', posted_event: 'integer', reversal_event: 'integer',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['po'], ['vendor'], ['date']],
    },
    {
      name: 'receipt_lines',
      columns: {
        receipt: 'text', line: 'integer', po: 'text', po_line: 'integer', item: 'text', substitute_for: 'text', description: 'text', qty_received: 'real',
        qty_refused: 'real', refusal_reason: 'text', lot: 'text', expiry: 'text', location: 'text', unit_price: 'integer', amount: 'integer',
        account: 'text', stock: 'bool', date: 'text', status: 'text', reversal_date: 'text',
      },
      key: ['receipt', 'line'],
      indexes: [['po', 'po_line'], ['item']],
    },
  ],
  handlers: [
    on(DeliveryAnnounced, (tx, d, e) => {
      tx.insert('deliveries', {
        id: d.id, po: d.po, vendor: d.vendor, warehouse: d.warehouse, ship_date: d.ship_date, expected_date: d.expected_date, status: 'announced',
        receipt: null, note: d.note, ...documentStamp(e, 'announced'),
      });
      for (const l of d.lines) tx.insert('delivery_lines', { delivery: d.id, po: d.po, ...l });
    }),
    on(ReceiptPosted, (tx, d, e) => {
      tx.insert('receipts', {
        id: d.id, po: d.po, vendor: d.vendor, warehouse: d.warehouse, date: d.date, delivery: d.delivery, packing_slip: d.packing_slip, total: d.total,
        status: 'posted', reversal_date: null, reversal_reason: null, note: d.note, posted_event: e.seq, reversal_event: null, ...documentStamp(e, 'posted'),
      });
      for (const l of d.lines) tx.insert('receipt_lines', { receipt: d.id, po: d.po, ...l, date: d.date, status: 'posted', reversal_date: null });
      if (d.delivery && tx.get('deliveries', d.delivery)) {
        tx.update<Delivery>('deliveries', d.delivery, (r) => {
          r.status = 'received';
          r.receipt = d.id;
          r.status_history.push(statusChange('received', e));
        });
      }
    }),
    on(ReceiptReversed, (tx, d, e) => {
      // A reversed receipt no longer took its delivery in: the delivery waits to be received again.
      const delivery = tx.get<Receipt>('receipts', d.id)?.delivery;
      if (delivery && tx.get<Delivery>('deliveries', delivery)?.receipt === d.id) {
        tx.update<Delivery>('deliveries', delivery, (r) => {
          r.status = 'announced';
          r.receipt = null;
          r.status_history.push(statusChange('announced', e, `receipt ${d.id} reversed: ${d.reason}`));
        });
      }
      tx.update<Receipt>('receipts', d.id, (r) => {
        Object.assign(r, { status: 'reversed', reversal_date: d.date, reversal_reason: d.reason, reversal_event: e.seq });
        r.status_history.push(statusChange('reversed', e, d.reason));
      });
      for (const l of tx.find<ReceiptLine>('receipt_lines', { receipt: d.id })) {
        tx.update<ReceiptLine>('receipt_lines', { receipt: d.id, line: l.line }, (r) => { r.status = 'reversed'; r.reversal_date = d.date; });
      }
    }),
  ],
  queries: (t) => ({
    receipt: (id: string) => t.get<Receipt>('receipts', id),
    receiptLines: (id: string) => t.find<ReceiptLine>('receipt_lines', { receipt: id }),
    receiptLine: (id: string, line: number) => t.get<ReceiptLine>('receipt_lines', { receipt: id, line }),
    receiptsOfPo: (po: string) => t.find<Receipt>('receipts', { po }, { orderBy: ['date', 'id'] }),
    /** Every receipt line against one PO line (reversed ones too: check `status`). */
    receiptLinesOfPoLine: (po: string, line: number) => t.find<ReceiptLine>('receipt_lines', { po, po_line: line }, { orderBy: ['receipt', 'line'] }),
    /** Quantity received on a PO line, net of reversals (substitutes count; refused quantities do not). */
    receivedQty(po: string, line: number): number {
      return roundQty(t.find<ReceiptLine>('receipt_lines', { po, po_line: line, status: 'posted' }).reduce((s, l) => s + l.qty_received, 0));
    },
    /**
     * Quantity and value (cents, at PO price) received on a PO line as of a date: receipts dated on or
     * before it, less reversals dated on or before it. What GRNI is measured from.
     */
    receivedAsOf(po: string, line: number, asOf: string): { qty: number; value: number } {
      let qty = 0;
      let value = 0;
      for (const l of t.find<ReceiptLine>('receipt_lines', { po, po_line: line })) {
        if (l.date > asOf) continue;
        if (l.status === 'reversed' && l.reversal_date !== null && l.reversal_date <= asOf) continue;
        qty += l.qty_received;
        value += l.amount;
      }
      return { qty: roundQty(qty), value };
    },
    /** Receipt lines dated on or before `asOf` and not reversed by then, in receipt and line order. */
    receiptLinesAsOf(asOf: string): ReceiptLine[] {
      return t.find<ReceiptLine>('receipt_lines', {}, { orderBy: ['receipt', 'line'] })
        .filter((l) => l.date <= asOf && !(l.status === 'reversed' && l.reversal_date !== null && l.reversal_date <= asOf));
    },
    delivery: (id: string) => t.get<Delivery>('deliveries', id),
    deliveryLines: (id: string) => t.find<DeliveryLineRow & Record<string, unknown>>('delivery_lines', { delivery: id }),
    deliveriesOfPo: (po: string) => t.find<Delivery>('deliveries', { po }, { orderBy: ['expected_date', 'id'] }),
    /** Quantity a vendor has announced as shipped against a PO line. */
    shippedQty(po: string, line: number): number {
      return roundQty(t.find<DeliveryLineRow & Record<string, unknown>>('delivery_lines', { po, po_line: line }).reduce((s, l) => s + l.qty, 0));
    },
    /** Announced deliveries due by `date` that no receipt has taken in yet. */
    deliveriesDue: (date: string) => t.find<Delivery>('deliveries', { status: 'announced' }, { orderBy: ['expected_date', 'id'] }).filter((d) => d.expected_date <= date),
  }),
});
