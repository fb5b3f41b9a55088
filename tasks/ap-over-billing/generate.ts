import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { assignQueue, billInvoice, draws, invoiceDate, linesOf, nextNumber, PLANTING_DATE, unbilledOrders } from '../shared/ap-exceptions/plant';

/**
 * Three goods invoices: one bills the whole quantity of a purchase order the vendor shipped short
 * (the trap: pay what was received, memo the rest), one bills a delivery received in full at a unit
 * price 4 to 8% above the PO (a look-alike: hold for price), and one at up to 2% above it (a
 * look-alike within the tolerance: pay as billed). Orders, the price rise, the order of entry and
 * the queue order are drawn from the seed.
 */
export function generate(ctx: GenerateContext): Truth {
  const d = draws(ctx.random('queue'));
  if (ctx.today() !== PLANTING_DATE) ctx.advanceTo(PLANTING_DATE);
  const orders = unbilledOrders(ctx);
  if (orders.short.length === 0 || orders.received.length === 0) throw new Error('No short shipment or no unbilled delivery to plant.');
  const short = d.pick(orders.short);
  const received = d.pick(orders.received.filter((p) => p.vendor.id !== short.vendor.id));
  const others = orders.received.filter((p) => p.vendor.id !== short.vendor.id && p.vendor.id !== received.vendor.id && p.lines.every((l) => l.unit_price >= 50));
  if (others.length === 0) throw new Error('No third unbilled delivery to bill within the price tolerance.');
  const within = d.pick(others);
  const upliftBp = d.int(400, 800);
  // MAT-1.3's other side: at most 2% over the PO (2% exactly when the price allows), so it is paid as billed.
  const withinPrice = (l: { unit_price: number }) => l.unit_price + Math.floor((l.unit_price * 200) / 10000);
  const plant = {
    trap: () => billInvoice(ctx, { vendor: short.vendor, po: short.id, number: nextNumber(ctx, short.vendor.id), date: invoiceDate(d.float, short), lines: linesOf(short) }),
    lookalike: () => billInvoice(ctx, {
      vendor: received.vendor, po: received.id, number: nextNumber(ctx, received.vendor.id), date: invoiceDate(d.float, received),
      lines: linesOf(received, (l) => l.qty, (l) => Math.round((l.unit_price * (10000 + upliftBp)) / 10000)),
    }),
    within: () => billInvoice(ctx, { vendor: within.vendor, po: within.id, number: nextNumber(ctx, within.vendor.id), date: invoiceDate(d.float, within), lines: linesOf(within, (l) => l.qty, withinPrice) }),
  };
  const ids: Record<string, string> = {};
  for (const role of d.shuffle(['trap', 'lookalike', 'within'] as const)) ids[role] = plant[role]();
  const queued = d.shuffle([ids.trap!, ids.lookalike!, ids.within!]);
  assignQueue(ctx, queued.map((id) => ({ record_type: 'ap_invoice' as const, record_id: id })));
  const line = short.lines[0]!;
  return {
    planted: [
      { id: ids.trap!, role: 'trap', clauses: ['MAT-1.1', 'MAT-1.2/short_pay', 'MAT-1.2/memo', 'PAY-1.1'], description: `${short.vendor.name} bills ${line.qty} on ${short.id}, ${line.received_qty} received: pay the received units at the PO price, debit memo for ${line.qty - line.received_qty}` },
      { id: ids.lookalike!, role: 'lookalike', clauses: ['MAT-1.1', 'MAT-1.3/variance'], description: `${received.vendor.name} bills ${received.id} at ${(upliftBp / 100).toFixed(2)}% over the PO price: hold price_variance, no payment, no memo` },
      {
        id: ids.within!, role: 'lookalike', clauses: ['MAT-1.3/tolerance', 'PAY-1.1'],
        description: `${within.vendor.name} bills ${within.id} at ${within.lines.map((l) => (((withinPrice(l) - l.unit_price) * 100) / l.unit_price).toFixed(2) + '%').join(', ')} over the PO price, within the 2% tolerance: pay as billed`,
      },
    ],
    queue: queued,
  } as Truth;
}
