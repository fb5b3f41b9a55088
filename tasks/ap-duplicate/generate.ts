import type { GenerateContext, Truth } from '../../src/task-pack/code';
import {
  assignQueue, billInvoice, draws, invoiceDate, invoicesOf, linesOf, must, nextNumber, PLANTING_DATE, unbilledOrders, type PoInfo,
} from '../shared/ap-exceptions/plant';
import { normalizeNumber } from './judgement';

/**
 * The same number written another way (DUP-1.1): with or without INV, zeros, a space or a dash.
 * A vendor's own letter prefix stays, since only an INV prefix is dropped when numbers are compared.
 */
export function rewrites(printed: string): string[] {
  const m = /^(.*?)(\d+)$/.exec(printed)!;
  const prefix = m[1]!;
  const digits = m[2]!;
  const bare = String(Number(digits));
  const candidates = /^(INV[- ]?)?$/i.test(prefix)
    ? [`INV-${bare.padStart(6, '0')}`, bare, `INV ${bare}`, `inv${bare}`, `INV-${bare}`, `0${bare}`]
    : [`${prefix.replace(/[-\s]/g, '')}${digits}`, `${prefix.replace(/-/g, ' ')}${digits}`, `${prefix.toLowerCase()}${digits}`];
  return candidates.filter((c) => c !== printed && normalizeNumber(c) === normalizeNumber(printed));
}

/**
 * Two invoices from one vendor of standing orders, for the same total: a paid invoice resent with its
 * number written another way (the trap), and the invoice for the vendor's latest delivery under its
 * next number (the look-alike). Which vendor, which original, how the number is rewritten, the order
 * they are entered in and their order in the queue are drawn from the seed.
 */
export function generate(ctx: GenerateContext): Truth {
  const d = draws(ctx.random('queue'));
  if (ctx.today() !== PLANTING_DATE) ctx.advanceTo(PLANTING_DATE);
  const totalOf = (po: PoInfo) => po.lines.reduce((s, l) => s + Math.round(l.qty * l.unit_price), 0);
  const candidates = unbilledOrders(ctx).received.map((po) => ({
    po, originals: invoicesOf(ctx, po.vendor.id).filter((i) => i.status === 'paid' && Math.round(i.total * 100) === totalOf(po)),
  })).filter((c) => c.originals.length > 0);
  if (candidates.length === 0) throw new Error('No vendor has a paid invoice and an unbilled delivery of the same total.');
  const { po, originals } = d.pick(candidates);
  const original = d.pick(originals);
  const printed = d.pick(rewrites(original.vendor_invoice_number));
  const originalView = must(ctx.system.get(`/ap-invoices/${original.id}`), original.id);
  const originalLines = poLinesOf(ctx, originalView.po);
  const lookalikeNumber = nextNumber(ctx, po.vendor.id);
  const plant = {
    trap: () => billInvoice(ctx, {
      vendor: po.vendor, po: originalView.po, number: printed, date: originalView.invoice_date,
      lines: (originalView.lines as { po_line: number; qty: number; unit_price: number }[]).map((l) => {
        const poLine = originalLines.find((x) => x.line === l.po_line)!;
        return { po_line: l.po_line, item: poLine.item, description: poLine.description, unit: poLine.unit, qty: l.qty, unit_price: Math.round(l.unit_price * 100) };
      }),
    }),
    lookalike: () => billInvoice(ctx, { vendor: po.vendor, po: po.id, number: lookalikeNumber, date: invoiceDate(d.float, po), lines: linesOf(po) }),
  };
  const ids: Record<string, string> = {};
  for (const role of d.shuffle(['trap', 'lookalike'] as const)) ids[role] = plant[role]();
  const trap = ids.trap!;
  const lookalikeId = ids.lookalike!;
  const queued = d.shuffle([trap, lookalikeId]);
  assignQueue(ctx, queued.map((id) => ({ record_type: 'ap_invoice' as const, record_id: id })));
  return {
    planted: [
      { id: trap, role: 'trap', clauses: ['DUP-1.1', 'DUP-1.2'], description: `${printed} resends ${original.vendor_invoice_number} (${original.id}, paid) of ${po.vendor.name}: flag against ${original.id}, hold duplicate, do not pay` },
      { id: lookalikeId, role: 'lookalike', clauses: ['DUP-1.3', 'PAY-1.1'], description: `${lookalikeNumber} of ${po.vendor.name}, same total, bills ${po.id} and its receipt: pay in full` },
    ],
    queue: queued,
  } as Truth;
}

function poLinesOf(ctx: GenerateContext, id: string): { line: number; item: string; description: string; unit: string }[] {
  return must(ctx.system.get(`/purchase-orders/${id}`), id).lines as { line: number; item: string; description: string; unit: string }[];
}
