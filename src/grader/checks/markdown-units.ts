/**
 * A Markdown text as a reader takes it in: units that each may state a fact whole. A sentence of a
 * paragraph; a list item with the items nested under it; a table row, read with its header (the
 * column's meaning); a heading with the text under it up to the next heading of its level or higher.
 */
export interface TextUnit {
  kind: 'sentence' | 'item' | 'row' | 'section';
  /** The unit's own text: the sentence, the item's line(s), the row with its header, the heading's title. */
  head: string;
  /** Units inside it: an item's nested items, a section's sentences, items, rows and subsections. */
  children: TextUnit[];
}

/** Words whose period does not end a sentence (matched without case, the period dropped). */
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'approx', 'inc', 'no', 'nos', 'vs', 'u.s', 'u.k', 'co', 'corp', 'ltd', 'llc', 'jr', 'sr', 'dr', 'mr', 'mrs', 'ms', 'st',
  'dept', 'est', 'avg', 'fig', 'cf', 'ref', 'inv', 'qty', 'ea', 'pcs', 'amt', 'acct', 'doc', 'docs', 'cust', 'adj', 'incl', 'excl', 'ca', 'mgmt', 'div',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

/** Emphasis and code marks a reader does not see. */
const plainInline = (text: string) => text.replace(/\*\*|__|`|\*/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');

/**
 * A paragraph's sentences: one ends at `.`, `!` or `?` followed by a space, unless the period closes
 * an abbreviation (e.g., Inc., No., U.S.) or an initial, or the next word starts in lower case
 * (`Cust. rebate`); a decimal point has no space after it.
 */
export function sentencesOf(paragraph: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (const m of paragraph.matchAll(/[.!?]+["')\]]*(?=\s+(\S))/g)) {
    const before = paragraph.slice(from, m.index);
    const word = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
    if (m[0].startsWith('.') && (ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word) || /\p{Ll}/u.test(m[1]!))) continue;
    out.push(paragraph.slice(from, m.index + m[0].length).trim());
    from = m.index + m[0].length;
  }
  out.push(paragraph.slice(from).trim());
  return out.filter((s) => s.length > 0);
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => plainInline(c.trim()));

/** A row with its header: `Driver: Write-off; Effect on margin: (1,234.56)`. */
function rowText(row: string[], header: string[] | undefined): string {
  return row.flatMap((c, i) => (c === '' ? [] : [header?.[i] ? `${header[i]}: ${c}` : c])).join('; ');
}

interface OpenItem { unit: TextUnit; indent: number; lines: string[] }

/** The units of a Markdown text, as a tree under one root section (the text before any heading is its body). */
export function markdownUnits(text: string): TextUnit {
  const root: TextUnit = { kind: 'section', head: '', children: [] };
  const sections: { unit: TextUnit; level: number }[] = [{ unit: root, level: 0 }];
  const section = () => sections[sections.length - 1]!.unit;
  let paragraph: string[] = [];
  let items: OpenItem[] = [];
  let table: { header?: string[]; rows: string[][] } | undefined;
  let fence = false;

  const flushParagraph = () => {
    if (paragraph.length) for (const s of sentencesOf(plainInline(paragraph.join(' ')))) section().children.push({ kind: 'sentence', head: s, children: [] });
    paragraph = [];
  };
  const closeItems = (indent = -1) => {
    while (items.length && items[items.length - 1]!.indent > indent) {
      const it = items.pop()!;
      it.unit.head = plainInline(it.lines.join(' '));
    }
  };
  const flushTable = () => {
    if (!table) return;
    for (const r of table.rows) section().children.push({ kind: 'row', head: rowText(r, table.header), children: [] });
    table = undefined;
  };
  const flushAll = () => {
    flushParagraph();
    closeItems();
    flushTable();
  };

  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*(```|~~~)/.test(raw)) {
      flushAll();
      fence = !fence;
      continue;
    }
    const line = fence ? raw : raw.replace(/^\s*>\s?/, '');
    if (line.trim() === '') {
      flushParagraph();
      flushTable();
      // A blank line ends a list unless the next line goes on with it (an indented line or another item).
      const next = lines.slice(i + 1).find((l) => l.trim() !== '');
      if (items.length && !(next && (ITEM.test(next) || /^\s{2,}\S/.test(next)))) closeItems();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading && !fence) {
      flushAll();
      const level = heading[1]!.length;
      while (sections.length > 1 && sections[sections.length - 1]!.level >= level) sections.pop();
      const unit: TextUnit = { kind: 'section', head: plainInline(heading[2]!), children: [] };
      section().children.push(unit);
      sections.push({ unit, level });
      continue;
    }
    if (RULE.test(line) && !items.length) {
      flushAll();
      continue;
    }
    if (line.trim().startsWith('|') || (table && line.includes('|'))) {
      flushParagraph();
      closeItems();
      if (TABLE_SEPARATOR.test(line)) {
        if (table && !table.header && table.rows.length === 1) table.header = table.rows.pop();
        continue;
      }
      table ??= { rows: [] };
      table.rows.push(cells(line));
      continue;
    }
    flushTable();
    const item = ITEM.exec(line);
    if (item) {
      flushParagraph();
      const indent = item[1]!.replace(/\t/g, '    ').length;
      closeItems(indent - 1);
      const unit: TextUnit = { kind: 'item', head: '', children: [] };
      (items.length ? items[items.length - 1]!.unit.children : section().children).push(unit);
      items.push({ unit, indent, lines: [item[2]!] });
      continue;
    }
    if (items.length) items[items.length - 1]!.lines.push(line.trim());
    else paragraph.push(line.trim());
  }
  flushAll();
  return root;
}

/** Every unit of the tree (the root aside when it has no title), outermost first. */
export function allUnits(root: TextUnit): TextUnit[] {
  const out: TextUnit[] = [];
  const walk = (u: TextUnit) => {
    out.push(u);
    u.children.forEach(walk);
  };
  walk(root);
  return out;
}

/** A unit's whole text: its head and every unit inside it. */
export function fullText(unit: TextUnit): string {
  return [unit.head, ...unit.children.map(fullText)].filter((t) => t !== '').join('\n');
}
