import type { CheckOf } from '../../task-pack/schema';
import type { DifferingRow } from '../result';
import { byKey, keyOf, missingColumns, sortedKeys } from './compare';
import { plural, type CheckContext, type CheckOutcome } from './context';

/** Passes when the set of keys in the agent's projection equals the reference set. */
export function stateSet(check: CheckOf<'state_set'>, ctx: CheckContext): CheckOutcome {
  const agent = ctx.agentTables.get(check.projection)!;
  const reference = ctx.referenceTables.get(check.projection)!;
  const absent = [...new Set([...missingColumns(agent, check.key), ...missingColumns(reference, check.key)])];
  if (absent.length) return { passed: false, detail: `Projection ${check.projection} has no column ${absent.join(', ')}.` };
  const norm = check.normalize ?? [];
  const mine = byKey(agent, check.key, norm);
  const theirs = byKey(reference, check.key, norm);
  const differing: DifferingRow[] = [];
  for (const k of sortedKeys(theirs)) {
    if (!mine.has(k)) {
      const row = theirs.get(k)![0]!;
      differing.push({ key: keyOf(row, check.key), kind: 'missing', expected: row, event_ids: ctx.evidence.forRow(undefined, check.key.map((c) => row[c] ?? '')) });
    }
  }
  for (const k of sortedKeys(mine)) {
    if (!theirs.has(k)) {
      const row = mine.get(k)![0]!;
      differing.push({ key: keyOf(row, check.key), kind: 'extra', agent: row, event_ids: ctx.evidence.forRow(row, check.key.map((c) => row[c] ?? '')) });
    }
  }
  const missing = differing.filter((d) => d.kind === 'missing').length;
  const extra = differing.length - missing;
  return {
    passed: differing.length === 0,
    detail: differing.length === 0
      ? `The ${plural(theirs.size, 'key')} of ${check.projection} match the reference.`
      : `${check.projection}: ${plural(missing, 'expected key')} missing and ${plural(extra, 'key')} not in the reference.`,
    differing,
  };
}
