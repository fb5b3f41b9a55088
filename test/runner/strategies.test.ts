import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chanceOfPasses } from '../../src/runner/chance';
import { formatStrategies, problemsOf, strategyFamilies, totalsOf, type StrategiesReport } from '../../src/runner/strategies';
import { runStrategyUnit, type StrategyCell } from '../../src/runner/strategy-unit';

describe('the chance of blind passes', () => {
  it('is the Poisson-binomial of the runs\' own chances: its mean and its 95% bound', () => {
    expect(chanceOfPasses([0.5, 0.5])).toMatchObject({ expected: 1, upper: 2, distribution: [0.25, 0.5, 0.25] });
    const five = chanceOfPasses([0.5, 0.5, 0.5, 0.5, 0.5]);
    expect(five.upper).toBe(4);
    expect(five.expected).toBe(2.5);
    expect(chanceOfPasses([0, 0, 0])).toMatchObject({ expected: 0, upper: 0 });
    expect(chanceOfPasses([])).toMatchObject({ expected: 0, upper: 0 });
  });

  it('refuses a probability outside [0, 1]', () => {
    expect(() => chanceOfPasses([1.5])).toThrow(RangeError);
  });
});

const cell = (over: Partial<StrategyCell>): StrategyCell => ({
  family: 'duplicate', task: 'ap-duplicate', seed: 1, kind: 'reference', strategy: 'reference', policy: 'oracle', verdict: 'pass', passed: true,
  checks_passed: 9, checks_total: 9, failed_checks: [], ...over,
});

describe('a matrix that falls short of seed 004', () => {
  it('names a valid strategy that failed, a failing one that passed, and blind beating chance', () => {
    const cells = [
      cell({ kind: 'alternative', strategy: 'batched', verdict: 'fail', passed: false, checks_passed: 8, failed_checks: ['no-write-off'] }),
      cell({ kind: 'failing', strategy: 'pay everything', seed: 2 }),
    ];
    expect(problemsOf(cells, { runs: 2, passed: 2, expected: 0.4, upper95: 1 })).toEqual([
      'duplicate seed 1: batched failed no-write-off',
      'duplicate seed 2: pay everything passed',
      'blind passed 2 of 2, more than chance allows (at most 1 at 95%)',
    ]);
  });

  it('names a strategy whose turn did not finish, though it failed as a failing strategy should', () => {
    const cells = [cell({ kind: 'failing', strategy: 'hold everything', verdict: 'fail', passed: false, checks_passed: 5, unfinished: 'turn 1 exited 1 (runs/hold_both/turns/1/stderr.txt)' })];
    expect(problemsOf(cells, { runs: 0, passed: 0, expected: 0, upper95: 0 })).toEqual(['duplicate seed 1: hold everything did not finish: turn 1 exited 1 (runs/hold_both/turns/1/stderr.txt)']);
  });

  it('totals each strategy over its runs with the mean share of checks still satisfied', () => {
    const totals = totalsOf([cell({ kind: 'failing', strategy: 'hold everything', verdict: 'fail', passed: false, checks_passed: 5 }), cell({ kind: 'failing', strategy: 'hold everything', seed: 2, verdict: 'fail', passed: false, checks_passed: 4 })]);
    expect(totals).toEqual([{ kind: 'failing', strategy: 'hold everything', runs: 2, passed: 0, mean_share: 0.5 }]);
  });
});

describe('the AP-exception packs', () => {
  it('declare the five families of seed 004', () => {
    expect(strategyFamilies().map((f) => f.family)).toEqual(['awaiting-receipt', 'bank-change', 'duplicate', 'over-billing', 'wire']);
  });
});

describe('the duplicate family on seed 1, played through the runner', () => {
  let cells: StrategyCell[];
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'bb-erp-strategies-'));
    cells = await runStrategyUnit({ task: 'ap-duplicate', seed: 1, runsDir: join(root, 'runs'), scenarioDir: join(root, 'scenario') });
  }, 240_000);

  it('passes the reference and every alternative', () => {
    expect(cells.filter((c) => c.kind === 'reference' || c.kind === 'alternative').map((c) => [c.strategy, c.verdict])).toEqual([
      ['reference', 'pass'], ['reverse_order', 'pass'], ['equivalent_calls', 'pass'], ['extra_reads_and_notes', 'pass'], ['batched', 'pass'],
    ]);
  });

  it('fails each failing strategy on the checks that catch it: writing off after resolving only on no-write-off', () => {
    const failed = Object.fromEntries(cells.filter((c) => c.kind === 'failing' || c.kind === 'regression').map((c) => [c.strategy, c.failed_checks]));
    expect(failed['resolve, then write off']).toEqual(['no-write-off']);
    expect(failed['note outside the queue']).toEqual(['queue-only']);
    expect(failed['pay everything']).toEqual(expect.arrayContaining(['duplicate-not-paid', 'duplicate-held']));
    expect(failed['hold everything']).toEqual(expect.arrayContaining(['lookalike-paid', 'lookalike-not-held']));
    expect(failed['hold under every code']).toContain('hold-reasons-exact');
  });

  it('gives the blind strategy its chance: one in two for a queue of two', () => {
    expect(cells.find((c) => c.kind === 'blind')).toMatchObject({ chance: 0.5 });
  });

  it('prints the table with a row per strategy and the totals', () => {
    const blind = { runs: 1, passed: cells.filter((c) => c.kind === 'blind' && c.passed).length, expected: 0.5, upper95: 1 };
    const report: StrategiesReport = { families: [{ family: 'duplicate', task: 'ap-duplicate' }], seeds: [1], cells, totals: totalsOf(cells), blind, problems: [], ok: true };
    const text = formatStrategies(report);
    expect(text).toContain('reference                reference    1/1 passed');
    expect(text).toContain('alternatives             alternative  4/4 passed');
    expect(text).toMatch(/resolve, then write off +failing +1\/1 failed; 91% of checks still satisfied on average/);
    expect(text).toContain('the matrix holds');
  });
});
