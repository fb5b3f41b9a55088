import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCheck } from '../../../src/grader/checks';
import { loadPack } from '../../../src/task-pack/load';
import { handoffNote, styledHandoffNote, type Held, type NoteStyle } from '../../../tasks/procure-to-pay-week/handoff';
import { LAYOUTS } from '../../../tasks/shared/text-layouts';
import { checkContext, table } from '../../support/grading';

/** handoff.md graded by procure-to-pay-week's own check against a reference, without running the week. */
const pack = loadPack('procure-to-pay-week');
const noteCheck = pack.spec.checks.find((c) => c.id === 'handoff-note')!;

const held: Held[] = [
  { number: '46994', vendor: 'Ridgeway Brass Fittings', reasons: ['quantity_variance'] },
  { number: '5848', vendor: 'Carton Craft Industries', reasons: ['price_variance'] },
  { number: '3500-75908', vendor: 'Mid-State Metals', reasons: ['price_variance', 'quantity_variance'] },
];
const reference = table(['vendor', 'invoice', 'holds', '_invoice'], held.map((h, i) => [h.vendor, h.number, h.reasons.join(','), `APINV-00058${i}`]));

function graded(text: string) {
  const ctx = checkContext({ referenceTables: new Map([['held_invoices', reference]]) });
  writeFileSync(join(ctx.workspace, 'handoff.md'), text);
  return runCheck(noteCheck, ctx);
}

const styles: NoteStyle[] = LAYOUTS.flatMap((layout) => (['handbook', 'plain'] as const).flatMap((wording) => [false, true].map((reasonFirst) => ({ layout, wording, reasonFirst }))));
const named = (s: NoteStyle) => `${s.layout}, ${s.wording} words${s.reasonFirst ? ', reason first' : ''}`;

describe("procure-to-pay-week's handoff note, read by the facts it states", () => {
  it("given the oracle's note, then it states each held invoice's number, vendor and every reason", () => {
    expect(graded(handoffNote(held))).toMatchObject({ passed: true });
  });

  it.each(styles.map((s) => [named(s), s] as const))('given the same note as %s, then it passes', (_, style) => {
    const out = graded(styledHandoffNote(held, style));
    expect(out.detail).toBe(out.passed ? out.detail : '');
  });

  const mutants: [string, Held[], RegExp][] = [
    ['the numbers left out', held.map((h) => ({ ...h, number: '' })), /invoice 46994 from Ridgeway Brass Fittings, on hold for quantity_variance: no one unit states it/],
    ['one reason of two left out', [held[0]!, held[1]!, { ...held[2]!, reasons: ['price_variance'] }], /3500-75908 from Mid-State Metals, on hold for price_variance,quantity_variance: no one unit states it[^]*lacks the quantity variance/],
    ['a held invoice left out', held.slice(1), /46994[^]*no one unit states it/],
    ['a number that only contains the held one', [{ ...held[1]!, number: '15848' }, held[0]!, held[2]!], /5848 from Carton Craft Industries[^]*no one unit states it/],
  ];
  it.each(mutants.flatMap(([m, h, why]) => styles.filter((s) => !s.reasonFirst).map((s) => [m, named(s), h, why, s] as const)))(
    'given %s, written as %s, then it fails saying what is missing',
    (_, __, h, why, style) => {
      const out = graded(styledHandoffNote(h, style));
      expect(out.passed).toBe(false);
      expect(out.detail).toMatch(why);
    },
  );
});
