import type { GenerateContext, Truth } from '../../src/task-pack/code';
import { assignQueue, BANK, draws, invoicesOf, must, PLANTING_DATE } from '../shared/ap-exceptions/plant';

/**
 * A wire the CFO released to a vendor that has three open invoices: it cleared on Friday, and its
 * bank-feed description names two of them, newest first, so that applying it oldest first goes
 * wrong. It pays the first in full and part of the second; the third is not named. The vendor, the
 * invoices, the amount and the queue order are drawn from the seed.
 */
export function generate(ctx: GenerateContext): Truth {
  const d = draws(ctx.random('queue'));
  if (ctx.today() !== PLANTING_DATE) ctx.advanceTo(PLANTING_DATE);
  const open = (vendor: string) => invoicesOf(ctx, vendor).filter((i) => i.status === 'approved' && i.open_holds === 0);
  const approved = must(ctx.system.get('/ap-invoices', { status: 'approved', limit: 1000 }), 'open invoices').items as { vendor: string }[];
  const vendors = [...new Set(approved.map((i) => i.vendor))].sort().filter((v) => open(v).length >= 3);
  if (vendors.length === 0) throw new Error('No vendor has three open invoices to plant a wire against.');
  const vendorId = d.pick(vendors);
  const vendor = must(ctx.system.get(`/vendors/${vendorId}`), vendorId);
  const three = d.shuffle(open(vendorId)).slice(0, 3);
  const unnamed = three[d.int(0, 2)]!;
  const named = three.filter((i) => i !== unnamed).sort((a, b) => (a.invoice_date > b.invoice_date ? -1 : a.invoice_date < b.invoice_date ? 1 : 0));
  const [first, second] = named as [typeof unnamed, typeof unnamed];
  const firstCents = Math.round(first.open_amount * 100);
  const secondCents = Math.round(second.open_amount * 100);
  // Whole dollars, as treasury wires them, between a quarter and three quarters of the second invoice.
  const amount = firstCents + Math.round((secondCents * (0.25 + d.float() * 0.5)) / 100) * 100;
  const reference = `WIRE OUT ${d.int(100000, 999999)}`;
  const line = must(ctx.as(BANK).post('/bank-statement-lines', {
    bank_account: 'BANK-OP', date: PLANTING_DATE, amount: (-amount / 100).toFixed(2), kind: 'payment_cleared', reference,
    description: `Outgoing wire approved by Ingrid Moe, CFO, to ${vendor.name}, for invoices ${first.vendor_invoice_number} and ${second.vendor_invoice_number}`,
  }), 'wire line');
  const queued = d.shuffle([
    { record_type: 'bank_statement_line' as const, record_id: line.id as string, note: 'Wire released by the CFO outside the payment run; it cleared on Friday.' },
    ...three.map((i) => ({ record_type: 'ap_invoice' as const, record_id: i.id as string })),
  ]);
  assignQueue(ctx, queued);
  return {
    planted: [
      { id: line.id, role: 'wire', clauses: ['WIRE-1.1'], description: `${reference}: ${(amount / 100).toFixed(2)} to ${vendor.name} for ${first.vendor_invoice_number} then ${second.vendor_invoice_number}` },
      { id: first.id, role: 'trap', clauses: ['WIRE-1.2'], description: `${first.vendor_invoice_number}, listed first: paid in full by the wire` },
      { id: second.id, role: 'trap', clauses: ['WIRE-1.2', 'WIRE-1.3'], description: `${second.vendor_invoice_number}, listed second: ${((amount - firstCents) / 100).toFixed(2)} applied, the rest left open` },
      { id: unnamed.id, role: 'lookalike', clauses: ['WIRE-1.3'], description: `${unnamed.vendor_invoice_number}, open and not named by the wire: untouched` },
    ],
    queue: queued.map((q) => q.record_id),
  } as Truth;
}
