import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_TASKS, packCopy } from '../support/packs';

const bin = join(__dirname, '..', '..', 'bin', 'run.js');
const cwd = mkdtempSync(join(tmpdir(), 'bb-erp-ops-'));
const fixture = ['--tasks-dir', FIXTURE_TASKS];

function erp(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('erp handbook', () => {
  it('check and lint pass on the smoke pack', () => {
    expect(erp('handbook', 'check', 'leave-cover', ...fixture)).toMatchObject({ code: 0, stdout: expect.stringMatching(/handbook matches policies\.yaml\n$/) });
    expect(erp('handbook', 'lint', 'leave-cover', ...fixture)).toMatchObject({ code: 0, stdout: 'every clause is enforced by a check or a rule\nlint passed\n' });
  });

  it('check exits 1 on a stale handbook and says how to fix it', () => {
    const dir = packCopy({ policies: (p) => { p.clauses[0].text = 'Changed.'; } });
    const out = erp('handbook', 'check', dir);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('differs from the rendering: leave.md');
    expect(out.stdout).toContain(`run: erp handbook render ${dir}`);
  });

  it('reports a broken pack naming the file and the field', () => {
    const out = erp('handbook', 'lint', packCopy({ task: (t) => { t.checks[0].cites = []; } }));
    expect(out.code).toBe(1);
    expect(out.stderr.replace(/\s*\n\s*›\s*/g, ' ')).toMatch(/task\.yaml:\d+: checks\[0\]\.cites: must NOT have fewer than 1 items/);
  });
});

describe('erp scenario gen, bench run, grade, validate and report', () => {
  it('generates a scenario once, then uses the cache', () => {
    const first = erp('scenario', 'gen', 'leave-cover', ...fixture, '--seed', '0');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ dir: join(cwd, 'scenarios', 'leave-cover', 'seed-0'), cached: false, oracle: 'pass' });
    expect(first.stderr).toContain('leave-cover seed 0: playing the oracle through the runner');
    const second = erp('scenario', 'gen', 'leave-cover', ...fixture, '--seed', '0');
    expect(JSON.parse(second.stdout).cached).toBe(true);
    expect(second.stderr).toContain('using the cached scenario');
  });

  it('generates a company alone when given a company instead of a task', () => {
    const dir = join(cwd, 'companies', 'small-company-2');
    const out = erp('scenario', 'gen', 'small-company', '--seed', '2', '--out', dir);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ dir, cached: false, company: 'small-company', business_date: '2026-10-05', events: expect.any(Number) });
    expect(JSON.parse(erp('scenario', 'gen', 'small-company', '--seed', '2', '--out', dir).stdout).cached).toBe(true);
  });

  it('refuses a target that is neither a task nor a company', () => {
    const out = erp('scenario', 'gen', 'southgate');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("no task pack 'southgate' here");
  });

  it('runs the null agent: one progress line per turn, then the verdict table', () => {
    const out = erp('bench', 'run', 'leave-cover', ...fixture, '--agent', 'null');
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/turn 1\/2 2026-10-06 null: exit 0 after [\d.]+ s\nturn 2\/2 2026-10-08 null: exit 0 after/);
    expect(out.stdout).toMatch(/^leave-cover seed 0 rep 1 \(null~http\): FAIL\ncheck +type +kind +result +detail\n/);
    expect(out.stdout).toMatch(/\nhandoff-note +text_sentence_matches +required +FAIL +The workspace has no file handoff\.md\.\n/);
  });

  it('prints the clause-coverage table of the scenario generated above, and its JSON', () => {
    const out = erp('handbook', 'lint', 'leave-cover', ...fixture, '--coverage', '--seeds', '0');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^leave-cover: clause coverage over seeds 0$/m);
    // The mutants column says which operators break the clause; lint runs none of them.
    expect(out.stdout).toMatch(/^LV-1\.3 +leave-values +neg:approver-without-delegate +drop_field \(not run\) +0 +ok$/m);
    expect(out.stdout).toMatch(/every clause is covered\nlint passed\n$/);
    const json = JSON.parse(erp('handbook', 'lint', 'leave-cover', ...fixture, '--coverage', '--seeds', '0', '--json').stdout);
    expect(json.coverage).toMatchObject({ task: 'leave-cover', seeds: [0], ok: true });
    expect(json.coverage.clauses.find((c: { clause: string }) => c.clause === 'LV-2.2')).toMatchObject({ checks: ['own-sign-in'], exercised: [0] });
  });

  it('grades an attempt folder again', () => {
    const out = erp('bench', 'grade', join(cwd, 'runs', 'null~http', 'leave-cover', 'seed-0', 'rep-1'), '--json');
    expect(JSON.parse(out.stdout)).toMatchObject({ verdict: 'fail', cell: 'null~http', required_checks: { passed: 3, total: 7 } });
  });

  it('validates in worker processes and prints the controls', () => {
    const out = erp('bench', 'validate', '--task', 'leave-cover', ...fixture, '--seeds', '0,1', '--jobs', '2');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/leave-cover +1 +neg:no-note +fails exactly handoff-note +fails handoff-note +ok\n/);
    expect(out.stdout.trim().endsWith('every control holds')).toBe(true);
    expect(out.stderr).toContain('[leave-cover seed 1] ');
  });

  it('refuses to grade again an attempt whose databases the validation removed, and leaves its result as it was', () => {
    const dir = join(cwd, 'runs', 'validate', 'leave-cover', 'seed-0', 'null');
    const before = readFileSync(join(dir, 'result.json'), 'utf8');
    const out = erp('bench', 'grade', dir);
    expect(out.code).toBe(1);
    // oclif wraps the error to the terminal's width, within words too.
    const unwrapped = (text: string) => text.replace(/\s*\n\s*›\s*/g, '').replace(/\s+/g, '');
    expect(unwrapped(out.stderr)).toContain(unwrapped(`${dir} has no final.db: its validation control held, so erp bench validate removed its databases (--keep-databases keeps them)`));
    expect(readFileSync(join(dir, 'result.json'), 'utf8')).toBe(before);
  });

  it('reports a label as a table and as JSON', () => {
    const text = erp('bench', 'report', 'null~http').stdout;
    // checks, then the null agent's on the same task (here the same attempt), then breaches.
    expect(text).toMatch(/\nnull~http +null~http +leave-cover +1 +0\.0% +0\.0%–79\.3% +0\.0% \(0\/1\) +1 +42\.9% +42\.9% +0\.0%/);
    expect(text).toMatch(/\npass\^k per seed\n.*\n.*\nnull~http +null~http +leave-cover +0 +1 +0 +no /);
    expect(text).toContain('interval: 95% Wilson score interval');
    expect(JSON.parse(erp('bench', 'report', 'null~http', '--json').stdout)).toMatchObject({ attempts: 1, groups: [{ cell: 'null~http', agent_name: 'null', model: null, interface: 'http', task: 'leave-cover', pass_at_1: 0, check_rate: 3 / 7 }], seeds: [{ seed: 0, attempts: 1, pass_hat_k: false }] });
  });
});
