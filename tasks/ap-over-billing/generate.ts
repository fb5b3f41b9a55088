import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { assignQueue, billInvoice, draws, invoiceDate, linesOf, nextNumber, PLANTING_DATE, unbilledOrders } from '../shared/ap-exceptions/plant';

/**
 * Two goods invoices: one bills the whole quantity of a purchase order the vendor shipped short (the
 * trap: pay what was received, memo the rest), one bills a delivery received in full at a unit price
 * 4 to 8% above the PO (the look-alike: hold for price). Orders, the price rise, the order of entry
 * and the queue order are drawn from the seed.
 */
export function generate(ctx: GenerateContext): Truth {
  const d = draws(ctx.random('queue'));
  if (ctx.today() !== PLANTING_DATE) ctx.advanceTo(PLANTING_DATE);
  const orders = unbilledOrders(ctx);
  if (orders.short.length === 0 || orders.received.length === 0) throw new Error('No short shipment or no unbilled delivery to plant.');
  const short = d.pick(orders.short);
  const received = d.pick(orders.received.filter((p) => p.vendor.id !== short.vendor.id));
  const upliftBp = d.int(400, 800);
  const plant = {
    trap: () => billInvoice(ctx, { vendor: short.vendor, po: short.id, number: nextNumber(ctx, short.vendor.id), date: invoiceDate(d.float, short), lines: linesOf(short) }),
    lookalike: () => billInvoice(ctx, {
      vendor: received.vendor, po: received.id, number: nextNumber(ctx, received.vendor.id), date: invoiceDate(d.float, received),
      lines: linesOf(received, (l) => l.qty, (l) => Math.round((l.unit_price * (10000 + upliftBp)) / 10000)),
    }),
  };
  const ids: Record<string, string> = {};
  for (const role of d.shuffle(['trap', 'lookalike'] as const)) ids[role] = plant[role]();
  const queued = d.shuffle([ids.trap!, ids.lookalike!]);
  assignQueue(ctx, queued.map((id) => ({ record_type: 'ap_invoice' as const, record_id: id })));
  const line = short.lines[0]!;
  return {
    planted: [
      { id: ids.trap!, role: 'trap', clauses: ['MAT-1.1', 'MAT-1.2', 'PAY-1.1'], description: `${short.vendor.name} bills ${line.qty} on ${short.id}, ${line.received_qty} received: pay the received units at the PO price, debit memo for ${line.qty - line.received_qty}` },
      { id: ids.lookalike!, role: 'lookalike', clauses: ['MAT-1.3'], description: `${received.vendor.name} bills ${received.id} at ${(upliftBp / 100).toFixed(2)}% over the PO price: hold price_variance, no payment, no memo` },
    ],
    queue: queued,
  } as Truth;
}
