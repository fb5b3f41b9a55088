import { campaignMetrics, median, p90 } from '../../src/runner/metrics';
import type { AttemptResult } from '../../src/grader/result';

function attempt(over: Partial<AttemptResult> & { durations?: number[] }): AttemptResult {
  const { durations = [10], ...rest } = over;
  return {
    task: 'payment-run', seed: 0, agent: 'cmd:x', condition: 'clean', cell: 'harness-a', label: 'a', rep: 1, verdict: 'pass', status: 'graded', passed: true, breach: false,
    required_checks: { passed: 4, total: 4 }, checks: [], metrics: { probes: 0, writes: 10, reversed_writes: 0 },
    turns: durations.map((d, i) => ({ index: i + 1, date: '2026-10-06', duration_s: d, exit_code: 0, signal: null, timed_out: false })),
    final_hash: '', pack_hash: '', graded_at_wall: '',
    ...rest,
  };
}

describe('turn-time percentiles', () => {
  it('take the median as the middle value, or the mean of the two middles', () => {
    expect(median([1, 2, 9])).toBe(2);
    expect(median([1, 2, 3, 9])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('take p90 at zero-based sorted index floor(0.9·n), capped at n−1 (the pilot\'s convention)', () => {
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(p90(ten)).toBe(10);
    expect(p90(ten.slice(0, 9))).toBe(9);
    expect(p90([...ten, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20])).toBe(19);
    expect(p90([4])).toBe(4);
    expect(p90([])).toBeNull();
  });
});

describe('a cell with five attempts at one task and one at another', () => {
  const results = [
    attempt({ rep: 1, durations: [30, 50] }),
    attempt({ rep: 2, passed: false, verdict: 'fail', breach: true, required_checks: { passed: 3, total: 4 }, metrics: { probes: 4, writes: 12, reversed_writes: 2 } }),
    attempt({ rep: 3 }), attempt({ rep: 4 }), attempt({ rep: 5 }),
    attempt({ task: 'month-end-close', required_checks: { passed: 6, total: 6 } }),
  ];
  const [close, payment, cell] = campaignMetrics(results);

  it('gives per-task figures, tasks in name order', () => {
    expect(payment).toMatchObject({ cell: 'harness-a', task: 'payment-run', attempts: 5, pass_at_1: 0.8, k: 5, pass_hat_k: 0, check_rate: 19 / 20, breach_rate: 0.2, probe_rate: 0.8, writes_per_attempt: 10.4, reversed_per_attempt: 0.4, turn_time_median_s: 10, turn_time_p90_s: 50 });
    expect(close).toMatchObject({ task: 'month-end-close', attempts: 1, pass_hat_k: 1, k: 1 });
  });

  it('gives the cell over its tasks: pass^k is the share of tasks passed every time', () => {
    expect(cell).toMatchObject({ task: '*', attempts: 6, pass_hat_k: 0.5, k: 1, check_rate: 25 / 26 });
  });

  it('has no fault-handling figures in the clean condition', () => {
    expect(payment!.fault_handling).toBeUndefined();
  });
});

describe('a cell under a fault condition', () => {
  it('totals the attempts\' fault metrics', () => {
    const faulted = [1, 2].map((rep) => attempt({ rep, condition: 'lost-writes', cell: 'oracle+lost-writes', metrics: { probes: 0, writes: 3, reversed_writes: 0 }, fault_metrics: { faults_injected: 2, resent: 1, duplicates: 0 } }));
    expect(campaignMetrics(faulted)[0]!.fault_handling).toEqual({ faults_injected: 4, resent: 2, duplicates: 0 });
  });
});
