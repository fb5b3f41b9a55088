import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapLauncher, bwrapProblem } from '../src/runner/bwrap';
import { agentPrograms } from '../src/runner/agent-launch';
import { bareLauncher, type TurnLauncher } from '../src/runner/launcher';
import { DEFAULT_LIMITS } from '../src/runner/sandbox/limits';
import { percentile, printFigures, wantsJson, type Figure } from './figures';

const REPS = Number(process.env.BENCH_SANDBOX_REPS ?? 40);

async function times(n: number, once: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await once();
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

function figures(name: string, sorted: number[], note?: string): Figure[] {
  return [
    { name: `${name}.p50`, value: percentile(sorted, 0.5), unit: 'ms', note },
    { name: `${name}.p90`, value: percentile(sorted, 0.9), unit: 'ms' },
  ];
}

/**
 * What a turn's sandbox costs: `true` launched as a turn is, in the bubblewrap sandbox (namespaces,
 * binds, the allow-listed environment) from spawn to exit, beside the same turn launched bare
 * (`--no-sandbox`: /bin/sh in a process group). The difference is paid once per turn, not per request.
 */
export async function benchSandbox(): Promise<Figure[]> {
  const problem = bwrapProblem();
  if (problem) throw new Error(problem);
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-bench-sandbox-'));
  try {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    const promptFile = join(root, 'prompt.md');
    writeFileSync(promptFile, 'prompt\n');
    const launcher = bwrapLauncher(join(root, 'sandbox'), process.execPath, agentPrograms(), { limits: DEFAULT_LIMITS });
    let n = 0;
    const turnOf = (launcher: TurnLauncher) => async () => {
      const home = join(root, `home-${n++}`);
      const turn = launcher.launch({ command: 'true', workspace, home, promptFile, prompt: 'prompt\n', env: { ERP_URL: 'http://127.0.0.1:9', ERP_TOKEN: 'x' }, agentFiles: [], stdoutFile: join(root, 'out'), stderrFile: join(root, 'err') });
      const exit = await turn.exited;
      if (exit.exit_code !== 0) throw new Error(`${launcher.isolation}: true exited ${exit.exit_code ?? exit.signal}`);
    };
    const sandboxed = await times(REPS, turnOf(bwrapLauncher(join(root, 'sandbox'), process.execPath, agentPrograms(), { limits: DEFAULT_LIMITS })));
    const bare = await times(REPS, turnOf(bareLauncher(join(root, 'bare'), process.execPath, agentPrograms())));
    const overhead = percentile(sandboxed, 0.5) - percentile(bare, 0.5);
    return [
      ...figures('sandbox.turn_true_bwrap', sandboxed, `${REPS} turns`),
      ...figures('sandbox.turn_true_bare', bare, 'the same turn unsandboxed: /bin/sh in a process group'),
      { name: 'sandbox.overhead_p50', value: overhead, unit: 'ms', note: 'paid once per turn' },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchSandbox().then((f) => printFigures('sandbox: what a turn\'s sandbox costs', f, wantsJson()), (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
}
