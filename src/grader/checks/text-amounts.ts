import { readFigures } from './text-figures';
import { directionWords, type ConceptSpan, type DirectionWord } from './text-vocabulary';

/**
 * An amount a unit states, with the direction the text gives it. `strong` is what the figure's own
 * sentence, item or row says: a minus sign or parentheses, a word of direction beside it (`cost us
 * 1,234.56`, `1,234.56 lower`), or, when the text holds no other figure, a word of direction
 * anywhere in it (`the write-off reduced September's margin by 1,234.56`). `weak` is what the
 * heading or the item above it says (`## Write-off (decrease)`), when the figure's own text says
 * nothing. 0 is no direction: an unsigned figure reads as positive.
 */
export interface StatedAmount {
  magnitude: number;
  strong: -1 | 0 | 1;
  weak: -1 | 0 | 1;
  money: boolean;
  /** The figure as written. */
  text: string;
}

/** How many words may stand between a word of direction and its figure (`reduced gross margin by 1,234.56`). */
const WINDOW = 4;
const tokens = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/** One polarity of the words, or 0 when there are none or both kinds. */
function polarity(words: readonly DirectionWord[]): -1 | 0 | 1 {
  const kinds = new Set(words.map((w) => w.direction));
  return kinds.size === 1 ? [...kinds][0]! : 0;
}

/** The direction the words of a heading or parent item give (one polarity only). */
export function headDirection(text: string, concepts: readonly ConceptSpan[]): -1 | 0 | 1 {
  return polarity(directionWords(text, concepts));
}

/**
 * The amounts of one unit's own text. Each word of direction binds to the nearest figure within
 * WINDOW words with no other figure between, a word before its figure winning a tie (`11,000.00,
 * down 1,345.67`); a word that leads to a level (`fell from 12,345.67`, `dropped to 11,000.00`)
 * binds nothing.
 */
export function statedAmounts(text: string, concepts: readonly ConceptSpan[], weak: -1 | 0 | 1): StatedAmount[] {
  const figures = readFigures(text).filter((f) => !concepts.some((c) => c.start <= f.start && f.end <= c.end));
  const words = directionWords(text, concepts).filter((w) => !figures.some((f) => w.start < f.end && f.start < w.end));
  const bound = new Map<number, DirectionWord[]>();
  const used = new Set<DirectionWord>();
  for (const w of words) {
    let best: { figure: number; cost: number } | undefined;
    figures.forEach((f, i) => {
      const before = w.end <= f.start;
      const between = before ? text.slice(w.end, f.start) : text.slice(f.end, w.start);
      if (figures.some((g) => g !== f && g.start >= Math.min(w.end, f.end) && g.end <= Math.max(w.start, f.start))) return;
      if (/[.;:!?]\s/.test(between)) return;
      const t = tokens(between);
      if (before && /^(to|from|at)$/i.test(t[t.length - 1] ?? '')) return;
      if (t.length > WINDOW) return;
      const cost = t.length + (before ? 0 : 1);
      if (!best || cost < best.cost) best = { figure: i, cost };
    });
    if (best) {
      bound.set(best.figure, [...(bound.get(best.figure) ?? []), w]);
      used.add(w);
    }
  }
  const loose = polarity(words.filter((w) => !used.has(w)));
  return figures.map((f, i) => {
    const own = polarity(bound.get(i) ?? []);
    const strong = f.negative ? -1 : own !== 0 ? own : figures.length === 1 ? loose : 0;
    return { magnitude: Math.abs(f.value), strong, weak: strong === 0 ? weak : 0, money: f.money, text: text.slice(f.start, f.end) };
  });
}

/**
 * Whether a stated amount is the expected one: its magnitude within the tolerance and, when the
 * sign is bound, its direction: a decrease must be said to be one (here or by its heading); an
 * increase must not be said to be a decrease.
 */
export function amountAgrees(a: StatedAmount, expected: number, tolerance: number, signBound: boolean): boolean {
  if (Math.abs(a.magnitude - Math.abs(expected)) > tolerance + 1e-9) return false;
  if (!signBound || expected === 0) return true;
  if (expected < 0) return a.strong === -1 || (a.strong === 0 && a.weak === -1);
  return a.strong !== -1;
}

/** What a stated amount says of its direction, for a failure's evidence. */
export function directionSaid(a: StatedAmount): string {
  const d = a.strong || a.weak;
  return d === -1 ? 'as a decrease' : d === 1 ? 'as an increase' : 'without saying it is a decrease';
}
