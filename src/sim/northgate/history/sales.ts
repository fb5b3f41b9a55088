import { fromCents } from '../../../domain/money';
import { availableQty } from '../../../domain/sales/allocation';
import { rebateStanding } from '../../../domain/sales/pricing';
import { docOf } from '../../behaviours/customer-documents';
import type { HistoryDay, Routine } from './context';

/** The handbook's return window, in days from shipment. */
export const RETURN_WINDOW_DAYS = 30;
/** Restocking fee on returns that are not the company's fault, in basis points of the goods. */
export const RESTOCKING_FEE_BP = 1500;
const NO_FEE_REASONS = new Set(['damaged', 'defective', 'wrong_item']);

const ORDER_ENTRY = 'ben.foster';

/** Mail in the sales box of the last fortnight that no order or return was entered from yet. */
function unenteredSalesMail(day: HistoryDay): string[] {
  return (day.db.prepare(`SELECT m.id FROM messages m WHERE m.box = 'sales' AND m.direction = 'inbound' AND m.created_date >= date(?, '-14 days')
    AND NOT EXISTS (SELECT 1 FROM sales_orders s WHERE s.source_message = m.id) AND NOT EXISTS (SELECT 1 FROM rmas r WHERE r.source_message = m.id)
    ORDER BY m.id`).all(day.date) as { id: string }[]).map((r) => r.id);
}

/** Releases an order without holds and allocates what stock is free (what is not stays backordered). */
function releaseAndAllocate(day: HistoryDay, id: string): void {
  day.b.as(ORDER_ENTRY, 'POST', `/sales-orders/${id}/release`, {});
  day.b.as(ORDER_ENTRY, 'POST', `/sales-orders/${id}/allocate`, {}, { expectOk: false });
}

/**
 * Order entry and customer service, each business day (seed 000 C1, C5): every order emailed to the
 * sales box is entered at the prices the customer is granted (a price the customer claims is not
 * taken: the handbook grants no discount a contract does not), released when the checks put no hold
 * on it, and allocated; a return request within the return window gets an approved RMA, one outside
 * it a refused one. Orders whose holds were released since are released and allocated too.
 */
export const enterSalesMail: Routine = (day) => {
  if (!day.businessDay) return;
  for (const message of unenteredSalesMail(day)) {
    const doc = docOf(day.read, message);
    if (doc?.kind === 'purchase_order') {
      const so = day.b.as(ORDER_ENTRY, 'POST', '/sales-orders', {
        customer: doc.customer, ship_to: doc.ship_to, customer_po: doc.customer_po, source_message: message,
        requested_date: doc.lines.reduce((m, l) => (l.requested_date < m ? l.requested_date : m), doc.lines[0]!.requested_date),
        lines: doc.lines.map((l) => ({ item: l.item, qty: l.qty, requested_date: l.requested_date })),
      });
      if (so.status === 'entered') releaseAndAllocate(day, so.id);
    } else if (doc?.kind === 'return_request') {
      const rma = day.b.as(ORDER_ENTRY, 'POST', '/rmas', { invoice: doc.invoice, reason: doc.reason, source_message: message, lines: doc.lines.map((l) => ({ invoice_line: l.invoice_line, qty: l.qty })) });
      const inWindow = (rma.lines as { days_since_shipment: number }[]).every((l) => l.days_since_shipment <= RETURN_WINDOW_DAYS);
      if (inWindow) day.b.as(ORDER_ENTRY, 'POST', `/rmas/${rma.id}/approve`, { note: 'Within the return window.' });
      else day.b.as(ORDER_ENTRY, 'POST', `/rmas/${rma.id}/refuse`, { reason: 'outside_return_window', note: `Shipped more than ${RETURN_WINDOW_DAYS} days ago.` });
    }
  }
  const entered = day.db.prepare(`SELECT id FROM sales_orders WHERE lifecycle = 'entered' AND open_holds = 0 ORDER BY id`).all() as { id: string }[];
  for (const { id } of entered) releaseAndAllocate(day, id);
};

/** Backordered lines of released orders are allocated as stock comes in, oldest order first. */
export const allocateBackorders: Routine = (day) => {
  if (!day.businessDay) return;
  for (const id of day.read.sales.backorderedOrders()) {
    const warehouses = day.read.items.warehouses().map((w) => w.id);
    const free = day.read.sales.lines(id).some((l) => l.backordered_qty > 0 && warehouses.some((w) => availableQty(day.read, l.item, w) > 0));
    if (free) day.b.as(ORDER_ENTRY, 'POST', `/sales-orders/${id}/allocate`, {}, { expectOk: false });
  }
};

/**
 * Billing, each business day (seed 000 C2): every shipment not yet billed is invoiced, dated the day
 * it shipped so its revenue falls in the period of shipment.
 */
export const billShipments: Routine = (day) => {
  if (!day.businessDay) return;
  for (const s of day.read.shipments.uninvoiced()) {
    day.b.as('lena.park', 'POST', `/shipments/${s.id}/invoice`, { invoice_date: s.ship_date });
  }
};

/** Inspected returns are credited for the accepted units, less the restocking fee unless the company was at fault. */
export const creditReturns: Routine = (day) => {
  if (!day.businessDay) return;
  for (const rma of day.read.shipments.rmasWithStatus('inspected')) {
    const accepted = day.read.shipments.rmaLines(rma.id).some((l) => l.accepted_qty > 0);
    if (!accepted) continue;
    day.b.as(ORDER_ENTRY, 'POST', `/rmas/${rma.id}/credit-memo`, { restocking_fee_bp: NO_FEE_REASONS.has(rma.reason) ? 0 : RESTOCKING_FEE_BP, note: 'Accepted units credited.' });
  }
};

/** Quarterly, on the third business day, rebates earned under the volume agreements and not yet credited. */
export const creditRebates: Routine = (day) => {
  if (day.businessDayOfMonth !== 3 || !['01', '04', '07', '10'].includes(day.date.slice(5, 7))) return;
  for (const id of day.master.sales.rebateCustomers) {
    for (const a of day.read.salesPricing.rebateAgreementsOf(id)) {
      const due = rebateStanding(day.read, a, day.date).rebate_due;
      if (due <= 0) continue;
      day.b.as('lena.park', 'POST', '/ar-credit-memos', { customer: id, reason: 'rebate', rebate_agreement: a.id, amount: fromCents(due), note: 'Quarterly volume rebate.' });
    }
  }
};
