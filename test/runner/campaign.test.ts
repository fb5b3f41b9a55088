import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { packageRoot } from '../../src/package-info';
import { packCopy } from '../support/packs';
import { interruptWhen, processesWith } from '../support/processes';

/** The operator's side of `erp bench campaign` (built): run, interrupted by Ctrl-C, resumed. */
const root = mkdtempSync(join(tmpdir(), 'bb-erp-campaign-'));
const erp = join(packageRoot(), 'bin', 'run.js');
const tasksDir = join(root, 'tasks');
packCopy({ index: (s) => s }, 'leave-cover', tasksDir);
packCopy({ index: (s) => s, taskText: (t) => t.replace('id: leave-cover', 'id: leave-cover-b') }, 'leave-cover-b', tasksDir);

// An agent that takes its time and does nothing: every attempt of it fails.
const marker = `campaign-napper-${process.pid}-${Date.now()}`;
const napper = join(root, 'napper.sh');
writeFileSync(napper, `#!/bin/sh\necho started > started.txt\nsleep 1.5\n: ${marker}\n`);
chmodSync(napper, 0o755);

const campaignFile = join(root, 'pilot.yaml');
writeFileSync(campaignFile, stringify({
  name: 'pilot', tasks: ['leave-cover', 'leave-cover-b'], tasks_dir: 'tasks', seeds: [0, 1], reps: 2,
  agents: ['oracle', { agent: `cmd:${napper}`, name: 'napper', agent_files: ['napper.sh'] }],
}));
const campaignDir = join(root, 'runs', 'pilot');
const cells = ['napper~cli', 'oracle~http'];

/** Every slot folder of the campaign: <cell>/<task>/seed-<s>/rep-<r>. */
function slotFolders(): string[] {
  const out: string[] = [];
  for (const cell of cells) {
    for (const task of ['leave-cover', 'leave-cover-b']) {
      for (const seed of ['seed-0', 'seed-1']) {
        const dir = join(campaignDir, cell, task, seed);
        if (existsSync(dir)) out.push(...readdirSync(dir).map((rep) => join(dir, rep)));
      }
    }
  }
  return out;
}

const verdictOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { verdict: string }).verdict;

function campaign(...extra: string[]) {
  return spawnSync(process.execPath, [erp, 'bench', 'campaign', campaignFile, '--jobs', '2', ...extra], { cwd: root, encoding: 'utf8' });
}

describe('a campaign of 2 tasks × 2 seeds × 2 reps × 2 agents with --jobs 2, interrupted by Ctrl-C', () => {
  let exit: { code: number | null; stderr: string };
  beforeAll(async () => {
    // Once two attempts are in place and a napper's turn is under way, Ctrl-C the campaign.
    exit = await interruptWhen(erp, ['bench', 'campaign', campaignFile, '--jobs', '2'], () => {
      const staging = join(campaignDir, '.staging', 'napper~cli');
      const napping = existsSync(staging) && JSON.stringify(readdirSync(staging, { recursive: true })).includes('started.txt');
      return slotFolders().length >= 2 && napping;
    }, { cwd: root, limitMs: 100_000 });
  }, 150_000);

  it('exits 130 and leaves no agent running', () => {
    expect(exit.code).toBe(130);
    expect(exit.stderr).toContain('SIGINT: ending every running agent and marking its attempt incomplete');
    expect(processesWith(marker)).toEqual([]);
  });

  it('leaves no half attempt: every slot folder has its result, the interrupted ones incomplete, and staging is gone', () => {
    const folders = slotFolders();
    expect(folders.length).toBeGreaterThanOrEqual(2);
    expect(folders.length).toBeLessThan(16);
    for (const f of folders) expect(existsSync(join(f, 'result.json'))).toBe(true);
    expect(folders.map(verdictOf)).toContain('incomplete');
    expect(existsSync(join(campaignDir, '.staging'))).toBe(false);
  });

  it('writes the manifest: code version, pack fingerprints and budgets, seeds, reps, agents, conditions, the session', () => {
    const manifest = JSON.parse(readFileSync(join(campaignDir, 'campaign.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'pilot', code_version: expect.stringMatching(/^0\.1\.0\+[0-9a-f]{16}$/), seeds: [0, 1], reps: 2, conditions: ['clean'], timeout_override_s: null, attempts: 16,
      tasks: [{ task: 'leave-cover', pack_hash: expect.stringMatching(/^[0-9a-f]{64}$/), turn_budgets_s: [600, 600] }, { task: 'leave-cover-b' }],
      agents: [
        { cell: 'oracle~http', agent: 'oracle', agent_name: 'oracle', model: null, interface: 'http', condition: 'clean' },
        { cell: 'napper~cli', agent: `cmd:${napper}`, agent_name: 'napper', model: null, interface: 'cli', condition: 'clean', sandbox: true },
      ],
      sessions: [{ jobs: 2, interrupted: true, superseded: 0 }],
    });
  });

  describe('then resumed', () => {
    let before: Map<string, string>;
    let resumed: ReturnType<typeof campaign>;
    beforeAll(() => {
      before = new Map(slotFolders().map((f) => [f, verdictOf(f)]));
      resumed = campaign();
    }, 150_000);

    it('runs what is missing and what was interrupted, and exits 0 though attempts failed', () => {
      expect(resumed.status).toBe(0);
      const folders = slotFolders();
      expect(folders).toHaveLength(16);
      const verdicts = folders.map(verdictOf);
      expect(verdicts.filter((v) => v === 'pass')).toHaveLength(8);
      expect(verdicts.filter((v) => v === 'fail')).toHaveLength(8);
      expect(resumed.stdout).toContain('pilot: 8 passing, 8 failing, 0 errored, 0 not finished, of 16 attempts');
    });

    it('skips finished attempts and sets the interrupted ones aside in .superseded', () => {
      const incomplete = [...before].filter(([, v]) => v === 'incomplete').length;
      const manifest = JSON.parse(readFileSync(join(campaignDir, 'campaign.json'), 'utf8'));
      expect(manifest.sessions).toHaveLength(2);
      expect(manifest.sessions[1]).toMatchObject({ interrupted: false, superseded: incomplete });
      expect(Object.values(manifest.sessions[1].ran as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(16 - before.size + incomplete);
      for (const [dir, verdict] of before) if (verdict !== 'incomplete') expect(verdictOf(dir)).toBe(verdict);
      expect(readdirSync(join(campaignDir, '.superseded', 'session-2'), { recursive: true }).filter((p) => String(p).endsWith('result.json'))).toHaveLength(incomplete);
    });

    it('has nothing left to run the third time', () => {
      const again = campaign('--json');
      expect(again.status).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, superseded: 0, counts: { total: 16, passing: 8, failing: 8 } });
    });

    it('reports each seed\'s pass^k and pass@1 with its interval, as worked by hand', () => {
      const report = JSON.parse(spawnSync(process.execPath, [erp, 'bench', 'report', campaignDir, '--json'], { cwd: root, encoding: 'utf8' }).stdout);
      // Every scenario has k = 2: the oracle passed both times, the napper neither.
      expect(report.seeds).toHaveLength(8);
      for (const s of report.seeds) expect(s).toMatchObject({ attempts: 2, incomplete: 0, pass_hat_k: s.cell === 'oracle~http' });
      const row = (cell: string, task: string) => report.groups.find((g: { cell: string; task: string }) => g.cell === cell && g.task === task);
      // Over both tasks: 8 of 8 and 0 of 8. Wilson, z = 1.96, n = 8: z²/n = 0.48018; at p = 1 the
      // centre is (1 + 0.24009) / 1.48018 = 0.83779 and the half-width 1.96·√(3.8415/256) / 1.48018 = 0.16221.
      expect(row('oracle~http', '*')).toMatchObject({ attempts: 8, passed: 8, scenarios: 4, k: 2, pass_hat_k: 1, label: 'pilot/oracle~http' });
      expect(row('oracle~http', '*').pass_at_1_ci[0]).toBeCloseTo(0.6756, 3);
      expect(row('oracle~http', '*').pass_at_1_ci[1]).toBe(1);
      expect(row('napper~cli', '*')).toMatchObject({ attempts: 8, passed: 0, pass_hat_k: 0, pass_at_1_ci: [0, expect.closeTo(0.3244, 3)] });
      expect(row('napper~cli', 'leave-cover-b')).toMatchObject({ attempts: 4, scenarios: 2, k: 2, agent_name: 'napper', interface: 'cli' });
    });

    it('refuses to resume with other seeds', () => {
      const other = spawnSync(process.execPath, [erp, 'bench', 'campaign', '--name', 'pilot', '--task', 'leave-cover', '--tasks-dir', tasksDir, '--seeds', '0'], { cwd: root, encoding: 'utf8' });
      expect(other.status).toBe(1);
      expect(other.stderr.replace(/\s*\n\s*›\s*/g, ' ')).toContain('Campaign pilot in');
    });
  });
});

describe('a campaign whose attempts error', () => {
  const scenarios = join(root, 'broken-scenarios');
  const args = ['bench', 'campaign', '--name', 'broken', '--task', 'leave-cover', '--tasks-dir', tasksDir, '--agent', 'null', '--scenarios-dir', scenarios];
  const run = (...extra: string[]) => spawnSync(process.execPath, [erp, ...args, ...extra], { cwd: root, encoding: 'utf8' });

  it('exits 1, each errored attempt recorded with its error, and --retry-errored runs them again', () => {
    // A scenario broken after it was generated: its world no longer lists the agent's user.
    const gen = spawnSync(process.execPath, [erp, 'scenario', 'gen', 'leave-cover', '--tasks-dir', tasksDir, '--out', join(scenarios, 'leave-cover', 'seed-0')], { cwd: root, encoding: 'utf8' });
    expect(gen.status).toBe(0);
    const worldFile = join(scenarios, 'leave-cover', 'seed-0', 'world.json');
    writeFileSync(worldFile, JSON.stringify({ ...JSON.parse(readFileSync(worldFile, 'utf8')), users: [] }));
    const first = run();
    expect(first.status).toBe(1);
    expect(first.stdout).toContain('broken: 0 passing, 0 failing, 1 errored');
    const result = JSON.parse(readFileSync(join(root, 'runs', 'broken', 'null~http', 'leave-cover', 'seed-0', 'rep-1', 'result.json'), 'utf8'));
    expect(result).toMatchObject({ verdict: 'error', cell: 'null~http', error: expect.stringContaining('world.json does not list the agent user olga.park') });
    expect(JSON.parse(run('--json').stdout)).toMatchObject({ ran: 0, counts: { errored: 1 } });
    const retried = run('--retry-errored', '--json');
    expect(retried.status).toBe(1);
    expect(JSON.parse(retried.stdout)).toMatchObject({ ran: 1, superseded: 1, counts: { errored: 1 } });
  }, 120_000);
});
