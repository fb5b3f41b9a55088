import type { AttemptResult, CheckResult } from '../../../src/grader/result';
import { failingChecks, nullCheckRates, pairedDifferences, passHatCurves, reportHeader } from '../../../src/runner/report/analysis';

const check = (id: string, passed: boolean): CheckResult => ({ id, type: 'state_set', required: true, cites: [`X-${id}`], passed, breach: false, detail: '' });

function result(r: Partial<AttemptResult> & Pick<AttemptResult, 'cell' | 'task' | 'seed' | 'rep' | 'passed'>): AttemptResult {
  return {
    agent: 'cmd:x', agent_name: r.cell.split('~')[0]!, model: null, interface: 'cli', condition: 'clean', label: 'pilot', verdict: r.passed ? 'pass' : 'fail', status: 'graded', breach: false,
    required_checks: { passed: r.passed ? 2 : 1, total: 2 }, checks: [check('a', true), check('b', r.passed)], metrics: { probes: 0, writes: 0, reversed_writes: 0 },
    turns: [], final_hash: '', pack_hash: 'abcdef0123456789', graded_at_wall: `2026-12-0${1 + r.rep}T10:00:00Z`, ...r,
  };
}

describe('pass^k for k = 1 to K', () => {
  it('given a scenario passed 2 of 3 times and one passed 3 of 3, then pass^1, pass^2, pass^3 are the averages of C(c,k)/C(n,k)', () => {
    const rs = [0, 1, 2].flatMap((i) => [result({ cell: 'h~cli', task: 't', seed: 0, rep: i + 1, passed: i !== 2 }), result({ cell: 'h~cli', task: 't', seed: 1, rep: i + 1, passed: true })]);
    const [curve] = passHatCurves(rs);
    expect(curve!.curve.map((x) => Number(x.toFixed(4)))).toEqual([Number(((2 / 3 + 1) / 2).toFixed(4)), Number(((1 / 3 + 1) / 2).toFixed(4)), 0.5]);
  });

  it('given an interrupted attempt, then it counts in no k', () => {
    const rs = [result({ cell: 'h~cli', task: 't', seed: 0, rep: 1, passed: true }), result({ cell: 'h~cli', task: 't', seed: 0, rep: 2, passed: false, verdict: 'incomplete', status: 'incomplete' })];
    expect(passHatCurves(rs)[0]!.curve).toEqual([1]);
  });
});

describe('the checks that fail most', () => {
  it('given graded attempts, then each task lists its failing checks by fail rate, and a check that never failed is not listed', () => {
    const rs = [result({ cell: 'h~cli', task: 't', seed: 0, rep: 1, passed: false }), result({ cell: 'h~cli', task: 't', seed: 1, rep: 1, passed: true })];
    expect(failingChecks(rs)).toEqual([{ task: 't', check: 'b', cites: ['X-b'], attempts: 2, failed: 1 }]);
  });
});

describe('paired differences', () => {
  it('given two cells on the same four scenarios, then the mean per-scenario difference and its interval; a scenario only one played is left out', () => {
    const rs = [
      ...[0, 1, 2, 3].map((seed) => result({ cell: 'a~cli', task: 't', seed, rep: 1, passed: true })),
      ...[0, 1, 2, 3].map((seed) => result({ cell: 'b~cli', task: 't', seed, rep: 1, passed: seed < 2 })),
      result({ cell: 'b~cli', task: 't', seed: 9, rep: 1, passed: false }),
    ];
    const [d] = pairedDifferences(rs);
    expect(d).toMatchObject({ a: 'a~cli', b: 'b~cli', task: 't', scenarios: 4, difference: 0.5 });
    // Differences 0, 0, 1, 1: sd = 0.5774, standard error 0.2887, half-width 0.5658.
    expect(d!.ci![0]).toBeCloseTo(0.5 - 0.5658, 3);
    expect(d!.ci![1]).toBeCloseTo(1, 3);
  });

  it('given one shared scenario, then no interval', () => {
    const rs = [result({ cell: 'a~cli', task: 't', seed: 0, rep: 1, passed: true }), result({ cell: 'b~cli', task: 't', seed: 0, rep: 1, passed: false })];
    expect(pairedDifferences(rs)[0]).toMatchObject({ difference: 1, ci: null });
  });
});

describe('the null agent\'s check rate', () => {
  it('given null attempts on a task, then their required checks passed over run, per task and over all', () => {
    const rs = [result({ cell: 'null~http', agent: 'null', task: 't', seed: 0, rep: 1, passed: false }), result({ cell: 'h~cli', task: 't', seed: 0, rep: 1, passed: true })];
    expect([...nullCheckRates(rs)]).toEqual([['t', 0.5], ['*', 0.5]]);
    expect(nullCheckRates([rs[1]!]).size).toBe(0);
  });
});

describe('the header', () => {
  it('names the tasks, seeds, agents, models, interfaces, conditions, pack hashes and when the attempts were graded', () => {
    const rs = [result({ cell: 'h@m1~cli', model: 'm1', task: 't2', seed: 3, rep: 1, passed: true }), result({ cell: 'o~http', agent_name: 'oracle', interface: 'http', task: 't1', seed: 0, rep: 2, passed: true })];
    expect(reportHeader(rs)).toEqual({
      tasks: ['t1', 't2'], seeds: [0, 3], cells: ['h@m1~cli', 'o~http'], agents: ['h@m1', 'oracle'], models: ['m1', 'none'], interfaces: ['cli', 'http'], conditions: ['clean'],
      graded: ['2026-12-02T10:00:00Z', '2026-12-03T10:00:00Z'], pack_hashes: ['abcdef012345'],
    });
  });
});
