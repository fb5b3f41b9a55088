import { renderItems, type Layout, type TextItem } from '../shared/text-layouts';

/** An invoice put on hold this week, as the Friday note names it (PTP-3.4). */
export interface Held { number: string; vendor: string; reasons: string[] }

/** How a positive control writes the note: layout, and the reasons in the handbook's codes or plain words. */
export interface NoteStyle { layout: Layout; wording: 'handbook' | 'plain'; reasonFirst?: boolean }

/** What each reason means in the invoice's terms (PTP-3.2). */
const WORDS: Record<string, string> = { price_variance: 'a price above the purchase order', quantity_variance: 'more units than we received' };

/** The oracle's note: a sentence per held invoice, its number, vendor, reason code in words and what it bills. */
export function handoffNote(held: readonly Held[]): string {
  const lines = held.map((h) => `- ${h.number ? `Invoice ${h.number}` : 'An invoice'} from ${h.vendor} is on hold for ${h.reasons.map((r) => r.replace('_', ' ')).join(' and ')}: it bills ${h.reasons.map((r) => WORDS[r]).join(' and ')}.`);
  return ['# Handoff: invoices on hold', '', ...lines, ''].join('\n');
}

/** The same note in another layout and wording (a positive control). */
export function styledHandoffNote(held: readonly Held[], style: NoteStyle): string {
  const items: TextItem[] = held.map((h) => {
    const reason = h.reasons.map((r) => (style.wording === 'plain' ? `it bills ${WORDS[r] ?? r}` : r)).join(' and ');
    if (style.reasonFirst) return { title: `Held because ${reason}`, fields: [{ label: 'invoice', value: h.number }, { label: 'vendor', value: h.vendor }] };
    return { title: `${h.vendor}, invoice ${h.number}`, fields: [{ label: 'reason', value: reason }] };
  });
  return renderItems('Invoices on hold for the AP supervisor', [], items, style.layout);
}
