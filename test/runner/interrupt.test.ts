import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSTALL_BWRAP } from '../../src/runner/bwrap';
import { benchRun } from '../../src/runner/bench-run';
import { campaignMetrics, collectResults } from '../../src/runner/metrics';
import { packageRoot } from '../../src/package-info';
import { FIXTURE_TASKS } from '../support/packs';
import { interruptWhen, processesWith } from '../support/processes';

/** The operator's side: `erp bench run` (built) interrupted, refused without bubblewrap, run bare on request. */
const root = mkdtempSync(join(tmpdir(), 'bb-erp-interrupt-'));
const erp = join(packageRoot(), 'bin', 'run.js');
const marker = `interrupted-agent-${process.pid}-${Date.now()}`;
const script = join(root, 'agent.sh');
writeFileSync(script, `#!/bin/sh\nsetsid sh -c 'while :; do sleep 0.2; done; : ${marker}' &\necho started > started.txt\nwhile :; do sleep 0.2; done\n: ${marker}\n`);
chmodSync(script, 0o755);
const common = ['bench', 'run', 'leave-cover', '--tasks-dir', FIXTURE_TASKS, '--scenario', join(root, 'scenario'), '--runs-dir', join(root, 'runs'), '--agent-files', script, '--agent-name', 'sleeper'];

/** The one attempt folder under a label of runs/. */
function attemptDir(label: string): string {
  return join(root, 'runs', label, 'leave-cover', 'seed-0', 'rep-1');
}

describe('erp bench run interrupted by Ctrl-C in the middle of a turn', () => {
  let exit: { code: number | null; stderr: string };
  let label: string;
  beforeAll(async () => {
    // Once the agent's turn is under way, Ctrl-C (SIGINT) the runner.
    exit = await interruptWhen(erp, [...common, '--agent', `cmd:${script}`], () => {
      const labels = existsSync(join(root, 'runs')) ? readdirSync(join(root, 'runs')) : [];
      label = labels.find((l) => l.startsWith('sleeper~')) ?? '';
      return label !== '' && existsSync(join(attemptDir(label), 'workspace', 'started.txt'));
    });
  }, 90_000);

  it('ends the agent, escaped children included, and exits 130', () => {
    expect(exit.code).toBe(130);
    expect(processesWith(marker)).toEqual([]);
  });

  it('leaves the attempt incomplete, saying why', () => {
    const result = JSON.parse(readFileSync(join(attemptDir(label), 'result.json'), 'utf8'));
    expect(result).toMatchObject({ verdict: 'incomplete', status: 'incomplete', passed: false, why: 'The run was interrupted by SIGINT during turn 1; nothing was graded.' });
    expect(JSON.parse(readFileSync(join(attemptDir(label), 'attempt.json'), 'utf8')).incomplete).toBe(result.why);
  });

  it('is graded again as incomplete (exit 1), and left out of the report\'s rates', () => {
    const grade = spawnSync(process.execPath, [erp, 'bench', 'grade', attemptDir(label)], { encoding: 'utf8' });
    expect(grade.status).toBe(1);
    expect(grade.stdout).toContain('INCOMPLETE');
    const [group] = campaignMetrics(collectResults([label], join(root, 'runs')));
    expect(group).toMatchObject({ attempts: 0, incomplete: 1, pass_at_1: 0 });
  });
});

describe('erp bench run of a cmd: agent where bubblewrap is not installed', () => {
  it('refuses in one sentence that says how to install it', () => {
    const res = spawnSync(process.execPath, [erp, ...common, '--agent', 'cmd:true'], { encoding: 'utf8', env: { ...process.env, PATH: join(root, 'no-bin') } });
    expect(res.status).toBe(1);
    // oclif wraps the message over lines prefixed with ›.
    expect(res.stderr.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ')).toContain(INSTALL_BWRAP);
  });
});

describe('a cmd: agent run with --no-sandbox', () => {
  it('is recorded unsandboxed, in a cell of its own', async () => {
    const out = await benchRun({ task: 'leave-cover', tasksDir: FIXTURE_TASKS, agent: 'cmd:true', agentName: 'true', sandbox: false, runsDir: join(root, 'bare'), scenarioDir: join(root, 'scenario-ts'), timeout: 5 });
    const [attempt] = out.attempts;
    expect(attempt!.result).toMatchObject({ condition: 'unsandboxed', cell: 'true~cli+unsandboxed', verdict: 'fail' });
    expect(out.label).toBe(attempt!.result.cell);
    expect(JSON.parse(readFileSync(join(attempt!.dir, 'attempt.json'), 'utf8')).isolation).toBe('none');
  }, 60_000);
});
