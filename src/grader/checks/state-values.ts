import type { CheckOf } from '../../task-pack/schema';
import type { DifferingRow } from '../result';
import { byKey, keyOf, keyString, missingColumns, normalizeText, sortedKeys } from './compare';
import { plural, type CheckContext, type CheckOutcome } from './context';

type Check = CheckOf<'state_values'>;

function numericColumns(check: Check): Set<string> {
  if (check.numeric === true) return new Set(check.columns);
  return new Set(Array.isArray(check.numeric) ? check.numeric : []);
}

function sameValue(a: string, b: string, numeric: boolean, check: Check): boolean {
  if (!numeric) return normalizeText(a, check.normalize) === normalizeText(b, check.normalize);
  if (a.trim() === '' || b.trim() === '') return a.trim() === b.trim();
  const x = Number(a.replace(/,/g, ''));
  const y = Number(b.replace(/,/g, ''));
  if (Number.isNaN(x) || Number.isNaN(y)) return a.trim() === b.trim();
  return Math.abs(x - y) <= (check.tolerance ?? 0) + 1e-9;
}

/** The normalised key of a must_match_keys entry: a value for a one-column key, or a map. */
function mustMatchKey(check: Check, entry: string | number | Record<string, string | number>): string {
  const row = typeof entry === 'object' ? Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, String(v)])) : { [check.key[0]!]: String(entry) };
  return keyString(row, check.key, check.normalize ?? []);
}

/**
 * Per-key values against the reference, with the semantics of the desk track's csv_values_match:
 * a reference row matches when the agent has exactly one row with its key and every compared
 * column agrees (numbers within the tolerance, text after normalising). Passes when the share of
 * matching reference rows reaches min_accuracy (default 1) and every must_match_keys row matches.
 * Agent rows the reference does not have are state_set's business, not this check's; with
 * `only_common`, so are reference rows the agent does not have, and only rows both have are
 * compared (a check of what was paid, beside a state_set of which invoices were).
 */
export function stateValues(check: Check, ctx: CheckContext): CheckOutcome {
  const agent = ctx.agentTables.get(check.projection)!;
  const reference = ctx.referenceTables.get(check.projection)!;
  const needed = [...check.key, ...check.columns];
  const absent = [...new Set([...missingColumns(agent, needed), ...missingColumns(reference, needed)])];
  if (absent.length) return { passed: false, detail: `Projection ${check.projection} has no column ${absent.join(', ')}.` };
  const norm = check.normalize ?? [];
  const mine = byKey(agent, check.key, norm);
  const theirs = byKey(reference, check.key, norm);
  const dupes = sortedKeys(theirs).filter((k) => theirs.get(k)!.length > 1);
  if (dupes.length) return { passed: false, detail: `The reference of ${check.projection} has ${plural(dupes.length, 'key')} on more than one row: the key does not identify a row.` };

  const numeric = numericColumns(check);
  const differing: DifferingRow[] = [];
  const matched = new Set<string>();
  for (const k of sortedKeys(theirs)) {
    const expected = theirs.get(k)![0]!;
    const keyValues = check.key.map((c) => expected[c] ?? '');
    const rows = mine.get(k) ?? [];
    if (rows.length === 0 && check.only_common) continue;
    if (rows.length === 0) {
      differing.push({ key: keyOf(expected, check.key), kind: 'missing', expected, event_ids: ctx.evidence.forRow(undefined, keyValues) });
    } else if (rows.length > 1) {
      differing.push({ key: keyOf(expected, check.key), kind: 'duplicate', expected, agent: rows[0], event_ids: ctx.evidence.forRow(rows[0], keyValues) });
    } else {
      const row = rows[0]!;
      const columns = check.columns.filter((c) => !sameValue(row[c] ?? '', expected[c] ?? '', numeric.has(c), check));
      if (columns.length === 0) matched.add(k);
      else differing.push({ key: keyOf(expected, check.key), kind: 'changed', columns, agent: row, expected, event_ids: ctx.evidence.forRow(row, keyValues) });
    }
  }
  const compared = check.only_common ? sortedKeys(theirs).filter((k) => mine.has(k)).length : theirs.size;
  const accuracy = compared === 0 ? 1 : matched.size / compared;
  const minAccuracy = check.min_accuracy ?? 1;
  const mustMatch = (check.must_match_keys ?? []).map((e) => mustMatchKey(check, e));
  const unknownMust = mustMatch.filter((k) => !theirs.has(k));
  if (unknownMust.length) return { passed: false, detail: `must_match_keys names ${plural(unknownMust.length, 'key')} the reference of ${check.projection} does not have.`, accuracy };
  const failedMust = mustMatch.filter((k) => !matched.has(k));
  const passed = accuracy >= minAccuracy - 1e-12 && failedMust.length === 0;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const detail = passed
    ? `${matched.size} of ${(check.only_common ? plural(compared, 'row', 'rows') + ' both have' : plural(compared, 'reference row'))} of ${check.projection} match (${pct(accuracy)}).`
    : `${matched.size} of ${(check.only_common ? plural(compared, 'row', 'rows') + ' both have' : plural(compared, 'reference row'))} of ${check.projection} match (${pct(accuracy)}, needed ${pct(minAccuracy)})${failedMust.length ? `; ${plural(failedMust.length, 'must-match key')} did not match` : ''}.`;
  return { passed, detail, differing, accuracy };
}
