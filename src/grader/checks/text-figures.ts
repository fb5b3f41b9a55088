/** How figures written in prose are read, for the text checks (seed 000 §7). */
export interface FigureReading {
  /** Read `1.2k`, `$3.4m`, `2bn` as thousands, millions, billions; by default such a figure is not read at all. */
  abbreviations?: boolean;
}

const SCALE: Record<string, number> = { k: 1e3, m: 1e6, mm: 1e6, bn: 1e9, b: 1e9 };

/**
 * One figure: an optional sign or opening parenthesis, an optional currency sign, digits (thousands
 * grouped by commas in threes, or none), decimals, an optional scale suffix and closing parenthesis.
 * The minus sign may be ASCII or U+2212.
 */
const FIGURE = /(\()?([-\u2212])?(\$\s?|US\$\s?|USD\s?)?([-\u2212])?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(bn|mm|[kmb])(?![a-z]))?(\))?/giu;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

/** One figure as written: its value, where it stands, and how its sign was given. */
export interface WrittenFigure {
  value: number;
  /** Where the figure's text starts and ends (sign, currency and parentheses included). */
  start: number;
  end: number;
  /** Written negative: a minus sign or accounting parentheses. */
  negative: boolean;
  /** Written as money: a currency sign or code, two decimals, or accounting parentheses. */
  money: boolean;
}

/**
 * The figures of a text as written: `1,234.50`, `$1,234.50`, `USD 1,234.50`, `(250.00)` and
 * `($250.00)` for negatives, `-3` and `−3`, `2%`. Never a figure out of something else: digits inside
 * an identifier (`CM-000123`, `INV7`) or a date (`2026-09-30`) are not figures, `3,4,5` is three
 * figures rather than 345, and the second number of a range (`12-16`) is positive. `1.2k` is read as
 * 1200 only when abbreviations are allowed, and otherwise not read.
 */
export function readFigures(text: string, reading: FigureReading = {}): WrittenFigure[] {
  const plain = text.replace(ISO_DATE, (d) => ' '.repeat(d.length));
  const out: WrittenFigure[] = [];
  for (const m of plain.matchAll(FIGURE)) {
    const [whole, open, signBefore, currency, signAfter, digits, decimals, scale, close] = m;
    const lead = plain[m.index - 1] ?? '';
    const next = plain[m.index + whole.length] ?? '';
    const signed = Boolean(signBefore || signAfter);
    // Letters run into the figure: part of a word or an identifier (INV7, 3rd, CM-000123).
    if (/[\p{L}_]/u.test(lead) || /[\p{L}_]/u.test(next)) continue;
    if (scale && !reading.abbreviations) continue;
    let value = Number(digits!.replace(/,/g, '') + (decimals ?? ''));
    if (scale) value *= SCALE[scale.toLowerCase()]!;
    // A hyphen right after digits joins a range (12-16): the second number is not negative.
    const range = signed && !open && /\p{N}/u.test(lead);
    const parenthesised = Boolean(open && close);
    const negative = !range && (signed || parenthesised);
    const start = m.index + (open && !close ? 1 : 0);
    const end = m.index + whole.length - (close && !open ? 1 : 0);
    out.push({ value: negative ? -value : value, start, end, negative, money: Boolean(currency) || decimals?.length === 3 || parenthesised });
  }
  return out;
}

/** The values of the figures of a text as written (readFigures). */
export function figuresIn(text: string, reading: FigureReading = {}): number[] {
  return readFigures(text, reading).map((f) => f.value);
}

/** Whether a figure of the list is within the tolerance of the expected one (by magnitude when the sign is free). */
export function figureMatches(found: readonly number[], expected: number, tolerance: number, eitherSign = false): boolean {
  const target = eitherSign ? Math.abs(expected) : expected;
  return found.some((f) => Math.abs((eitherSign ? Math.abs(f) : f) - target) <= tolerance + 1e-9);
}
