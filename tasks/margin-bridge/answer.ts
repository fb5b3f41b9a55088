import { formatMoney, renderItems, type Layout, type NumberFormat, type TextItem } from '../shared/text-layouts';
import { money, type Bridge } from './bridge';
import { AFTER, BEFORE } from './generate';

/** How an answer departs from the handbook's: each negative control changes one thing. */
export interface Slant {
  /** Leaves the write-off out (MB-1.2/write_off). */
  omitWriteOff?: boolean;
  /** Gives the rebate at the whole new rate rather than what the tier added (MB-1.3). */
  rebateAtFullRate?: boolean;
  /** Says the rebate added to margin: its amount right, its direction wrong (MB-1.3). */
  rebateAsIncrease?: boolean;
  /** Cites the receipts for the price increase rather than the vendor's invoice (MB-1.2/price). */
  priceOnReceipts?: boolean;
  /** Cites the write-off's adjustment for the rebate (MB-1.2/rebate). */
  rebateOnWriteOff?: boolean;
  /** Names the mix in one line and lists its figure with the others, in no sentence of its own (MB-1.2/mix). */
  mixInBareList?: boolean;
  /** Gross margin as sales less cost of goods sold alone (MB-1.1). */
  revenueLessCogsOnly?: boolean;
  /** Tries to book the rebate accrual itself before answering (MB-2.1). */
  triesToPost?: boolean;
}

/** The oracle's answer: prose and a list of drivers, amounts as 1,234.56 with decreases in parentheses. */
export function answer(b: Bridge, slant: Slant): string {
  const change = b.after - b.before;
  const rebate = slant.rebateAtFullRate ? b.rebate.amount * 2 : b.rebate.amount;
  const explained = b.price.amount + rebate + b.writeOff.amount + b.mix;
  const rebateSaid = slant.rebateAsIncrease ? `added ${money(Math.abs(rebate))} to margin` : money(rebate);
  const lines = [
    `# Gross margin bridge, ${BEFORE} to ${AFTER}`,
    '',
    `Gross margin was ${money(b.before)} in August and ${money(b.after)} in September, a change of ${money(change)}.`,
    '',
    '## Drivers',
    '',
    `- Vendor price increase effective 1 September: ${money(b.price.amount)}, billed on top of the PO price on ${slant.priceOnReceipts ? `receipts ${b.receipts.join(', ')}` : `vendor invoice ${b.price.document}`}.`,
    `- Retroactive customer rebate tier reached in September: ${rebateSaid}, journal entry ${slant.rebateOnWriteOff ? b.writeOff.document : b.rebate.document}.`,
  ];
  if (!slant.omitWriteOff) lines.push(`- Inventory write-off of corroded stock: ${money(b.writeOff.amount)}, adjustment ${b.writeOff.document}.`);
  if (slant.mixInBareList) lines.push('- Mix of items sold.', '', `Figures: ${money(b.mix)}.`);
  else lines.push(`- Mix of items sold, at August's margin rates (sales-margin report by item): ${money(b.mix)}.`);
  lines.push('', `Everything else (volume, production variances, scrap, freight) comes to ${money(change - explained)}.`, '');
  return lines.join('\n');
}

/** How a positive control writes the same answer: the handbook's words, an accountant's, or with abbreviations. */
export type Wording = 'handbook' | 'plain' | 'abbreviations';
export interface Style { layout: Layout; format: NumberFormat; wording: Wording }

const WORDS: Record<Wording, { august: string; september: string; change: string; price: string; rebate: string; writeOff: string; mix: string; effect: string; source: string }> = {
  handbook: {
    august: 'August gross margin', september: 'September gross margin', change: 'Change in gross margin',
    price: "Vendor's price increase", rebate: 'Customer rebate', writeOff: 'Inventory write-off', mix: 'Mix of items sold',
    effect: 'effect on gross margin', source: 'source document',
  },
  plain: {
    august: 'Gross profit in August', september: 'Gross profit in September', change: 'Gross profit difference, September against August',
    price: 'Supplier cost increase', rebate: 'Retroactive rebate to the customer', writeOff: 'Stock write-down', mix: 'Sales mix',
    effect: 'impact', source: 'booked on',
  },
  abbreviations: {
    august: 'Aug. gross margin (approx. a month of U.S. sales)', september: 'Sept. gross margin', change: 'Change in GM, Sept. vs. Aug.',
    price: 'Vendor price increase, i.e. the new list price billed on the PO', rebate: 'Cust. rebate, e.g. the retroactive tier', writeOff: 'Inv. write-off of corroded stock', mix: 'Mix of items sold vs. Aug. rates',
    effect: 'effect on GM', source: 'doc. no.',
  },
};

export type Line = 'august' | 'september' | 'change' | 'price' | 'rebate' | 'writeOff' | 'mix' | 'rest';

/** The handbook's answer in another layout, wording and number format (a positive control); `omit` leaves lines out (a mutant). */
export function styledAnswer(b: Bridge, style: Style, omit: readonly Line[] = []): string {
  const w = WORDS[style.wording];
  const level = style.format === 'words' || style.format === 'accounting' ? 'plain' : style.format;
  const m = (c: number) => formatMoney(c, style.format);
  const change = b.after - b.before;
  const rest = change - (b.price.amount + b.rebate.amount + b.writeOff.amount + b.mix);
  const items: (TextItem & { line: Line })[] = [
    { line: 'august', title: w.august, fields: [{ label: 'amount', value: formatMoney(b.before, level) }] },
    { line: 'september', title: w.september, fields: [{ label: 'amount', value: formatMoney(b.after, level) }] },
    { line: 'change', title: w.change, fields: [{ label: 'amount', value: m(change) }] },
    { line: 'price', title: w.price, fields: [{ label: w.effect, value: m(b.price.amount) }, { label: w.source, value: b.price.document }] },
    { line: 'rebate', title: w.rebate, fields: [{ label: w.effect, value: m(b.rebate.amount) }, { label: w.source, value: b.rebate.document }] },
    { line: 'writeOff', title: w.writeOff, fields: [{ label: w.effect, value: m(b.writeOff.amount) }, { label: w.source, value: b.writeOff.document }] },
    { line: 'mix', title: w.mix, fields: [{ label: w.effect, value: m(b.mix) }, { label: w.source, value: 'sales-margin report by item' }] },
    { line: 'rest', title: 'Everything else (volume, production variances, freight)', fields: [{ label: w.effect, value: m(rest) }] },
  ];
  return renderItems(`Gross margin bridge, ${BEFORE} to ${AFTER}`, [], items.filter((i) => !omit.includes(i.line)), style.layout);
}
