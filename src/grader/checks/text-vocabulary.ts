/**
 * Words a text check reads by meaning: the concepts a pack declares (each with the words people use
 * for it, the handbook's among them), names of parties, and the words that give an amount its
 * direction.
 */

/** Where a word or phrase stands in a text. */
export interface Span { start: number; end: number }
export interface ConceptSpan extends Span { concept: string }

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const BEFORE = '(?<![\\p{L}\\p{N}_])';
const AFTER = '(?![\\p{L}\\p{N}_])';

/**
 * A phrase as a pattern: case aside, words apart by spaces, hyphens or underscores or run together
 * (write-off, write off, writeoff; price_variance, price variance), an optional plural ending, and
 * never inside a longer word.
 */
export function phrasePattern(phrase: string): string {
  const words = phrase.trim().split(/[\s_-]+/).map(escape);
  return `${BEFORE}${words.join('[\\s_-]*')}(?:s|es)?${AFTER}`;
}

function spans(text: string, pattern: string): Span[] {
  return [...text.matchAll(new RegExp(pattern, 'giu'))].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** The words for each concept: the pack's, and the concept's own name (the handbook's code, `price_variance`). */
export function conceptWords(vocabulary: Readonly<Record<string, readonly string[]>>, concept: string): string[] {
  return [concept, ...(vocabulary[concept] ?? [])];
}

/**
 * The concepts a text names. Where phrases overlap the longest wins, so `price increase` names the
 * price increase and not, through `increase`, another concept.
 */
export function conceptsIn(text: string, vocabulary: Readonly<Record<string, readonly string[]>>): ConceptSpan[] {
  const found: ConceptSpan[] = [];
  for (const concept of Object.keys(vocabulary)) {
    for (const word of conceptWords(vocabulary, concept)) for (const s of spans(text, phrasePattern(word))) found.push({ ...s, concept });
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: ConceptSpan[] = [];
  for (const f of found) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f);
  return kept.sort((a, b) => a.start - b.start);
}

/** Legal-form endings a writer often drops from a party's name. */
const LEGAL_FORM = /[\s,]+(inc|co|corp|corporation|company|llc|ltd|limited|gmbh|plc)\.?$/i;

/**
 * Where a text names a party or a document whole: case and spacing aside, never as part of a longer
 * word, number or identifier (CM-12 is not in CM-123); a party's name also without its legal form.
 */
export function nameSpans(text: string, name: string): Span[] {
  const forms = [name.trim()];
  const short = name.trim().replace(LEGAL_FORM, '');
  if (short !== forms[0] && short.length > 0) forms.push(short);
  return forms.flatMap((f) => {
    const words = f.split(/\s+/).map(escape).join('\\s+');
    return spans(text, `${BEFORE}${words}(?![\\p{L}\\p{N}_]|-[\\p{L}\\p{N}])`);
  });
}

/** Words that say an amount lowered what it is measured against (margin, a total), or raised it. */
const DECREASE = [
  'decrease', 'decreased', 'decreasing', 'reduce', 'reduced', 'reduces', 'reducing', 'reduction', 'lower', 'lowered', 'lowers', 'down',
  'hurt', 'hurts', 'cost us', 'costing us', 'negative', 'negatively', 'unfavourable', 'unfavorable', 'adverse', 'adversely', 'fell', 'fall', 'falls',
  'drop', 'dropped', 'drops', 'decline', 'declined', 'declines', 'below', 'loss', 'lost', 'shortfall', 'worse', 'drag', 'eroded', 'erosion',
  'cut', 'subtracted', 'subtracts', 'took away', 'takes away', 'deducted', 'deducts', 'decrement', 'hit', 'headwind', 'squeezed', 'compressed', 'weighed on',
];
const INCREASE = [
  'increase', 'increased', 'increases', 'increasing', 'add', 'added', 'adds', 'adding', 'up', 'improve', 'improved', 'improves', 'improvement',
  'favourable', 'favorable', 'positive', 'positively', 'rose', 'rise', 'rises', 'risen', 'gain', 'gained', 'gains', 'higher', 'above',
  'boost', 'boosted', 'boosts', 'helped', 'helps', 'benefit', 'benefited', 'contributed', 'contributes', 'tailwind', 'uplift', 'lifted',
];

export interface DirectionWord extends Span { direction: -1 | 1 }

const directionPattern = (words: string[]) => `${BEFORE}(?:${words.map((w) => w.split(/\s+/).map(escape).join('\\s+')).join('|')})${AFTER}`;
const DECREASE_PATTERN = directionPattern(DECREASE);
const INCREASE_PATTERN = directionPattern(INCREASE);

/**
 * The words of direction in a text. A word inside a longer concept phrase is the concept's, not a
 * direction: `price increase` names a driver and says nothing of which way it moved margin.
 */
export function directionWords(text: string, concepts: readonly ConceptSpan[]): DirectionWord[] {
  const inside = (s: Span) => concepts.some((c) => c.start <= s.start && s.end <= c.end && c.end - c.start > s.end - s.start);
  return [
    ...spans(text, DECREASE_PATTERN).map((s) => ({ ...s, direction: -1 as const })),
    ...spans(text, INCREASE_PATTERN).map((s) => ({ ...s, direction: 1 as const })),
  ].filter((w) => !inside(w)).sort((a, b) => a.start - b.start);
}
