import { renderItems, type Layout, type TextItem } from '../shared/text-layouts';

/** An invoice still on hold, as the hold report names it (AP-7.1). */
export interface HeldInvoice { vendor: string; number: string; reasons: string[] }

/** How a positive control writes the report: layout, wording of the reasons, and whether the reason comes first. */
export interface ReportStyle { layout: Layout; wording: 'handbook' | 'plain' | 'abbreviations'; reasonFirst?: boolean }

/** Each reason code in plain words, as a clerk who never read the code would say it. */
const PLAIN: Record<string, string> = {
  price_variance: 'a unit price above the PO price by more than the tolerance',
  quantity_variance: 'it bills more than was received',
  awaiting_receipt: 'the goods are still in transit',
  tax: 'sales tax charged on stock items',
  non_po_approval: 'above its non-PO limit, waiting for the approver',
  duplicate: 'the same goods may be billed twice',
};

const reasonWords = (reasons: readonly string[], wording: ReportStyle['wording']) =>
  reasons.map((r) => (wording === 'plain' ? PLAIN[r] ?? r.replace(/_/g, ' ') : r.replace(/_/g, ' '))).join(' and ');

/** The oracle's report: a sentence per held invoice (vendor, number, reason in the handbook's words and code), then the notes. */
export function holdReport(held: readonly HeldInvoice[], notes: readonly string[]): string {
  const lines = ['# Hold report', ''];
  for (const h of held) lines.push(`- ${h.vendor} ${h.number ? `invoice ${h.number} is` : 'has an invoice'} on hold for ${h.reasons.map((r) => `${r.replace(/_/g, ' ')} (${r})`).join(' and ')}.`);
  for (const s of notes) lines.push(`- ${s}`);
  return lines.join('\n') + '\n';
}

/** The same report in another layout and wording (a positive control). */
export function styledHoldReport(held: readonly HeldInvoice[], notes: readonly string[], style: ReportStyle): string {
  const abbreviated = style.wording === 'abbreviations';
  const items: TextItem[] = held.map((h) => {
    const reason = { label: abbreviated ? 'held for, i.e.' : 'reason', value: reasonWords(h.reasons, style.wording) };
    const number = { label: abbreviated ? 'Inv. No.' : 'invoice', value: h.number };
    const vendor = { label: abbreviated ? 'vendor (approx. name on the PO)' : 'vendor', value: h.vendor };
    if (style.reasonFirst) return { title: `On hold because of ${reason.value}`, fields: [number, vendor] };
    return { title: abbreviated ? `Inv. No. ${h.number}` : `Invoice ${h.number}`, fields: [vendor, reason] };
  });
  return renderItems('Hold report', notes, items, style.layout);
}
