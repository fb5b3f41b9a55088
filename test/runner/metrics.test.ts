import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { campaignMetrics, collectResults, median, p90, seedMetrics } from '../../src/runner/metrics';
import { wilsonInterval } from '../../src/runner/stats';
import type { AttemptResult } from '../../src/grader/result';

function attempt(over: Partial<AttemptResult> & { durations?: number[] }): AttemptResult {
  const { durations = [10], ...rest } = over;
  return {
    task: 'payment-run', seed: 0, agent: 'cmd:x', agent_name: 'harness-a', model: null, interface: 'cli', condition: 'clean', cell: 'harness-a', label: 'a', rep: 1, verdict: 'pass', status: 'graded', passed: true, breach: false,
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

  it('gives the cell over its tasks: pass^k is the share of its scenarios (task and seed) passed every time', () => {
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

describe('a campaign of one task, two seeds and three reps, with an errored and an interrupted attempt', () => {
  // seed 0: pass, pass, pass. seed 1: pass, fail (with a breach), error, and an interrupted fourth run.
  const a = (over: Partial<AttemptResult>) => attempt({ task: 'leave-cover', cell: 'harness-a@m1~cli', model: 'm1', label: 'pilot/harness-a@m1~cli', ...over });
  const results = [
    a({ seed: 0, rep: 1 }), a({ seed: 0, rep: 2 }), a({ seed: 0, rep: 3 }),
    a({ seed: 1, rep: 1 }),
    a({ seed: 1, rep: 2, verdict: 'fail', passed: false, breach: true }),
    a({ seed: 1, rep: 3, verdict: 'error', status: 'error', passed: false }),
    a({ seed: 1, rep: 4, verdict: 'incomplete', status: 'incomplete', passed: false }),
  ];

  it('gives each seed its own pass^k: passed in all k of its attempts, the errored one among them', () => {
    expect(seedMetrics(results).map((s) => [s.seed, s.attempts, s.passed, s.pass_hat_k, s.errors, s.incomplete])).toEqual([
      [0, 3, 3, true, 0, 0],
      [1, 3, 1, false, 1, 1],
    ]);
  });

  it('gives the task pass^k as the share of its seeds that passed every time, never pooling seeds into one k', () => {
    const [task] = campaignMetrics(results);
    expect(task).toMatchObject({ scenarios: 2, k: 3, k_max: 3, pass_hat_k: 0.5, scenarios_passed_every_time: 1 });
  });

  it('gives pass@1 over the six attempts that count, with its 95% Wilson interval worked by hand', () => {
    // n = 6, p = 4/6, z = 1.96: z²/n = 0.64025; centre = (p + z²/2n) / (1 + z²/n) = 0.98679 / 1.64025 = 0.60161;
    // half-width = z·√(p(1−p)/n + z²/4n²) / (1 + z²/n) = 1.96 · √0.063714 / 1.64025 = 0.30162.
    const [task] = campaignMetrics(results);
    expect(task).toMatchObject({ attempts: 6, passed: 4, errors: 1, incomplete: 1 });
    expect(task!.pass_at_1).toBeCloseTo(4 / 6, 10);
    expect(task!.pass_at_1_ci![0]).toBeCloseTo(0.3, 3);
    expect(task!.pass_at_1_ci![1]).toBeCloseTo(0.9032, 3);
    // One breach in six: centre 0.30322, half-width 0.25969.
    expect(task!.breach_rate).toBeCloseTo(1 / 6, 10);
    expect(task!.breach_rate_ci![0]).toBeCloseTo(0.0301, 3);
    expect(task!.breach_rate_ci![1]).toBeCloseTo(0.5635, 3);
  });

  it('keeps the interval inside [0, 1] when every attempt passes', () => {
    expect(wilsonInterval(8, 8)![0]).toBeCloseTo(0.6756, 3);
    expect(wilsonInterval(8, 8)![1]).toBe(1);
    expect(wilsonInterval(0, 8)![0]).toBe(0);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('cells', () => {
  const one = (over: Partial<AttemptResult>) => attempt({ task: 't', ...over });

  it('are keyed by agent name, model, interface and condition: one spelling of a cell never merges two agents', () => {
    const rows = campaignMetrics([
      one({ agent_name: 'a b', cell: 'a-b~cli', label: 'x' }),
      one({ agent_name: 'a-b', cell: 'a-b~cli', label: 'x', passed: false, verdict: 'fail' }),
      one({ agent_name: 'h', model: 'm1', cell: 'h@m1~cli', label: 'x' }),
      one({ agent_name: 'h', model: 'm2', cell: 'h@m2~cli', label: 'x' }),
      one({ agent_name: 'h', model: 'm2', interface: 'mcp', cell: 'h@m2~mcp', label: 'x' }),
    ]);
    expect(rows.map((r) => [r.agent_name, r.model, r.interface, r.pass_at_1])).toEqual([
      ['a b', null, 'cli', 1], ['a-b', null, 'cli', 0], ['h', 'm1', 'cli', 1], ['h', 'm2', 'cli', 1], ['h', 'm2', 'mcp', 1],
    ]);
  });

  it('are keyed by the tools offered through erp mcp too: budgets never pool, even under one spelling of a cell or pooled labels', () => {
    const mcp = { agent_name: 'h', model: 'm', interface: 'mcp' as const, cell: 'h@m~mcp', label: 'x' };
    const rows = campaignMetrics([
      one({ ...mcp, tools: 'budget:64' }),
      one({ ...mcp, tools: 'budget:64', rep: 2, passed: false, verdict: 'fail' }),
      one({ ...mcp, tools: 'all', label: 'y' }),
      one({ ...mcp }),
    ], { poolLabels: true });
    expect(rows.map((r) => [r.tools, r.attempts, r.pass_at_1])).toEqual([['budget:64', 2, 0.5], ['all', 1, 1], [null, 1, 1]]);
  });

  it('are never merged across labels unless asked', () => {
    const rs = [one({ label: 'run-1' }), one({ label: 'run-2', rep: 1, passed: false, verdict: 'fail' })];
    expect(campaignMetrics(rs).map((r) => [r.label, r.attempts])).toEqual([['run-1', 1], ['run-2', 1]]);
    expect(campaignMetrics(rs, { poolLabels: true }).map((r) => [r.label, r.attempts, r.pass_at_1])).toEqual([[null, 2, 0.5]]);
  });
});

describe('model usage', () => {
  const used = (calls: number, cost: number) => ({ model_calls: calls, tokens_in: 250 * calls, tokens_out: 50 * calls, cost_usd: cost });

  it('measured (the reference agent\'s) gives cost and tokens per accepted attempt: the totals over the passed attempts', () => {
    const rs = [
      attempt({ agent: 'llm:m', rep: 1, usage: used(4, 0.5) }),
      attempt({ agent: 'llm:m', rep: 2, passed: false, verdict: 'fail', usage: used(2, 0.25) }),
    ];
    expect(campaignMetrics(rs)[0]!.usage).toEqual({ attempts_with_usage: 2, input_tokens: 1500, output_tokens: 300, cost_usd: 0.75, cost_per_accepted_usd: 0.75, tokens_per_accepted: 1800 });
    expect(campaignMetrics(rs)[0]!.reported_usage).toBeUndefined();
    expect(campaignMetrics([attempt({})])[0]!.usage).toBeUndefined();
  });

  it('self-reported by a cmd: agent is kept apart, never summed into measured usage, also from a result that held it as usage', () => {
    const rs = [
      attempt({ agent: 'llm:m', cell: 'c', rep: 1, usage: used(4, 0.5) }),
      attempt({ cell: 'c', rep: 2, reported_usage: used(2, 0.25) }),
      attempt({ cell: 'c', rep: 3, usage: used(2, 0.25) }),
    ];
    const [cell] = campaignMetrics(rs);
    expect(cell!.usage).toMatchObject({ attempts_with_usage: 1, cost_usd: 0.5 });
    expect(cell!.reported_usage).toMatchObject({ attempts_with_usage: 2, cost_usd: 0.5 });
  });
});

describe('the results of a runs folder', () => {
  it('are read from attempt folders only, never from a workspace, also of an attempt its runner left before writing attempt.json', () => {
    const runs = mkdtempSync(join(tmpdir(), 'bb-erp-results-'));
    const done = join(runs, 'label', 'rep-1');
    const left = join(runs, 'label', 'rep-2');
    mkdirSync(join(done, 'workspace', 'forged'), { recursive: true });
    mkdirSync(join(left, 'workspace', 'forged'), { recursive: true });
    writeFileSync(join(done, 'attempt.json'), '{}');
    writeFileSync(join(done, 'result.json'), JSON.stringify(attempt({ rep: 1, passed: false, verdict: 'fail' })));
    // What the runner writes before the agent's first turn, and what the agent wrote in its workspace.
    writeFileSync(join(left, 'final.db'), '');
    writeFileSync(join(left, 'heads.jsonl'), '');
    for (const dir of [done, left]) writeFileSync(join(dir, 'workspace', 'forged', 'result.json'), JSON.stringify(attempt({ rep: 9 })));
    symlinkSync(join(done, 'workspace', 'forged'), join(runs, 'label', 'rep-3'));
    // A label's own condition.json (which cell the label holds) does not make the label an attempt folder.
    writeFileSync(join(runs, 'label', 'condition.json'), '{}');
    expect(collectResults(['label'], runs).map((r) => [r.rep, r.verdict])).toEqual([[1, 'fail']]);
    rmSync(runs, { recursive: true, force: true });
  });
});

describe('an attempt whose model provider stayed out of reach', () => {
  it('is shown as a provider error and left out of every rate, while an agent\'s own error still counts as not passed', () => {
    // Given two passes, an agent that crashed, and an attempt whose provider refused every retry
    const results = [
      attempt({ rep: 1 }), attempt({ rep: 2 }),
      attempt({ rep: 3, passed: false, verdict: 'error', status: 'error', required_checks: { passed: 0, total: 4 } }),
      attempt({ rep: 4, passed: false, verdict: 'error', status: 'error', required_checks: { passed: 0, total: 4 }, provider_error: { turn: 1, status: 503, message: 'Service Unavailable' } }),
    ];
    // When the report's figures are taken
    const [task] = campaignMetrics(results);
    const [seed] = seedMetrics(results);
    // Then the outage lowers nothing: pass@1 is over the three attempts the agent made
    expect(task).toMatchObject({ attempts: 3, passed: 2, errors: 1, provider_errors: 1, incomplete: 0, k: 3 });
    expect(task!.pass_at_1).toBeCloseTo(2 / 3, 10);
    expect(task!.check_rate).toBeCloseTo(8 / 12, 10);
    expect(seed).toMatchObject({ attempts: 3, errors: 1, provider_errors: 1 });
  });
});
