import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'yaml';
import { gradeAttempt, ReplayMismatch } from '../../src/grader/grade';
import type { AttemptResult } from '../../src/grader/result';
import { runAttempt } from '../../src/runner/attempt';
import { benchRun } from '../../src/runner/bench-run';
import { campaignMetrics, collectResults } from '../../src/runner/metrics';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import { validate } from '../../src/runner/validate';
import { attemptView } from '../../src/runner/viewer/attempt-view';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';
import { FIXTURE_TASKS, packCopy, SMOKE } from '../support/packs';

const root = mkdtempSync(join(tmpdir(), 'bb-erp-smoke-'));
const pack = loadPack('leave-cover', FIXTURE_TASKS);
const code = loadPackCode(pack);
const scenarioDir = join(root, 'scenarios', 'leave-cover', 'seed-0');
const lines: string[] = [];
let scenario: Scenario;

async function attempt(agent: Parameters<typeof runAttempt>[0]['agent'], name: string): Promise<AttemptResult> {
  const out = await runAttempt({ pack, code, packHash: scenario.manifest.pack_hash, scenarioDir, seed: 0, agent, attemptDir: join(root, 'attempts', name), label: 'smoke', rep: 1 });
  return out.result!;
}

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: scenarioDir, log: (l) => lines.push(l) });
});

describe('a generated scenario of the smoke task', () => {
  it('holds the start state, the world, the turns, the handbook and the truth', () => {
    for (const f of ['scenario.db', 'world.json', 'turns.yaml', 'handbook/leave.md', 'truth.json', 'scenario.json']) expect(existsSync(join(scenarioDir, f))).toBe(true);
    const world = JSON.parse(readFileSync(join(scenarioDir, 'world.json'), 'utf8'));
    expect(world.users).toEqual(['ava.reed', 'grace.lin', 'maya.chen', 'olga.park', 'sam.ortiz']);
    expect(readFileSync(join(scenarioDir, 'world.json'), 'utf8')).not.toMatch(/erp_[0-9a-f]|token/i);
    expect(world.scheduled).toHaveLength(1);
    expect(parse(readFileSync(join(scenarioDir, 'turns.yaml'), 'utf8'))).toMatchObject({ agent_user: 'olga.park', grading_date: '2026-10-09', turns: [{ date: '2026-10-06', from: 'maya.chen' }, { date: '2026-10-08' }] });
    expect(JSON.parse(readFileSync(join(scenarioDir, 'truth.json'), 'utf8')).planted.map((p: { id: string }) => p.id)).toEqual(['ava-not-theirs', 'maya-approver', 'sam-no-delegate', 'sam-moved', 'sam-november', 'handoff', 'own-sign-in']);
    expect(readFileSync(join(scenarioDir, 'handbook', 'leave.md'), 'utf8')).toBe(readFileSync(join(pack.handbookDir, 'leave.md'), 'utf8'));
  });

  it('holds the oracle\'s projections as CSV and its event stream without wall-clock fields', () => {
    expect(readFileSync(join(scenarioDir, 'reference', 'leaves.csv'), 'utf8')).toBe([
      'employee,start_date,end_date,delegate,_leave',
      'grace.lin,2026-11-02,2026-11-06,,LV-000004',
      'maya.chen,2026-10-12,2026-10-16,grace.lin,LV-000002',
      'sam.ortiz,2026-10-14,2026-10-15,,LV-000005',
      'sam.ortiz,2026-11-16,2026-11-20,,LV-000001',
      '',
    ].join('\n'));
    const events = readFileSync(join(scenarioDir, 'reference', 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(events.some((e) => e.type === 'LeaveCancelled' && e.actor === 'olga.park')).toBe(true);
    expect(events.some((e) => e.type === 'LeaveScheduled' && e.actor === 'grace.lin' && e.businessDate === '2026-10-07')).toBe(true);
    expect(events.every((e) => !('wallTime' in e) && !('rowHash' in e))).toBe(true);
    expect(scenario.manifest.oracle).toMatchObject({ verdict: 'pass', failed_checks: [] });
  });

  it('reports its progress and is taken from the cache the second time', async () => {
    expect(lines[0]).toBe('leave-cover seed 0: building the start state (small-company)');
    const again: string[] = [];
    const second = await generateScenario(pack, { seed: 0, out: scenarioDir, log: (l) => again.push(l) });
    expect(second.cached).toBe(true);
    expect(again).toEqual([`leave-cover seed 0: using the cached scenario in ${scenarioDir}`]);
  });

  it('is generated again when a file of the pack changes', async () => {
    const changed = loadPack(packCopy({ task: (t) => { t.title = 'Another title'; } }));
    const out = join(root, 'changed');
    await generateScenario(pack, { seed: 0, out });
    const regenerated = await generateScenario(changed, { seed: 0, out });
    expect(regenerated.cached).toBe(false);
  });
});

describe('the oracle\'s attempt', () => {
  let result: AttemptResult;
  const dir = join(root, 'attempts', 'oracle');
  beforeAll(async () => { result = await attempt({ kind: 'oracle' }, 'oracle'); });

  it('passes every check, with the same final state as the reference run', () => {
    expect(result).toMatchObject({ verdict: 'pass', passed: true, breach: false, required_checks: { passed: 7, total: 7 }, cell: 'oracle~http', agent_name: 'oracle', model: null, interface: 'http', condition: 'clean' });
    expect(result.final_hash).toBe(scenario.manifest.oracle.final_hash);
  });

  it('leaves the attempt folder: final.db (its start is final.db through start_seq, not a copy), workspace with the handbook, turns, projections, condition and result', () => {
    expect(existsSync(join(dir, 'start.db'))).toBe(false);
    for (const f of ['final.db', 'workspace/handbook/leave.md', 'workspace/handoff.md', 'projections/leaves.agent.csv', 'projections/leaves.reference.csv', 'condition.json', 'result.json', 'attempt.json']) expect(existsSync(join(dir, f))).toBe(true);
    for (const f of ['prompt.md', 'stdout.txt', 'stderr.txt', 'exit.json']) expect(existsSync(join(dir, 'turns', '2', f))).toBe(true);
    expect(existsSync(join(dir, 'final.db-wal'))).toBe(false);
    const prompt = readFileSync(join(dir, 'turns', '1', 'prompt.md'), 'utf8');
    expect(prompt.split('\n')[0]).toBe('You are signed in to the ERP of Northgate Valve Co. as Olga Park (Office administrator, user olga.park).');
    expect(prompt).toContain('`erp` command is on your PATH');
    expect(prompt).toContain('`erp docs`');
    expect(prompt).toContain('handbook/');
    expect(prompt).toContain('Request from Maya Chen (user maya.chen), 2026-10-06:\n\nHi Olga, could you put some leave in for us?');
    expect(JSON.parse(readFileSync(join(dir, 'condition.json'), 'utf8'))).toEqual({ condition: 'clean', faults: null, agent: 'oracle', agent_name: 'oracle', model: null, interface: 'http', tools: null, cell: 'oracle~http', isolation: 'in-process', sandbox: null, timeout_override_s: null });
  });

  it('counts its writes and the one it reversed itself', () => {
    expect(result.metrics).toEqual({ probes: 0, writes: 4, reversed_writes: 1 });
    expect(result.turns.map((t) => [t.index, t.exit_code, t.timed_out])).toEqual([[1, 0, false], [2, 0, false]]);
  });

  it('grades the same again from its folder', () => {
    expect(gradeAttempt(dir).checks.map((c) => c.passed)).toEqual(result.checks.map((c) => c.passed));
  });
});

describe('the null agent\'s attempt', () => {
  it('fails: the requested leave is missing and there is no note', async () => {
    const result = await attempt({ kind: 'null' }, 'null');
    expect(result.verdict).toBe('fail');
    expect(result.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(['leave-set', 'leave-values', 'handoff-note', 'leave-once']);
    expect(result.metrics).toEqual({ probes: 0, writes: 0, reversed_writes: 0 });
  });
});

describe('a negative control that names the buyer\'s manager as his delegate', () => {
  it('fails exactly the check it names, showing the differing row and the events that wrote it', async () => {
    const result = await attempt({ kind: 'negative', name: 'manager-as-delegate' }, 'neg');
    expect(result.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(pack.spec.negative_controls['neg:manager-as-delegate']!.fails);
    const values = result.checks.find((c) => c.id === 'leave-values')!;
    expect(values.differing).toEqual([expect.objectContaining({ key: { employee: 'sam.ortiz', start_date: '2026-10-14' }, kind: 'changed', columns: ['delegate'] })]);
    const finalDb = new Database(join(root, 'attempts', 'neg', 'final.db'), { readonly: true });
    const types = values.differing![0]!.event_ids.map((id) => (finalDb.prepare('SELECT type FROM events WHERE seq = ?').get(id) as { type: string }).type);
    finalDb.close();
    expect(types).toEqual(['LeaveScheduled']);
  });
});

describe('an attempt whose final.db was edited behind its event stream', () => {
  it('is refused by the grader, naming the table', async () => {
    await attempt({ kind: 'oracle' }, 'tampered');
    const db = new Database(join(root, 'attempts', 'tampered', 'final.db'));
    db.prepare(`UPDATE delegations SET delegate_id = 'ava.reed' WHERE user_id = 'sam.ortiz'`).run();
    db.close();
    expect(() => gradeAttempt(join(root, 'attempts', 'tampered'))).toThrow(ReplayMismatch);
    expect(() => gradeAttempt(join(root, 'attempts', 'tampered'))).toThrow(/differ from a replay of its events in delegations/);
  });
});

describe('bench run, validate and report over the smoke task', () => {
  const runsDir = join(root, 'runs');
  const run = (agent: string, reps = 1, label?: string) => benchRun({ task: 'leave-cover', tasksDir: FIXTURE_TASKS, agent, reps, label, runsDir, scenarioDir });

  it('numbers repetitions under a label that holds one cell', async () => {
    const out = await run('oracle', 2);
    expect(out.attempts.map((a) => a.dir)).toEqual([join(runsDir, 'oracle~http', 'leave-cover', 'seed-0', 'rep-1'), join(runsDir, 'oracle~http', 'leave-cover', 'seed-0', 'rep-2')]);
    expect(out.attempts.map((a) => a.result.verdict)).toEqual(['pass', 'pass']);
    await expect(run('null', 1, 'oracle~http')).rejects.toThrow('Label oracle~http holds oracle~http attempts; give null~http its own --label.');
  });

  it('validates: the oracle passes twice alike, the null agent and every negative control fail', async () => {
    const report = await validate({ tasks: ['leave-cover'], tasksDir: FIXTURE_TASKS, seeds: [0], runsDir: join(root, 'validate'), scenariosDir: join(root, 'scenarios'), strict: true });
    expect(report.rows.filter((r) => !r.ok)).toEqual([]);
    expect(report.rows.map((r) => r.control)).toEqual([
      'handbook check', 'handbook lint', 'positive controls', 'oracle', 'oracle again', 'null',
      'neg:approver-without-delegate', 'neg:borrowed-sign-in', 'neg:clear-and-redo', 'neg:everything', 'neg:last-day-out', 'neg:manager-as-delegate', 'neg:no-note',
      'pos:asked-in-reverse', 'pos:note-each-turn', 'pos:read-first', 'pos:oracle~cli', 'pos:oracle~mcp', 'pos:oracle~keys', 'pos:oracle~reads',
      'mut:LV-1.2~shift_field', 'mut:LV-1.3~drop_field', 'mut:LV-1.4~set_field', 'mut:LV-1.5~skip', 'mut:LV-1.1~add', 'mut:LV-1.1~later_day', 'mut:LV-2.1~omit_text',
      'clause coverage',
    ]);
    // Every mutant that changed the writes is caught; the one whose match picks nothing the oracle sends is reported unchanged.
    expect(report.rows.filter((r) => r.mutant).map((r) => r.mutant)).toEqual(['caught', 'caught', 'caught', 'caught', 'caught', 'unchanged', 'caught']);
    expect(report.coverage[0]!.clauses.find((c) => c.clause === 'LV-1.1')!.parts[0]!.mutants.map((m) => [m.name, m.outcomes])).toEqual([
      ['mut:LV-1.1~add', { caught: [0], unchanged: [], missed: [] }], ['mut:LV-1.1~later_day', { caught: [], unchanged: [0], missed: [] }],
    ]);
    expect(report.coverage.map((t) => [t.task, t.ok, t.clauses.length])).toEqual([['leave-cover', true, 7]]);
    // Every control held, so no attempt keeps its databases; the viewer says why it has nothing to show.
    const oracleDir = join(root, 'validate', 'leave-cover', 'seed-0', 'oracle-1');
    expect(['start.db', 'final.db', 'result.json', 'attempt.json'].map((f) => existsSync(join(oracleDir, f)))).toEqual([false, false, true, true]);
    expect(() => attemptView(oracleDir)).toThrow(`${oracleDir} has no final.db: its validation control held, so erp bench validate removed its databases (--keep-databases keeps them)`);
  }, 240_000);

  it('keeps every database when asked to, given the pack by its own folder', async () => {
    // A pack's folder names the pack by its slug: its scenarios and runs are those of leave-cover.
    const report = await validate({ tasks: [SMOKE], seeds: [0], runsDir: join(root, 'validate-kept'), scenariosDir: join(root, 'scenarios'), keepDatabases: true });
    expect(report.ok).toBe(true);
    const seedDir = join(root, 'validate-kept', 'leave-cover', 'seed-0');
    expect(['oracle-1', 'oracle-2', 'null', 'neg-no-note'].map((a) => existsSync(join(seedDir, a, 'final.db')))).toEqual(Array(4).fill(true));
    expect(attemptView(join(seedDir, 'oracle-1')).calls.length).toBeGreaterThan(0);
  });

  it('reports per cell: pass@1, pass^k, check and breach rates, writes and reversals', async () => {
    await run('neg:borrowed-sign-in');
    const groups = campaignMetrics(collectResults(['oracle~http', 'neg-borrowed-sign-in~http'], runsDir));
    expect(groups.map((g) => [g.cell, g.task, g.attempts, g.pass_at_1, g.pass_hat_k, g.k, g.breach_rate])).toEqual([
      ['neg-borrowed-sign-in~http', 'leave-cover', 1, 0, 0, 1, 1],
      ['oracle~http', 'leave-cover', 2, 1, 1, 2, 0],
    ]);
    expect(groups[1]).toMatchObject({ check_rate: 1, probe_rate: 0, writes_per_attempt: 4, reversed_per_attempt: 1 });
    expect(groups[1]!.fault_handling).toBeUndefined();
  });
});
