/**
 * The same facts written the ways people write them, for the positive controls of packs whose work
 * ends in a note, a report or an answer file: a layout (prose, a heading per item, a nested list, a
 * table) and a number format. Each pack words its items itself (the handbook's words, plain words,
 * abbreviations); this module only lays them out.
 */

/** One thing the text states: its title (the concept, in some wording) and what it says of it. */
export interface TextItem {
  title: string;
  fields: { label: string; value: string }[];
}

export const LAYOUTS = ['prose', 'headings', 'nested', 'table'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** $1,234.56 / 1,234.56 / USD 1,234.56 / (1,234.56) for a decrease / the direction in words. */
export const NUMBER_FORMATS = ['dollars', 'plain', 'usd', 'accounting', 'words'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

/** Cents as a writer of the format would give them; a negative amount is a decrease. */
export function formatMoney(cents: number, format: NumberFormat): string {
  const abs = (Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const minus = cents < 0 ? '-' : '';
  switch (format) {
    case 'dollars': return `${minus}$${abs}`;
    case 'plain': return `${minus}${abs}`;
    case 'usd': return `USD ${minus}${abs}`;
    case 'accounting': return cents < 0 ? `(${abs})` : abs;
    case 'words': return cents < 0 ? `a decrease of ${abs}` : cents > 0 ? `an increase of ${abs}` : abs;
    default: {
      const unknown: never = format;
      throw new Error(`Unknown number format ${String(unknown)}.`);
    }
  }
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const cell = (text: string) => text.replace(/\|/g, '/');

/** The items in one layout, after a title and an introduction (paragraphs of prose). */
export function renderItems(title: string, intro: readonly string[], items: readonly TextItem[], layout: Layout): string {
  const out = [`# ${title}`, '', ...intro.flatMap((p) => [p, ''])];
  switch (layout) {
    case 'prose':
      out.push(items.map((i) => sentence(`${i.title}: ${i.fields.map((f) => `${f.label} ${f.value}`).join(', ')}`)).join(' '), '');
      break;
    case 'headings':
      for (const i of items) out.push(`## ${i.title}`, '', ...i.fields.flatMap((f) => [sentence(`${capital(f.label)}: ${f.value}`), '']));
      break;
    case 'nested':
      for (const i of items) out.push(`- ${i.title}`, ...i.fields.map((f) => `  - ${capital(f.label)}: ${f.value}`));
      out.push('');
      break;
    case 'table': {
      const labels = [...new Set(items.flatMap((i) => i.fields.map((f) => f.label)))];
      out.push(`| Item | ${labels.join(' | ')} |`, `|${' --- |'.repeat(labels.length + 1)}`);
      for (const i of items) out.push(`| ${cell(i.title)} | ${labels.map((l) => cell(i.fields.find((f) => f.label === l)?.value ?? '')).join(' | ')} |`);
      out.push('');
      break;
    }
    default: {
      const unknown: never = layout;
      throw new Error(`Unknown layout ${String(unknown)}.`);
    }
  }
  return out.join('\n');
}
