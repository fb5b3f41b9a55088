import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { exportHarbor, taskContentHash, type HarborExport } from '../../src/export/harbor/export';
import type { ServiceConfig } from '../../src/export/harbor/layout';
import { taskConfigProblems } from '../../src/export/harbor/schema';
import { collectResults } from '../../src/runner/metrics';
import { reportFrom } from '../../src/runner/report/build';
import { trialAttemptFolder } from '../../src/runner/report/harbor-trials';
import { attemptView } from '../../src/runner/viewer/attempt-view';
import { readToml } from '../support/toml-read';

/**
 * `erp export harbor`, without docker: the exported files (task.toml against Harbor's TaskConfig,
 * steps against their folders, what `main` holds), then each task played through the programs the
 * containers run, as Harbor would run them: the ERP service, the oracle's solve step or nothing
 * (the nop agent), the collect hook closing each day, the verifier.
 */

const TASKS = ['payment-run', 'ap-invoice-backlog'];
/** Played without docker: payment-run here; both with BB_HARBOR_PLAY_ALL=1, as npm run test:harbor runs it (ap-invoice-backlog's three days take 22 s). */
const PLAYED = process.env.BB_HARBOR_PLAY_ALL === '1' ? TASKS : ['payment-run'];
const played = new Map<string, Played>();
const root = mkdtempSync(join(tmpdir(), 'bb-erp-harbor-'));
const out = join(root, 'dataset');
let exported: HarborExport;

beforeAll(async () => {
  for (const task of TASKS) {
    exported = await exportHarbor({ task, seeds: [0], out, scenariosDir: join(root, 'scenarios') });
  }
}, 600_000);

function files(dir: string): string[] {
  const all: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else all.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return all.sort();
}

const taskDir = (task: string) => join(out, `${task}-seed-0`);
const executable = (file: string) => (statSync(file).mode & 0o111) === 0o111;

describe('an exported dataset folder', () => {
  it('has a task folder per task and seed, and a dataset.toml listing each with its content digest', () => {
    expect(readdirSync(out).sort()).toEqual(['ap-invoice-backlog-seed-0', 'dataset.toml', 'payment-run-seed-0']);
    const dataset = readToml(readFileSync(join(out, 'dataset.toml'), 'utf8')) as { dataset: { name: string }; tasks: { name: string; digest: string }[] };
    expect(dataset.dataset.name).toBe('bb-erp/dataset');
    expect(dataset.tasks).toEqual(TASKS.map((t) => ({ name: `bb-erp/${t}-seed-0`, digest: `sha256:${taskContentHash(taskDir(t))}` })).sort((a, b) => a.name.localeCompare(b.name)));
  });

  it('refuses to write over a task folder without --force', async () => {
    await expect(exportHarbor({ task: 'payment-run', seeds: [0], out, scenariosDir: join(root, 'scenarios') })).rejects.toThrow(/exists: give --force/);
  });
});

describe.each(TASKS)('the exported %s', (task) => {
  const dir = () => taskDir(task);
  const config = () => readToml(readFileSync(join(dir(), 'task.toml'), 'utf8')) as {
    schema_version: string; multi_step_reward_strategy: string; task: { name: string };
    verifier: { environment_mode: string }; environment: Record<string, unknown>;
    steps: { name: string; min_reward?: number; artifacts: { source: string; service?: string }[]; verifier: { env: Record<string, string>; collect: { service: string; command: string }[] } }[];
  };

  it("has a task.toml that parses and matches Harbor 0.22.0's TaskConfig (schema 1.4, separate verifier, the final step's reward)", () => {
    const c = config();
    expect(taskConfigProblems(c)).toEqual([]);
    expect(c.schema_version).toBe('1.4');
    expect(c.task.name).toBe(`bb-erp/${task}-seed-0`);
    expect(c.verifier.environment_mode).toBe('separate');
    expect(c.multi_step_reward_strategy).toBe('final');
    // A workdir in [environment] would be copied into the verifier's environment, which lacks it.
    expect(c.environment.workdir).toBeUndefined();
  });

  it('has one step per turn, each with its folder: the prompt with the preamble, an executable solve.sh', () => {
    const c = config();
    expect(c.steps.map((s) => s.name)).toEqual(readdirSync(join(dir(), 'steps')).sort());
    c.steps.forEach((step, k) => {
      const prompt = readFileSync(join(dir(), 'steps', step.name, 'instruction.md'), 'utf8');
      expect(prompt).toMatch(/^You are signed in to the ERP of .+ as .+\(.+, user [a-z.]+\)\./);
      expect(prompt).toContain('The company handbook is in handbook/ in this folder.');
      expect(executable(join(dir(), 'steps', step.name, 'solution', 'solve.sh'))).toBe(true);
      expect(step.verifier.env).toEqual({ ERP_TURN: String(k + 1), ERP_TURNS: String(c.steps.length) });
      expect(step.verifier.collect).toEqual([expect.objectContaining({ service: 'erp', command: expect.stringMatching(new RegExp(`close-day ${k + 1}$`)) })]);
      const last = k === c.steps.length - 1;
      // A day that did not close stops the trial; the last step's reward is the verdict.
      expect(step.min_reward).toBe(last ? undefined : 1);
      expect(step.artifacts).toEqual(last ? [{ source: '/evidence', service: 'erp' }, { source: '/workspace' }] : [{ source: '/evidence', service: 'erp' }]);
    });
    expect(executable(join(dir(), 'tests', 'test.sh'))).toBe(true);
  });

  it("gives main the erp client, the handbook and the agent's token, and nothing of the scenario, its reference or another token", () => {
    const env = join(dir(), 'environment');
    const dockerfile = readFileSync(join(env, 'Dockerfile'), 'utf8');
    const copied = [...dockerfile.matchAll(/^COPY (\S+) /gm)].map((m) => m[1]);
    expect(copied).toEqual(['main/erp/', 'main/workspace/']);
    const mainFiles = files(join(env, 'main'));
    expect(mainFiles.filter((f) => !f.startsWith('workspace/handbook/'))).toEqual(['erp/erp-client.cjs', 'erp/erp-mcp.cjs', 'erp/package.json']);
    expect(mainFiles.filter((f) => /\.db$|reference|truth|world|service\.json|scenario/.test(f))).toEqual([]);
    const service = JSON.parse(readFileSync(join(env, 'erp', 'service.json'), 'utf8')) as ServiceConfig;
    expect(dockerfile).toContain(`ERP_TOKEN=${service.agent_token}`);
    // The only secret written anywhere is the agent's own: every other token is drawn when the service starts.
    const secrets = new Set<string>();
    for (const f of files(dir())) {
      if (f.endsWith('.node') || f.endsWith('.db')) continue;
      for (const m of readFileSync(join(dir(), f), 'latin1').matchAll(/erp_[0-9a-f]{40}/g)) secrets.add(m[0]);
    }
    expect([...secrets]).toEqual([service.agent_token]);
    // The ERP service holds the scenario without its reference; the verifier holds the reference.
    expect(files(join(env, 'erp')).filter((f) => /reference|truth/.test(f))).toEqual([]);
    expect(existsSync(join(dir(), 'tests', 'scenario', 'reference', 'events.jsonl'))).toBe(true);
    expect(readFileSync(join(env, '.dockerignore'), 'utf8')).toBe('erp/\n');
  });

  it('exposes only the agent port of the ERP service to the compose network', () => {
    const compose = readFileSync(join(dir(), 'environment', 'docker-compose.yaml'), 'utf8');
    expect([...compose.matchAll(/- "(\d+)"/g)].map((m) => m[1])).toEqual(['8080']);
    expect(compose).not.toMatch(/ports:/);
  });

  it('builds every image on the base image given at export, overridable as a build argument', () => {
    for (const f of ['environment/Dockerfile', 'environment/erp/Dockerfile', 'tests/Dockerfile']) {
      expect(readFileSync(join(dir(), f), 'utf8')).toMatch(/^ARG BASE_IMAGE=node:20-bookworm-slim\nFROM \$\{BASE_IMAGE\}$/m);
    }
  });
});

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Played {
  rewards: Record<string, number>[];
  result: { verdict: string; final_hash: string };
  /** The verifier's folder of each step, as Harbor keeps it in the trial's steps/<step>/verifier/. */
  verifierDirs: string[];
  /** What the last step's artifacts bring: the ERP service's evidence and the agent's workspace. */
  evidence: string;
  workspace: string;
}

/** One trial as Harbor runs it, each program as its container runs it, on this machine's folders. */
async function play(dir: string, agent: 'oracle' | 'nop'): Promise<Played> {
  const run = mkdtempSync(join(root, `${agent}-`));
  const workspace = join(run, 'workspace');
  cpSync(join(dir, 'environment', 'main', 'workspace'), workspace, { recursive: true });
  const token = /ERP_TOKEN=(erp_[0-9a-f]+)/.exec(readFileSync(join(dir, 'environment', 'Dockerfile'), 'utf8'))![1]!;
  const [port, hookPort] = [await freePort(), await freePort()];
  const service = join(dir, 'environment', 'erp', 'lib', 'bundle', 'erp-service.cjs');
  const serving: ChildProcess = spawn(process.execPath, [service, 'serve', join(dir, 'environment', 'erp'), '--attempt', join(run, 'attempt'), '--run', join(run, 'run'), '--evidence', join(run, 'evidence'), '--port', String(port), '--hook-port', String(hookPort)], { stdio: 'ignore' });
  try {
    for (let i = 0; i < 600 && !existsSync(join(run, 'run', 'ready')); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(join(run, 'run', 'ready'))).toBe(true);
    const steps = readdirSync(join(dir, 'steps')).sort();
    const rewards: Record<string, number>[] = [];
    const verifierDirs: string[] = [];
    for (const [k, step] of steps.entries()) {
      if (agent === 'oracle') {
        const solution = join(dir, 'steps', step, 'solution');
        const solved = spawnSync(process.execPath, [join(solution, 'oracle.cjs'), join(solution, 'turn.json')], { cwd: workspace, env: { PATH: process.env.PATH, ERP_URL: `http://127.0.0.1:${port}`, ERP_TOKEN: token }, encoding: 'utf8' });
        expect(solved.stderr).toBe('');
        expect(solved.status).toBe(0);
      }
      const closed = spawnSync(process.execPath, [service, 'close-day', String(k + 1), '--run', join(run, 'run')], { encoding: 'utf8' });
      expect(closed.status).toBe(0);
      const verifierOut = join(run, 'verifier', step);
      const verified = spawnSync(process.execPath, [join(dir, 'tests', 'lib', 'bundle', 'verifier.cjs'), '--tests', join(dir, 'tests'), '--evidence', join(run, 'evidence'), '--workspace', workspace, '--out', verifierOut, '--scratch', join(run, 'graded')], {
        env: { PATH: process.env.PATH, ERP_TURN: String(k + 1), ERP_TURNS: String(steps.length) }, encoding: 'utf8',
      });
      expect(verified.status).toBe(0);
      rewards.push(JSON.parse(readFileSync(join(verifierOut, 'reward.json'), 'utf8')) as Record<string, number>);
      verifierDirs.push(verifierOut);
    }
    const result = JSON.parse(readFileSync(join(run, 'verifier', steps[steps.length - 1]!, 'result.json'), 'utf8')) as Played['result'];
    return { rewards, result, verifierDirs, evidence: join(run, 'evidence'), workspace };
  } finally {
    serving.kill('SIGTERM');
  }
}

describe.each(PLAYED)('the exported %s, played through its containers\' programs', (task) => {
  const oracleHash = () => /^oracle_final_hash = "([0-9a-f]+)"$/m.exec(readFileSync(join(taskDir(task), 'task.toml'), 'utf8'))![1];

  it("passes with the oracle's solution (reward 1 after every step) and ends in the local runner's oracle's final state", async () => {
    const oracle = await play(taskDir(task), 'oracle');
    played.set(task, oracle);
    const { rewards, result } = oracle;
    expect(rewards.map((r) => r.reward)).toEqual(rewards.map(() => 1));
    expect(rewards[rewards.length - 1]).toEqual(expect.objectContaining({ check_rate: 1, breach: 0 }));
    expect(result.verdict).toBe('pass');
    expect(result.final_hash).toBe(oracleHash());
  }, 300_000);

  it('fails when the agent does nothing: the days close (reward 1) and the last step grades 0', async () => {
    const { rewards, result } = await play(taskDir(task), 'nop');
    expect(rewards.slice(0, -1).map((r) => r.reward)).toEqual(rewards.slice(0, -1).map(() => 1));
    expect(rewards[rewards.length - 1]!.reward).toBe(0);
    expect(result.verdict).toBe('fail');
  }, 300_000);
});

/** A Harbor job folder as `harbor run` leaves it: a trial per played task, with the steps' verifier folders. */
function harborJob(trials: { task: string; played: Played; stopAfter?: number }[]): string {
  const job = join(root, 'jobs', '2026-12-06__21-00-00');
  mkdirSync(job, { recursive: true });
  writeFileSync(join(job, 'config.json'), '{}');
  writeFileSync(join(job, 'result.json'), JSON.stringify({ id: 'job', stats: {} }));
  trials.forEach((t, i) => {
    const trial = join(job, `${t.task}-seed-0__trial${i}`);
    const steps = readdirSync(join(taskDir(t.task), 'steps')).sort().slice(0, t.stopAfter);
    steps.forEach((step, k) => cpSync(t.played.verifierDirs[k]!, join(trial, 'steps', step, 'verifier'), { recursive: true }));
    if (t.stopAfter !== undefined) rmSync(join(trial, 'steps', steps[steps.length - 1]!, 'verifier', 'result.json'), { force: true });
    else {
      cpSync(t.played.evidence, join(trial, 'steps', steps[steps.length - 1]!, 'artifacts', 'evidence'), { recursive: true });
      cpSync(t.played.workspace, join(trial, 'steps', steps[steps.length - 1]!, 'artifacts', 'workspace'), { recursive: true });
    }
    writeFileSync(join(trial, 'config.json'), '{}');
    writeFileSync(join(trial, 'result.json'), JSON.stringify({
      task_name: `bb-erp/${t.task}-seed-0`, trial_name: `${t.task}-seed-0__trial${i}`,
      agent_info: { name: 'claude-code', version: '2.1.0', model_info: { name: 'claude-sonnet-4-5', provider: 'anthropic' } },
      step_results: steps.map((step, k) => ({
        step_name: step,
        agent_result: { n_input_tokens: 1000, n_cache_tokens: 0, n_output_tokens: 100, cost_usd: 0.01 },
        verifier_result: { rewards: { reward: t.stopAfter !== undefined && k === steps.length - 1 ? 0 : 1 } },
        agent_execution: { started_at: '2026-12-06T21:00:00Z', finished_at: '2026-12-06T21:01:30Z' },
      })),
    }));
  });
  return job;
}

describe('erp bench report over a Harbor job folder', () => {
  it('reads each trial of an exported task as an attempt: the verifier\'s verdict, Harbor\'s agent and model as the cell, its usage as reported', () => {
    const job = harborJob([{ task: 'payment-run', played: played.get('payment-run')! }, { task: 'payment-run', played: played.get('payment-run')!, stopAfter: 1 }]);
    const results = collectResults([job]);
    expect(results.map((r) => [r.task, r.seed, r.cell, r.label, r.rep, r.verdict])).toEqual([
      ['payment-run', 0, 'claude-code@claude-sonnet-4-5~cli', '2026-12-06__21-00-00', 1, 'pass'],
      ['payment-run', 0, 'claude-code@claude-sonnet-4-5~cli', '2026-12-06__21-00-00', 2, 'error'],
    ]);
    expect(results[0]!.reported_usage).toEqual({ model_calls: 0, tokens_in: 2000, tokens_out: 200, cost_usd: 0.02 });
    expect(results[0]!.usage).toBeUndefined();
    expect(results[0]!.turns.map((t) => t.duration_s)).toEqual([90, 90]);
    expect(results[1]!.error).toMatch(/stopped after step turn-1/);
    const { report } = reportFrom([job], undefined);
    expect(report.attempts).toBe(2);
  });

  it('opens a graded trial in the attempt viewer: its calls, checks and projections beside the reference', () => {
    const job = join(root, 'jobs', '2026-12-06__21-00-00');
    const trial = readdirSync(job).find((d) => d.endsWith('__trial0'))!;
    const view = attemptView(trialAttemptFolder(join(job, trial), join(root, 'view'), { scenariosDir: join(root, 'scenarios') }));
    expect(view.result.verdict).toBe('pass');
    expect(view.turns.map((t) => t.prompt)).toEqual(readdirSync(join(taskDir('payment-run'), 'steps')).sort().map((s) => readFileSync(join(taskDir('payment-run'), 'steps', s, 'instruction.md'), 'utf8')));
    expect(view.calls.filter((c) => c.turn !== null).length).toBeGreaterThan(0);
    expect(view.projections.every((p) => p.agent !== null && p.reference !== null)).toBe(true);
  });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));
