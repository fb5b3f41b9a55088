import type { CheckOf, ReferenceValueSpec, TextFactSpec } from '../../task-pack/schema';
import { plural, type CheckContext, type CheckOutcome } from './context';
import { markdownUnits, type TextUnit } from './markdown-units';
import { resolveFigures, resolveMentions } from './reference-values';
import { amountAgrees, directionSaid, headDirection, statedAmounts, type StatedAmount } from './text-amounts';
import { conceptsIn, nameSpans, type ConceptSpan } from './text-vocabulary';

type Vocabulary = Readonly<Record<string, readonly string[]>>;
type Row = Readonly<Record<string, string>>;

/** A fact with this scenario's values in place. */
export interface Fact {
  name: string;
  concepts: string[];
  names: string[];
  documents: string[];
  amounts: { value: number; signBound: boolean }[];
}

/** One unit's own text as read: the concepts it names and the amounts it states. */
interface Reading {
  text: string;
  concepts: ConceptSpan[];
  amounts: StatedAmount[];
}

/** A unit with its own text read once, and the units inside it. */
interface ReadUnit {
  own: Reading;
  children: ReadUnit[];
}

function read(unit: TextUnit, vocabulary: Vocabulary, weak: -1 | 0 | 1): ReadUnit {
  const concepts = conceptsIn(unit.head, vocabulary);
  const own: Reading = { text: unit.head, concepts, amounts: statedAmounts(unit.head, concepts, weak) };
  // A heading's or a parent item's direction is the weak direction of what it holds, unless it says none.
  const said = unit.kind === 'section' || unit.kind === 'item' ? headDirection(unit.head, concepts) : 0;
  return { own, children: unit.children.map((c) => read(c, vocabulary, said || weak)) };
}

const every = (u: ReadUnit): ReadUnit[] => [u, ...u.children.flatMap(every)];
const readings = (u: ReadUnit): Reading[] => [u.own, ...u.children.flatMap(readings)];

const names = (r: Reading, text: string) => nameSpans(r.text, text).length > 0;

/** Whether a reading holds something that identifies the fact: one of its concepts, names or documents. */
function identifies(r: Reading, fact: Fact): boolean {
  return r.concepts.some((c) => fact.concepts.includes(c.concept)) || [...fact.names, ...fact.documents].some((t) => names(r, t));
}

/** What the units under a heading may be about, besides the fact judged: the check's other facts and subjects. */
interface Context { others: readonly Fact[]; subjects: ReadonlySet<string> }

/**
 * Whether a unit is about something else: it names another subject and none of this fact's concepts
 * (a rebate's line is about the rebate whatever document it cites), or it identifies another fact
 * and nothing of this one.
 */
function elsewhere(u: ReadUnit, fact: Fact, context: Context): boolean {
  const all = readings(u);
  const named = all.flatMap((r) => r.concepts.map((c) => c.concept));
  if (named.some((c) => context.subjects.has(c)) && !named.some((c) => fact.concepts.includes(c))) return true;
  if (all.some((r) => identifies(r, fact))) return false;
  return all.some((r) => context.others.some((o) => identifies(r, o)));
}

/**
 * What a unit says toward a fact. A sentence, a row or an item alone is read whole. A heading or an
 * item with items under it holds a fact only when its own line identifies the fact (a heading per
 * driver, an item per invoice); what is under it counts except units about something else, so a
 * heading over a list of drivers does not join one driver's amount to another's document.
 */
function unitText(u: ReadUnit, fact: Fact, context: Context): Reading[] | undefined {
  if (u.children.length === 0) return u.own.text === '' ? undefined : [u.own];
  if (!identifies(u.own, fact)) return undefined;
  const under = (c: ReadUnit): Reading[] => (elsewhere(c, fact, context) ? [] : [c.own, ...c.children.flatMap(under)]);
  return [u.own, ...u.children.flatMap(under)];
}

interface PartResult { label: string; held: boolean; note?: string }

function parts(text: Reading[], fact: Fact, vocabulary: Vocabulary, tolerance: number): PartResult[] {
  const out: PartResult[] = [];
  for (const c of fact.concepts) out.push({ label: `the ${c.replace(/_/g, ' ')} (${[c, ...(vocabulary[c] ?? [])].slice(0, 3).join(', ')}, …)`, held: text.some((r) => r.concepts.some((s) => s.concept === c)) });
  for (const n of fact.names) out.push({ label: n, held: text.some((r) => names(r, n)) });
  for (const d of fact.documents) out.push({ label: d, held: text.some((r) => names(r, d)) });
  const stated = text.flatMap((r) => r.amounts);
  for (const a of fact.amounts) {
    const held = stated.some((s) => amountAgrees(s, a.value, tolerance, a.signBound));
    const sameSize = stated.find((s) => amountAgrees(s, a.value, tolerance, false));
    out.push({ label: `the amount ${a.value.toFixed(2)}`, held, note: !held && sameSize ? `gives ${sameSize.text} ${directionSaid(sameSize)}` : undefined });
  }
  return out;
}

const quote = (r: Reading[]) => {
  const text = r.map((x) => x.text).join(' / ');
  return `"${text.length > 160 ? `${text.slice(0, 157)}...` : text}"`;
};

/**
 * A unit that states the fact with another value: it names the fact's concepts and documents and
 * gives money figures, none of them the fact's amount in its direction, one of them another amount
 * or the same said the other way. Judged only for facts with a document and one amount: a driver's
 * line that cites its own document is about that driver whatever else it says.
 */
function contradiction(root: ReadUnit, fact: Fact, tolerance: number): Reading | undefined {
  if (fact.amounts.length !== 1 || fact.documents.length === 0) return undefined;
  const [{ value, signBound }] = fact.amounts as [Fact['amounts'][number]];
  return every(root).map((u) => u.own).find((r) => {
    if (!fact.concepts.every((c) => r.concepts.some((s) => s.concept === c)) || !fact.documents.every((d) => names(r, d))) return false;
    const money = r.amounts.filter((a) => a.money);
    if (money.length === 0 || money.some((a) => amountAgrees(a, value, tolerance, signBound))) return false;
    return money.some((a) => !amountAgrees(a, value, tolerance, false) || (signBound && a.strong !== 0 && a.strong !== Math.sign(value)));
  });
}

export interface FactVerdict { fact: Fact; stated: boolean; detail: string }

/**
 * Judges each fact against a text. `subjects` are the concepts a unit is about when it names them
 * (the drivers of a bridge, not the months it mentions); every concept of the vocabulary when not given.
 */
export function judgeFacts(text: string, facts: readonly Fact[], vocabulary: Vocabulary, tolerance: number, subjects: readonly string[] = Object.keys(vocabulary)): FactVerdict[] {
  const root = read(markdownUnits(text), vocabulary, 0);
  const units = every(root);
  return facts.map((fact) => {
    const context: Context = { others: facts.filter((f) => f !== fact), subjects: new Set(subjects.filter((c) => !fact.concepts.includes(c))) };
    let best: { text: Reading[]; results: PartResult[] } | undefined;
    for (const u of units) {
      const t = unitText(u, fact, context);
      if (!t) continue;
      const results = parts(t, fact, vocabulary, tolerance);
      const score = results.filter((p) => p.held).length;
      if (!best || score > best.results.filter((p) => p.held).length) best = { text: t, results };
      if (score === results.length) break;
    }
    const missing = best?.results.filter((p) => !p.held) ?? [];
    if (best && missing.length === 0) {
      const against = contradiction(root, fact, tolerance);
      if (against) return { fact, stated: false, detail: `${fact.name}: stated, but also contradicted by ${quote([against])}` };
      return { fact, stated: true, detail: `${fact.name}: stated in ${quote(best.text)}` };
    }
    if (!best) return { fact, stated: false, detail: `${fact.name}: the text has no unit to state it in` };
    const lacks = missing.map((p) => (p.note ? `${p.label} (it ${p.note})` : p.label)).join(', ');
    return { fact, stated: false, detail: `${fact.name}: no one unit states it; the nearest, ${quote(best.text)}, lacks ${lacks}` };
  });
}

type Part = string | number | ReferenceValueSpec | { column: string };

function fromRow(part: { column: string }, row: Row | undefined, fact: string): string {
  if (!row) throw new Error(`${fact} reads column ${part.column} but has no each`);
  if (!(part.column in row)) throw new Error(`${fact} reads column ${part.column}, which its projection does not have`);
  return row[part.column]!;
}

/** A column's value as a list: a JSON array (`["tax","price_variance"]`) or comma-separated text. */
function listIn(value: string): string[] {
  if (value.trim().startsWith('[')) {
    const parsed = JSON.parse(value) as unknown;
    if (Array.isArray(parsed)) return parsed.map(String);
  }
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function texts(items: readonly Part[] | undefined, row: Row | undefined, ctx: CheckContext, fact: string): string[] {
  return (items ?? []).flatMap((p) => (typeof p === 'object' && 'column' in p && !('projection' in p) ? [fromRow(p, row, fact)] : resolveMentions([p as string | ReferenceValueSpec], ctx)));
}

/** The facts of a check with this scenario's values, one per row for a fact with `each`. */
export function resolveFacts(specs: readonly TextFactSpec[], ctx: CheckContext): Fact[] {
  return specs.flatMap((spec) => {
    const rows: (Row | undefined)[] = spec.each ? eachRows(spec.each, ctx) : [undefined];
    return rows.map((row) => {
      const name = row ? spec.name.replace(/\{(\w+)\}/g, (_, c: string) => (c in row ? (row[c]!.trim().startsWith('[') ? listIn(row[c]!).join(' and ') : row[c]!) : `{${c}}`)) : spec.name;
      const concepts = (spec.concepts ?? []).flatMap((c) => (typeof c === 'string' ? [c] : listIn(fromRow(c, row, name))));
      const amounts = (spec.amounts ?? []).map((a) => {
        const values = typeof a.value === 'object' && 'column' in a.value && !('projection' in a.value) ? [Number(fromRow(a.value, row, name))] : resolveFigures([a.value as number | ReferenceValueSpec], ctx);
        if (values.length !== 1 || Number.isNaN(values[0])) throw new Error(`${name}: an amount must be one number, found ${values.join(', ') || 'none'}`);
        return { value: values[0]!, signBound: (a.sign ?? 'bound') === 'bound' };
      });
      return { name, concepts, names: texts(spec.names, row, ctx, name), documents: texts(spec.documents, row, ctx, name), amounts };
    });
  });
}

function eachRows(each: NonNullable<TextFactSpec['each']>, ctx: CheckContext): Row[] {
  const table = ctx.referenceTables.get(each.projection);
  if (!table) throw new Error(`the reference has no projection ${each.projection}`);
  const is = (r: Row, where: Record<string, string | number>) => Object.entries(where).every(([k, v]) => r[k] === String(v));
  return table.rows.filter((r) => is(r, each.where ?? {}) && !(each.unless && is(r, each.unless)));
}

/** Passes when the file states every fact of the check, each in one unit, and no unit contradicts one. */
export function judgeText(check: CheckOf<'text_facts'>, ctx: CheckContext, text: string): CheckOutcome {
  const facts = resolveFacts(check.facts, ctx);
  const verdicts = judgeFacts(text, facts, check.vocabulary, check.tolerance ?? 0.005, check.subjects);
  const failed = verdicts.filter((v) => !v.stated);
  return {
    passed: failed.length === 0,
    detail: failed.length === 0
      ? `${check.file} states ${facts.length === 1 ? 'the fact' : `each of the ${plural(facts.length, 'fact')}`}: ${verdicts.map((v) => v.detail).join('; ')}.`
      : `${check.file} does not state ${plural(failed.length, 'fact')} of ${facts.length}: ${failed.map((v) => v.detail).join('; ')}.`,
  };
}
