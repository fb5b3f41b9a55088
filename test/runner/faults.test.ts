import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRun } from '../../src/runner/bench-run';
import { resolveFaults } from '../../src/runner/fault-condition';
import { validate } from '../../src/runner/validate';
import { loadPack } from '../../src/task-pack/load';
import { FIXTURE_TASKS } from '../support/packs';

const root = mkdtempSync(join(tmpdir(), 'bb-erp-faults-'));
const pack = loadPack('leave-cover', FIXTURE_TASKS);

describe('--faults', () => {
  it('names the condition after a task profile, or after the SPEC', () => {
    expect(resolveFaults(pack, 'lost-leave')).toMatchObject({ condition: 'lost-leave', spec: 'lost_response:POST /leaves@1', negativeControls: { 'neg:blind-retry': { breaks: [], fails: ['leave-once', 'leave-values'], refused: [], regression: null } } });
    expect(resolveFaults(pack, 'flaky-writes:seed=3,rate=0.1').condition).toBe('flaky-writes-seed3-rate0.1');
    expect(resolveFaults(pack, 'fail_before:POST /leaves@2').condition).toMatch(/^faults-[0-9a-f]{8}$/);
    expect(() => resolveFaults(pack, 'no-such-profile')).toThrow(/not of the form/);
  });
});

describe('an oracle attempt under lost-leave', () => {
  let dir: string;
  let result: Awaited<ReturnType<typeof benchRun>>['attempts'][number]['result'];
  beforeAll(async () => {
    const out = await benchRun({ task: 'leave-cover', tasksDir: FIXTURE_TASKS, agent: 'oracle', faults: 'lost-leave', runsDir: join(root, 'runs'), scenarioDir: join(root, 'scenario') });
    ({ dir, result } = out.attempts[0]!);
  });

  it('is a cell of its own, named for the profile', () => {
    expect(result).toMatchObject({ condition: 'lost-leave', cell: 'oracle~http+lost-leave', verdict: 'pass' });
    expect(dir).toContain(join('runs', 'oracle~http+lost-leave'));
    expect(JSON.parse(readFileSync(join(dir, 'condition.json'), 'utf8'))).toMatchObject({ condition: 'lost-leave', faults: { spec: 'lost_response:POST /leaves@1', profile: 'lost-leave' } });
  });

  it('writes the faults beside the runner\'s files, never into the workspace', () => {
    const faults = readFileSync(join(dir, 'faults.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(faults).toEqual([expect.objectContaining({ kind: 'lost_response', method: 'POST', path: '/leaves', committed: true })]);
    expect(existsSync(join(dir, 'workspace', 'faults.jsonl'))).toBe(false);
  });

  it('reports what the fault did and that the oracle re-sent with the same key, applying nothing twice', () => {
    expect(result.fault_metrics).toEqual({
      faults_injected: 1, fail_before: 0, lost_response: 1, slow: 0, writes_committed_behind_failure: 1,
      faulted_requests_resent: 1, resent_with_same_key: 1, duplicates_found: 0,
    });
  });
});

describe('validation under lost-leave', () => {
  it('passes: the oracle passes twice alike, the plan hits it, and the blind retry fails the check it names', async () => {
    const report = await validate({ tasks: ['leave-cover'], tasksDir: FIXTURE_TASKS, seeds: [0], faults: 'lost-leave', runsDir: join(root, 'validate'), scenariosDir: join(root, 'scenarios') });
    const seeded = report.rows.filter((r) => r.seed !== null);
    // The other valid ways of doing the work must pass under the fault as well.
    const positives = seeded.filter((r) => r.control.startsWith('pos:'));
    expect(positives.length).toBeGreaterThanOrEqual(3);
    expect(positives.filter((r) => !r.ok).map((r) => `${r.control}: ${r.got}`)).toEqual([]);
    const rows = seeded.filter((r) => !r.control.startsWith('pos:') && !r.control.startsWith('mut:')).map((r) => [r.control, r.ok, r.got]);
    expect(rows).toEqual([
      ['oracle', true, 'pass'],
      ['oracle again', true, 'same canonical hash'],
      ['fault plan', true, '1 fault injected'],
      ['null', true, 'fail'],
      ['neg:blind-retry', true, 'fails leave-once, leave-values'],
    ]);
    expect(report.ok).toBe(true);
  });
});
