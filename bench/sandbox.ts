import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapLauncher, bwrapProblem, rootArgs, SANDBOX } from '../src/runner/bwrap';
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
 * The sandbox as it was before turns had their own network namespace, user and limits: bwrap
 * started by the runner's user (root here), the host's network, no cgroup, no forwarder, no sweep.
 * Kept here only to measure what the present sandbox adds to it.
 */
function previousSandboxTurn(workspace: string, home: string, command: string): Promise<void> {
  const args = [
    ...rootArgs(), '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--ro-bind', process.execPath, `${SANDBOX.tools}/node`,
    '--bind', workspace, SANDBOX.workspace, '--bind', home, SANDBOX.home, '--remount-ro', '/', '--chdir', SANDBOX.workspace,
    '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--hostname', 'agent', '--unshare-user', '--uid', '1000', '--gid', '1000', '--cap-drop', 'ALL',
    '--die-with-parent', '--new-session', '--clearenv', '--setenv', 'PATH', '/usr/bin:/bin', '--', '/bin/sh', '-c', command,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('bwrap', args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the previous sandbox: ${command} exited ${code}`))));
  });
}

/**
 * What a turn's sandbox costs, spawn to exit: `true` launched as a turn is, bare (`--no-sandbox`:
 * /bin/sh in a process group), in the previous sandbox (namespaces and binds, the host's network,
 * the runner's user) and in the present one (its own network namespace with the agent port
 * forwarded in by the sandbox's node, the dedicated user, the turn's cgroup, the sweep); then one
 * HTTP request to the agent port from inside the turn, bare against the server's loopback port
 * and sandboxed through the forwarder and the unix socket. Paid once per turn, not per request.
 */
export async function benchSandbox(): Promise<Figure[]> {
  const problem = bwrapProblem();
  if (problem) throw new Error(problem);
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-bench-sandbox-'));
  const launchers: TurnLauncher[] = [];
  const servers: Server[] = [];
  try {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    const promptFile = join(root, 'prompt.md');
    writeFileSync(promptFile, 'prompt\n');
    const sandboxed = bwrapLauncher(join(root, 'sandbox'), process.execPath, agentPrograms(), { limits: DEFAULT_LIMITS });
    const bare = bareLauncher(join(root, 'bare'), process.execPath, agentPrograms());
    launchers.push(sandboxed, bare);
    await sandboxed.open();
    // The agent port: on the sandbox's unix socket, and on a loopback port for the bare turn.
    const serve = (at: string | number) => new Promise<void>((resolve) => {
      const server = createServer((_req, res) => res.end('{"ok":true}'));
      servers.push(server);
      if (typeof at === 'string') server.listen(at, resolve);
      else server.listen(at, '127.0.0.1', resolve);
    });
    await serve(sandboxed.agentPort!.socket);
    await serve(0);
    const barePort = (servers[1]!.address() as { port: number }).port;
    let n = 0;
    const turnOf = (launcher: TurnLauncher, command: string, erpUrl: string) => async () => {
      const home = join(root, `home-${n++}`);
      const turn = launcher.launch({ command, workspace, home, promptFile, prompt: 'prompt\n', env: { ERP_URL: erpUrl, ERP_TOKEN: 'x' }, agentFiles: [], stdoutFile: join(root, 'out'), stderrFile: join(root, 'err') });
      const exit = await turn.exited;
      if (exit.exit_code !== 0) throw new Error(`${launcher.isolation}: ${command} exited ${exit.exit_code ?? exit.signal}`);
    };
    const request = `${sandboxed.programCommand('llm').split(' ')[0]} -e 'require("http").get(process.env.ERP_URL, (r) => { r.resume(); r.on("end", () => process.exit(r.statusCode === 200 ? 0 : 1)); }).on("error", () => process.exit(1))'`;
    const bareRequest = `${JSON.stringify(process.execPath)} -e 'require("http").get(process.env.ERP_URL, (r) => { r.resume(); r.on("end", () => process.exit(r.statusCode === 200 ? 0 : 1)); }).on("error", () => process.exit(1))'`;
    const previousHome = join(root, 'previous-home');
    mkdirSync(previousHome);
    const trueBare = await times(REPS, turnOf(bare, 'true', `http://127.0.0.1:${barePort}`));
    const truePrevious = await times(REPS, () => previousSandboxTurn(workspace, previousHome, 'true'));
    const trueNow = await times(REPS, turnOf(sandboxed, 'true', ''));
    const requestBare = await times(REPS, turnOf(bare, bareRequest, `http://127.0.0.1:${barePort}`));
    const requestNow = await times(REPS, turnOf(sandboxed, request, ''));
    return [
      ...figures('sandbox.turn_true_bare', trueBare, `${REPS} turns; /bin/sh in a process group (--no-sandbox)`),
      ...figures('sandbox.turn_true_previous', truePrevious, 'the sandbox before: namespaces and binds, the host network, the runner\'s user'),
      ...figures('sandbox.turn_true_bwrap', trueNow, 'own network namespace and forwarder, dedicated user, cgroup, sweep'),
      ...figures('sandbox.turn_request_bare', requestBare, 'node sending one request to the agent port, bare'),
      ...figures('sandbox.turn_request_bwrap', requestNow, 'the same through the forwarder and the unix socket'),
      { name: 'sandbox.overhead_p50', value: percentile(trueNow, 0.5) - percentile(trueBare, 0.5), unit: 'ms', note: 'present sandbox against bare, paid once per turn' },
      { name: 'sandbox.added_p50', value: percentile(trueNow, 0.5) - percentile(truePrevious, 0.5), unit: 'ms', note: 'present sandbox against the previous one: mostly the forwarder\'s node starting' },
    ];
  } finally {
    for (const s of servers) s.close();
    for (const l of launchers) await l.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchSandbox().then((f) => printFigures('sandbox: what a turn\'s sandbox costs', f, wantsJson()), (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
}
