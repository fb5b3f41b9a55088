import { ArCreditMemoIssued, ArInvoiceBilled, ArInvoiceVoided } from '../events/contracts/receivables';
import { RmaApproved, RmaInspected, RmaReceived, RmaRefused, RmaRequested, ShipmentPosted, type ShipmentLine } from '../events/contracts/sales';
import type { EventRow } from '../events/event-row';
import { documentStamp, statusChange, type StatusChange } from './history';
import { roundQty } from './quantities';
import { defineReadModel, on, type ProjectionTx } from './read-model';

export interface ShipmentRow {
  id: string;
  sales_order: string;
  customer: string;
  warehouse: string;
  ship_date: string;
  carrier: string;
  tracking: string;
  freight_charge: number;
  /** The inventory cost of what shipped: what COGS was debited with. */
  value: number;
  status: 'shipped' | 'invoiced';
  invoice: string | null;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface ShipmentLineRow extends ShipmentLine {
  shipment: string;
}

export type RmaStatus = 'requested' | 'approved' | 'refused' | 'received' | 'inspected' | 'credited';

export interface RmaRow {
  id: string;
  customer: string;
  invoice: string;
  sales_order: string | null;
  reason: string;
  requested_date: string;
  source_message: string | null;
  status: RmaStatus;
  warehouse: string | null;
  received_date: string | null;
  inspected_date: string | null;
  credit_memo: string | null;
  decision_reason: string | null;
  note: string;
  created_by: string;
  created_date: string;
  status_history: StatusChange[];
}

export interface RmaLineRow {
  rma: string;
  line: number;
  invoice_line: number;
  item: string;
  qty: number;
  unit_price: number;
  ship_date: string;
  days_since_shipment: number;
  received_qty: number;
  accepted_qty: number;
  rejected_qty: number;
  result: string | null;
  /** Cents per unit the accepted units came back into stock at. */
  unit_cost: number;
  returned_value: number;
}

type Ship = ShipmentRow & Record<string, unknown>;
type Rma = RmaRow & Record<string, unknown>;
type RmaLine = RmaLineRow & Record<string, unknown>;

function setShipment(tx: ProjectionTx, id: string, event: EventRow, recipe: (s: Ship) => void): void {
  tx.update<Ship>('shipments', id, (s) => {
    const before = s.status;
    recipe(s as Ship);
    if (s.status !== before) s.status_history.push(statusChange(s.status, event));
  });
}

function setRma(tx: ProjectionTx, id: string, status: RmaStatus, event: EventRow, reason: string | null, recipe: (r: Rma) => void = () => undefined): void {
  tx.update<Rma>('rmas', id, (r) => {
    recipe(r as Rma);
    r.status = status;
    r.status_history.push(statusChange(status, event, reason));
  });
}

/**
 * Shipments with the lines and lots they picked (invoiced once an AR invoice bills them), and
 * returns: RMAs with their lines as requested, received and inspected, and the credit memo that
 * closes them.
 */
export const salesShipments = defineReadModel({
  name: 'sales-shipments',
  tables: [
    {
      name: 'shipments',
      columns: {
        id: 'text', sales_order: 'text', customer: 'text', warehouse: 'text', ship_date: 'text', carrier: 'text', tracking: 'text', freight_charge: 'integer',
        value: 'integer', status: 'text', invoice: 'text', note: 'text', created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['sales_order'], ['status'], ['ship_date']],
    },
    {
      name: 'shipment_lines',
      columns: {
        shipment: 'text', line: 'integer', so_line: 'integer', item: 'text', qty: 'real', lot: 'text', location: 'text', expiry: 'text', unit_cost: 'integer', value: 'integer',
      },
      key: ['shipment', 'line'],
      indexes: [['item']],
    },
    {
      name: 'rmas',
      columns: {
        id: 'text', customer: 'text', invoice: 'text', sales_order: 'text', reason: 'text', requested_date: 'text', source_message: 'text', status: 'text',
        warehouse: 'text', received_date: 'text', inspected_date: 'text', credit_memo: 'text', decision_reason: 'text', note: 'text',
        created_by: 'text', created_date: 'text', created_wall: 'text', status_history: 'json',
      },
      key: ['id'],
      indexes: [['status'], ['invoice'], ['source_message']],
    },
    {
      name: 'rma_lines',
      columns: {
        rma: 'text', line: 'integer', invoice_line: 'integer', item: 'text', qty: 'real', unit_price: 'integer', ship_date: 'text', days_since_shipment: 'integer',
        received_qty: 'real', accepted_qty: 'real', rejected_qty: 'real', result: 'text', unit_cost: 'integer', returned_value: 'integer',
      },
      key: ['rma', 'line'],
    },
  ],
  handlers: [
    on(ShipmentPosted, (tx, d, e) => {
      tx.insert('shipments', {
        id: d.id, sales_order: d.sales_order, customer: d.customer, warehouse: d.warehouse, ship_date: d.ship_date, carrier: d.carrier, tracking: d.tracking,
        freight_charge: d.freight_charge, value: d.lines.reduce((s, l) => s + l.value, 0), status: 'shipped', invoice: null, note: d.note, ...documentStamp(e, 'shipped'),
      });
      for (const l of d.lines) tx.insert('shipment_lines', { shipment: d.id, ...l });
    }),
    on(ArInvoiceBilled, (tx, d, e) => {
      if (d.shipment) setShipment(tx, d.shipment, e, (s) => Object.assign(s, { status: 'invoiced', invoice: d.id }));
    }),
    on(ArInvoiceVoided, (tx, d, e) => {
      if (d.shipment) setShipment(tx, d.shipment, e, (s) => Object.assign(s, { status: 'shipped', invoice: null }));
    }),
    on(RmaRequested, (tx, d, e) => {
      const { lines, ...header } = d;
      tx.insert('rmas', {
        ...header, status: 'requested', warehouse: null, received_date: null, inspected_date: null, credit_memo: null, decision_reason: null, ...documentStamp(e, 'requested'),
      });
      for (const l of lines) tx.insert('rma_lines', { rma: d.id, ...l, received_qty: 0, accepted_qty: 0, rejected_qty: 0, result: null, unit_cost: 0, returned_value: 0 });
    }),
    on(RmaApproved, (tx, d, e) => setRma(tx, d.id, 'approved', e, null)),
    on(RmaRefused, (tx, d, e) => setRma(tx, d.id, 'refused', e, d.reason, (r) => { r.decision_reason = d.reason; })),
    on(RmaReceived, (tx, d, e) => {
      for (const l of d.lines) tx.update<RmaLine>('rma_lines', { rma: d.id, line: l.line }, (r) => { r.received_qty = roundQty(r.received_qty + l.qty); });
      setRma(tx, d.id, 'received', e, null, (r) => Object.assign(r, { warehouse: d.warehouse, received_date: d.date }));
    }),
    on(RmaInspected, (tx, d, e) => {
      for (const l of d.lines) {
        tx.update<RmaLine>('rma_lines', { rma: d.id, line: l.line }, (r) => Object.assign(r, {
          accepted_qty: l.accepted_qty, rejected_qty: l.rejected_qty, result: l.result, unit_cost: l.unit_cost, returned_value: l.value,
        }));
      }
      setRma(tx, d.id, 'inspected', e, null, (r) => { r.inspected_date = e.businessDate; });
    }),
    on(ArCreditMemoIssued, (tx, d, e) => {
      if (d.rma) setRma(tx, d.rma, 'credited', e, d.reason, (r) => { r.credit_memo = d.id; });
    }),
  ],
  queries: (t) => ({
    shipment: (id: string) => t.get<Ship>('shipments', id),
    shipmentLines: (id: string) => t.find<ShipmentLineRow & Record<string, unknown>>('shipment_lines', { shipment: id }, { orderBy: 'line' }),
    shipmentsOfOrder: (order: string) => t.find<Ship>('shipments', { sales_order: order }, { orderBy: 'id' }),
    /** Shipments not yet billed, oldest first: what billing works through. */
    uninvoiced: () => t.find<Ship>('shipments', { status: 'shipped' }, { orderBy: ['ship_date', 'id'] }),
    rma: (id: string) => t.get<Rma>('rmas', id),
    rmaLines: (id: string) => t.find<RmaLine>('rma_lines', { rma: id }, { orderBy: 'line' }),
    rmasWithStatus: (status: RmaStatus) => t.find<Rma>('rmas', { status }, { orderBy: 'id' }),
    rmasOfInvoice: (invoice: string) => t.find<Rma>('rmas', { invoice }, { orderBy: 'id' }),
    rmasFromMessage: (message: string) => t.find<Rma>('rmas', { source_message: message }),
  }),
});
