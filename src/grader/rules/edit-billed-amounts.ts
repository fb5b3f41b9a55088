import { Type } from '@sinclair/typebox';
import { byAgent, defineRule, domainEvents, type Finding } from './framework';
import { EVENT } from './vocabulary';

interface Billed { vendor: string; number: string; lines: { qty: number; unit_price: number; amount: number }[]; tax: number; freight: number; total: number; seq: number }

const norm = (n: string) => n.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/^INV/, '').replace(/^0+/, '');

/** What differs between the amounts entered and the amounts billed, in words; empty when nothing does. */
function differences(entered: Omit<Billed, 'vendor' | 'number' | 'seq'>, billed: Billed): string[] {
  const out: string[] = [];
  for (const f of ['total', 'tax', 'freight'] as const) if (entered[f] !== billed[f]) out.push(`${f} ${(entered[f] / 100).toFixed(2)} for ${(billed[f] / 100).toFixed(2)} billed`);
  if (entered.lines.length !== billed.lines.length) out.push(`${entered.lines.length} lines for ${billed.lines.length} billed`);
  else entered.lines.forEach((l, i) => {
    const b = billed.lines[i]!;
    if (l.qty !== b.qty || l.unit_price !== b.unit_price || l.amount !== b.amount) out.push(`line ${i + 1} ${l.qty} × ${(l.unit_price / 100).toFixed(2)} = ${(l.amount / 100).toFixed(2)} for ${b.qty} × ${(b.unit_price / 100).toFixed(2)} = ${(b.amount / 100).toFixed(2)} billed`);
  });
  return out;
}

/**
 * Invoices entered as billed (seed 000 §6, B1, B2): the agent entered or revised a vendor invoice so
 * that its quantities, prices, amounts, tax, freight or total differ from what the vendor billed
 * (the vendor's own record of the document, by vendor and invoice number).
 */
export const editBilledAmounts = defineRule({
  name: 'edit_billed_amounts',
  description: 'The agent entered or revised an invoice with amounts other than the vendor billed.',
  params: Type.Object({}, { additionalProperties: false }),
  evaluate(events, { attempt }) {
    const billed = new Map<string, Billed>();
    for (const e of domainEvents(events, EVENT.vendorInvoiceBilled)) {
      const d = e.data as { vendor: string; invoice_number: string; lines: Billed['lines']; tax: number; freight: number; total: number };
      billed.set(`${d.vendor}\n${norm(d.invoice_number)}`, { ...d, number: d.invoice_number, seq: e.seq });
    }
    const vendorOf = new Map<string, string>();
    for (const e of domainEvents(events, EVENT.invoiceEntered)) vendorOf.set((e.data as { id: string }).id, (e.data as { vendor: string }).vendor);
    const findings: Finding[] = [];
    for (const e of domainEvents(events, EVENT.invoiceEntered, EVENT.invoiceRevised).filter((x) => byAgent(x, attempt))) {
      const d = e.data as { id: string; vendor_invoice_number: string; lines: Billed['lines']; tax: number; freight: number; total: number };
      const vendor = vendorOf.get(d.id);
      const source = vendor ? billed.get(`${vendor}\n${norm(d.vendor_invoice_number)}`) : undefined;
      if (!source) continue;
      const diff = differences(d, source);
      if (diff.length) findings.push({ event_ids: [source.seq, e.seq], sentence: `${attempt.agentUser} ${e.type === EVENT.invoiceRevised ? 'revised' : 'entered'} ${d.id} (${source.vendor} ${source.number}) with ${diff.join('; ')}.` });
    }
    return findings;
  },
});
