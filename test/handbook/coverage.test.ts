import { formatCoverage, packCoverage } from '../../src/handbook/coverage';
import { lintPack } from '../../src/handbook';
import type { Truth } from '../../src/task-pack/code';
import { loadPack } from '../../src/task-pack/load';
import { packCopy, SMOKE } from '../support/packs';

const truth = (...clauses: string[][]): Truth => ({ planted: clauses.map((c, i) => ({ id: `case-${i}`, clauses: c })) });
const clause = (t: ReturnType<typeof packCoverage>, id: string) => t.clauses.find((c) => c.clause === id)!;

describe('the smoke pack\'s coverage table', () => {
  const pack = loadPack(SMOKE);

  it('given no scenario read, then each clause shows the checks citing it or running a rule it binds, and what breaks it alone', () => {
    const t = packCoverage(pack);
    expect(clause(t, 'LV-2.2')).toMatchObject({ checks: ['own-sign-in'], rules: ['foreign_token'], parts: [{ ref: 'LV-2.2', breaking: ['neg:borrowed-sign-in'] }], exercised: null });
    expect(clause(t, 'LV-1.4').parts[0]!.breaking).toEqual(['neg:manager-as-delegate']);
    expect(t.negatives.find((n) => n.name === 'neg:blind-retry')).toMatchObject({ condition: 'lost-leave', breaks: [] });
  });

  it('given every clause broken alone by some control, then the table has no problem until a seed is read', () => {
    expect(packCoverage(pack)).toMatchObject({ ok: true, problems: [] });
  });

  it('given a control that declares no broken clause, then the clause only it broke is reported uncovered, by name', () => {
    const t = packCoverage(loadPack(packCopy({ task: (x) => { x.negative_controls['neg:everything'] = ['leave-set']; delete x.negative_controls['neg:last-day-out']; } })));
    expect(t.ok).toBe(false);
    expect(t.problems).toEqual(['LV-1.1: no negative control breaks it alone', 'LV-1.2: no negative control breaks it alone']);
  });

  it('given the truths of two seeds, then a clause is exercised on the seeds whose planted cases name it or one of its parts, and a clause no seed plants is a problem', () => {
    const t = packCoverage(pack, { truths: new Map([[0, truth(['LV-1.3', 'LV-2.1/names'])], [1, truth(['LV-2.1'])]]) });
    expect(clause(t, 'LV-2.1').exercised).toEqual([0, 1]);
    expect(clause(t, 'LV-1.3').exercised).toEqual([0]);
    expect(t.problems).toContain('LV-2.2: no planted case of seeds 0, 1 exercises it');
  });

  it('given a control that did not fail as declared on one seed, then it does not cover its clause and the seed is named', () => {
    const outcomes = new Map([['neg:no-note', new Map([[0, true], [1, false]])]]);
    const t = packCoverage(pack, { outcomes });
    expect(clause(t, 'LV-2.1').parts[0]!.breaking).toEqual([]);
    expect(t.problems).toContain('LV-2.1: neg:no-note did not come out as declared on seed 1');
    expect(t.negatives.find((n) => n.name === 'neg:no-note')!.validated).toEqual({ seeds: [0, 1], held: [0] });
  });

  it('prints one row per clause part and one per control, and says what is missing', () => {
    const text = formatCoverage(packCoverage(pack, { truths: new Map([[0, truth(['LV-2.1'])]]) }));
    expect(text).toMatch(/^LV-2\.1 +handoff-note +neg:no-note +omit_text \(not run\) +0 +ok$/m);
    expect(text).toMatch(/^LV-1\.1 .*MISSING$/m);
    expect(text).toMatch(/^LV-1\.1 +leave-set +neg:everything +add \(not run\), later_day \(not run\) +- +MISSING$/m);
    expect(text).toMatch(/^neg:borrowed-sign-in \[regression\] +LV-2\.2 +own-sign-in, master-data-untouched +not run$/m);
    expect(text).toMatch(/coverage problem\(s\):\n {2}- LV-1\.1: no planted case of seed 0 exercises it/);
  });
});

describe('a clause that says several things', () => {
  const parted = () => loadPack(packCopy({
    policies: (p) => { p.clauses.find((c: { id: string }) => c.id === 'LV-2.1').parts = { names: 'the employee and the delegate', dates: 'the dates' }; },
    task: (t) => { t.negative_controls['neg:no-note'] = { breaks: ['LV-2.1/names'], fails: ['handoff-note'] }; },
  }));

  it('needs a control breaking each part alone', () => {
    const t = packCoverage(parted());
    expect(clause(t, 'LV-2.1').parts.map((p) => [p.ref, p.breaking])).toEqual([['LV-2.1/names', ['neg:no-note']], ['LV-2.1/dates', []]]);
    expect(t.problems).toContain('LV-2.1/dates: no negative control breaks it alone');
  });

  it('refuses a control that names the whole clause instead of a part, and lint refuses a part the clause does not declare', () => {
    const whole = loadPack(packCopy({
      policies: (p) => { p.clauses.find((c: { id: string }) => c.id === 'LV-2.1').parts = { names: 'the names' }; },
      task: (t) => { t.negative_controls['neg:no-note'] = { breaks: ['LV-2.1'], fails: ['handoff-note'] }; t.negative_controls['neg:everything'] = { breaks: ['LV-1.1/who'], fails: ['leave-set'] }; },
    }));
    expect(packCoverage(whole).problems).toContain('neg:no-note breaks LV-2.1, which has parts (names): name the part it breaks');
    expect(lintPack(whole).errors).toEqual([expect.stringMatching(/negative_controls\.neg:everything\.breaks\[0\]: clause LV-1\.1 has no part 'who' \(it declares no parts\)$/)]);
  });
});
