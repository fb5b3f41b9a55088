import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { constants } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../package-info';
import { PROGRAM_FILES, shellQuote, writeErpWrapper, type AgentPrograms, type LaunchedTurn, type SandboxEnforcement, type TurnExit, type TurnLauncher, type TurnSpec } from './launcher';
import { agentHostIds, chownTree, sweepTree, type HostIds } from './sandbox/agent-user';
import { reachableByOthers, Stage } from './sandbox/stage';
import { boundedCopy, type OutputCount } from './sandbox/bounded-output';
import { planCgroups, TurnCgroup, type CgroupPlan } from './sandbox/cgroup';
import { diskUsage } from './sandbox/disk-usage';
import { startEgressProxy, type Destination } from './sandbox/egress-proxy';
import { limitSentence, type LimitName, type TurnLimits } from './sandbox/limits';

/** Where the turn's files appear inside the sandbox. */
export const SANDBOX = {
  workspace: '/workspace',
  home: '/home/agent',
  prompt: '/turn/prompt.md',
  /** The erp wrapper, the client bundle, the MCP server beside it, the reference LLM agent and the node that runs them, read-only. */
  tools: '/opt/erp',
  /** The turn's unix sockets: the agent port's and the egress proxy's. */
  net: '/run/erp',
  /** The loopback ports inside the turn's network namespace, forwarded to those sockets. */
  agentPort: 41870,
  proxyPort: 3128,
} as const;

/** The sandbox's user inside; on the host it is agentHostIds(), never root. */
const SANDBOX_UID = 1000;

/** The one sentence `bench run` answers with when a cmd: agent cannot be sandboxed. */
export const INSTALL_BWRAP = 'A cmd: agent runs in a bubblewrap sandbox, and bwrap is not installed: install it (Debian and Ubuntu: apt-get install -y bubblewrap), or pass --no-sandbox to run the agent unsandboxed (recorded as such).';

/** Top-level links of a merged-/usr system (/bin → usr/bin); real folders are bound read-only instead. */
const ROOT_LINKS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

/**
 * The part of /etc a program needs to run, resolve names and check TLS certificates. Not /etc
 * whole: files the host keeps to root (shadow, keys) would be readable, since the sandbox's user
 * maps onto the runner's.
 */
const ETC = [
  'alternatives', 'ca-certificates', 'ca-certificates.conf', 'gai.conf', 'host.conf', 'hosts', 'ld.so.cache', 'ld.so.conf',
  'ld.so.conf.d', 'localtime', 'mime.types', 'nsswitch.conf', 'os-release', 'protocols', 'resolv.conf', 'services', 'ssl',
];

let probed: string | null | undefined;

/**
 * Why bubblewrap cannot sandbox a turn here (not installed, or namespaces refused), or null when
 * it can. Tried once per process with the flags a turn uses.
 */
export function bwrapProblem(): string | null {
  if (probed !== undefined) return probed;
  const ids = agentHostIds();
  const res = spawnSync('bwrap', [...rootArgs(), '--unshare-pid', '--unshare-net', '--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID), '--cap-drop', 'ALL', '--', '/bin/true'], { encoding: 'utf8', uid: ids.uid, gid: ids.gid });
  if (res.error) probed = INSTALL_BWRAP;
  else if (res.status !== 0) probed = `bwrap is installed but cannot build a sandbox here as the unprivileged user ${ids.uid} (${(res.stderr || `exit ${res.status}`).trim()}): user namespaces must be open to unprivileged users (sysctl user.max_user_namespaces above 0, and kernel.unprivileged_userns_clone=1 where the kernel has it); or pass --no-sandbox to run the agent unsandboxed (recorded as such).`;
  else probed = null;
  return probed;
}

/** The read-only system part of the root: /usr, the merged-/usr links, a minimal /etc. */
export function rootArgs(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const name of ROOT_LINKS) {
    const path = `/${name}`;
    if (!existsSync(path)) continue;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (stat.isDirectory()) args.push('--ro-bind', path, path);
  }
  for (const name of ETC) args.push('--ro-bind-try', `/etc/${name}`, `/etc/${name}`);
  return args;
}

/** The signal a shell-style exit code above 128 stands for. */
function exitOf(code: number | null, signal: NodeJS.Signals | null): TurnExit {
  if (code !== null && code > 128) {
    const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
    if (name) return { exit_code: null, signal: name };
  }
  return { exit_code: code, signal };
}


/** How often a running turn's cgroup and disk use are read. */
const POLL_MS = 200;

/** The in-sandbox program that opens the forwarders and runs the command (src/runner/sandbox/init.ts, built). */
function initProgram(): string {
  const file = join(packageRoot(), 'dist', 'src', 'runner', 'sandbox', 'init.js');
  if (!existsSync(file)) throw new Error(`The sandbox's first program ${file} is missing: run npm run build.`);
  return file;
}

export interface BwrapOptions {
  limits: TurnLimits;
  /** The `host:port`s the turn may reach through the egress proxy (the llm agent's model endpoint). */
  egress?: readonly Destination[];
}

/** How each limit is held on this machine, for condition.json. */
function enforcementOf(plan: CgroupPlan, prlimit: boolean): Record<LimitName, string> {
  const cg = `cgroup ${plan.version}`;
  return {
    workspace: `polled every ${POLL_MS} ms${prlimit ? ', one file at most by RLIMIT_FSIZE' : ''}; /tmp a tmpfs of the same size`,
    stdout: 'a bounded writer', stderr: 'a bounded writer',
    processes: plan.pids ? cg : prlimit ? 'RLIMIT_NPROC of the agent\'s host user' : 'not enforced: no pids cgroup and no prlimit',
    memory: plan.memory ? cg : 'not enforced: no memory cgroup',
    cpu: plan.cpu ? `${cg}, polled every ${POLL_MS} ms` : prlimit ? 'RLIMIT_CPU per process' : 'not enforced: no cgroup and no prlimit',
  };
}

/**
 * The bubblewrap launcher: every turn in new PID, mount, IPC, UTS, network and user namespaces,
 * started as an unprivileged host user (agentHostIds: never root outside) that is uid 1000
 * inside, with no capabilities, on a read-only minimal root (/usr, a few files of /etc, the node
 * binary and the client bundle), a private /tmp, the workspace as the only writable place that
 * outlives the turn and a fresh HOME, both handed to that user for the turn and swept after it.
 * The network namespace has only loopback: the agent port and the egress proxy are unix sockets
 * bound in and forwarded to loopback ports by the sandbox's first program. Arguments go through a
 * pipe (`--args`) and host paths are bound from open file handles, so neither the sandbox's
 * command line nor the agent's user needs to see them. Ending the namespace's first process ends
 * every process in it, `setsid` children included. Limits (TurnLimits) are held by a cgroup where
 * the machine lets the runner make one, by rlimits and polling otherwise.
 */
export function bwrapLauncher(supportDir: string, node: string, programs: AgentPrograms, options: BwrapOptions): TurnLauncher {
  const bin = join(supportDir, 'bin');
  writeErpWrapper(bin, `${SANDBOX.tools}/node`, `${SANDBOX.tools}/${PROGRAM_FILES.client}`);
  mkdirSync(supportDir, { recursive: true });
  writeFileSync(join(supportDir, 'passwd'), `root:x:0:0:root:/root:/usr/sbin/nologin\nagent:x:${SANDBOX_UID}:${SANDBOX_UID}:agent:${SANDBOX.home}:/bin/sh\n`);
  writeFileSync(join(supportDir, 'group'), `root:x:0:\nagent:x:${SANDBOX_UID}:\n`);
  const ids = agentHostIds();
  const runner: HostIds = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const limits = options.limits;
  const egress = [...(options.egress ?? [])];
  const plan = planCgroups();
  const prlimit = existsSync('/usr/bin/prlimit');
  const stage = new Stage(ids.dedicated ? reachableByOthers : () => true);
  const agentSocket = join(stage.dir, 'agent.sock');
  const egressSocket = join(stage.dir, 'egress.sock');
  let proxy: Server | undefined;
  const files: Record<string, string> = {
    [`${SANDBOX.tools}/bin`]: bin, '/etc/passwd': join(supportDir, 'passwd'), '/etc/group': join(supportDir, 'group'),
    [`${SANDBOX.tools}/node`]: node, [`${SANDBOX.tools}/init.js`]: initProgram(),
    ...Object.fromEntries((Object.keys(PROGRAM_FILES) as (keyof AgentPrograms)[]).filter((k) => existsSync(programs[k])).map((k) => [`${SANDBOX.tools}/${PROGRAM_FILES[k]}`, programs[k]])),
  };
  const enforced: SandboxEnforcement = { host_uid: ids.uid, dedicated_user: ids.dedicated, network: 'own', egress, limits, enforcement: enforcementOf(plan, prlimit) };
  const admit = (socket: string) => {
    if (!existsSync(socket)) return;
    if (ids.dedicated) chownSync(socket, ids.uid, ids.gid);
    chmodSync(socket, 0o600);
  };

  const launch = (turn: TurnSpec): LaunchedTurn => {
    mkdirSync(turn.home, { recursive: true });
    const workspace = stage.lend(turn.workspace, 'workspace');
    const home = stage.lend(turn.home, 'home');
    if (ids.dedicated) {
      chownTree(workspace, ids);
      chownTree(home, ids);
    }
    admit(agentSocket);
    admit(egressSocket);
    const env: Record<string, string> = {
      ...turn.env, HOME: SANDBOX.home, PATH: `${SANDBOX.tools}/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin`,
      ERP_URL: `http://127.0.0.1:${SANDBOX.agentPort}`,
      ...(egress.length > 0 ? { HTTPS_PROXY: `http://127.0.0.1:${SANDBOX.proxyPort}`, https_proxy: `http://127.0.0.1:${SANDBOX.proxyPort}`, HTTP_PROXY: `http://127.0.0.1:${SANDBOX.proxyPort}`, http_proxy: `http://127.0.0.1:${SANDBOX.proxyPort}` } : {}),
    };
    const bind = (host: string, inside: string): string[] => ['--ro-bind', stage.source(host), inside];
    let cgroup: TurnCgroup | undefined;
    try {
      cgroup = TurnCgroup.create(plan, limits);
      const args = [
        ...rootArgs(),
        '--proc', '/proc', '--dev', '/dev', '--size', String(limits.workspace_bytes), '--tmpfs', '/tmp',
        ...Object.entries(files).flatMap(([inside, host]) => bind(host, inside)),
        // A node outside /usr is at its own path too, for commands that name it (a harness run by node).
        ...(node.startsWith('/usr/') ? [] : bind(node, node)),
        // A harness's own files, at their own paths (after /tmp, so one kept under /tmp shows through).
        ...turn.agentFiles.flatMap((f) => bind(f, f)),
        '--ro-bind', stage.dir, SANDBOX.net,
        '--bind', workspace, SANDBOX.workspace,
        '--bind', home, SANDBOX.home,
        ...bind(turn.promptFile, SANDBOX.prompt),
        // The root itself (a tmpfs holding the mount points) is read-only too, once everything is mounted.
        '--remount-ro', '/',
        '--chdir', SANDBOX.workspace,
        '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--hostname', 'agent',
        '--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID), '--cap-drop', 'ALL',
        '--die-with-parent', '--new-session', '--clearenv',
        ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]),
        '--info-fd', '4',
        // The namespace waits until the runner has put it into the turn's cgroup.
        ...(cgroup ? ['--block-fd', '5'] : []),
      ];
      const forwards = [{ port: SANDBOX.agentPort, socket: `${SANDBOX.net}/agent.sock` }, ...(egress.length > 0 ? [{ port: SANDBOX.proxyPort, socket: `${SANDBOX.net}/egress.sock` }] : [])];
      const command = [`${SANDBOX.tools}/node`, `${SANDBOX.tools}/init.js`, JSON.stringify(forwards), '/bin/sh', '-c', `${turn.command} "$@"`, 'agent', SANDBOX.prompt];
      const rlimits = prlimit ? ['--core=0', `--fsize=${limits.workspace_bytes}`, `--cpu=${limits.cpu_seconds}`, ...(plan.pids ? [] : [`--nproc=${limits.processes}`])] : [];
      const [file, argv] = prlimit ? ['/usr/bin/prlimit', [...rlimits, '--', 'bwrap', '--args', '3', '--', ...command]] : ['bwrap', ['--args', '3', '--', ...command]];
      const child = spawn(file, argv, { env: {}, detached: true, uid: ids.dedicated ? ids.uid : undefined, gid: ids.dedicated ? ids.gid : undefined, stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'] });
      return follow(child, args, cgroup, turn, { workspace, home });
    } catch (err) {
      cgroup?.remove();
      stage.giveBack();
      throw err;
    }
  };

  /** Follows a started turn: its limits while it runs; the sweep, the cgroup's removal and the folders' return once it has ended. */
  const follow = (child: ChildProcess, args: string[], cgroup: TurnCgroup | undefined, turn: TurnSpec, lent: { workspace: string; home: string }): LaunchedTurn => {
    const argPipe = child.stdio[3] as NodeJS.WritableStream;
    argPipe.on('error', () => undefined);
    argPipe.end(args.map((a) => a + '\0').join(''));
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(turn.prompt);
    const blockPipe = (child.stdio as unknown as NodeJS.WritableStream[])[5]!;
    blockPipe.on('error', () => undefined);
    if (!cgroup) blockPipe.end();
    let reached: LimitName | undefined;
    let running = true;
    // The namespace's first process, as the host sees it: ending it ends the sandbox.
    let initPid: number | undefined;
    // Signals go only while bwrap runs: it outlives the namespace, so its pids are not reused yet.
    const send = (pid: number, signal: NodeJS.Signals) => {
      if (!running) return;
      try {
        process.kill(pid, signal);
      } catch {
        /* already gone */
      }
    };
    const kill = () => {
      if (initPid !== undefined) send(initPid, 'SIGKILL');
      send(child.pid!, 'SIGKILL');
    };
    const reach = (name: LimitName) => {
      if (reached) return;
      reached = name;
      kill();
    };
    let info = '';
    const infoPipe = child.stdio[4] as NodeJS.ReadableStream;
    infoPipe.on('data', (d: Buffer) => {
      info += d.toString();
      const m = /"child-pid"\s*:\s*(\d+)/.exec(info);
      if (!m || initPid !== undefined) return;
      initPid = Number(m[1]);
      if (cgroup) {
        try {
          cgroup.enter(child.pid!);
          cgroup.enter(initPid);
          blockPipe.end('go');
        } catch {
          kill();
        }
      }
    });
    infoPipe.on('error', () => undefined);
    const outputs = Promise.all([
      boundedCopy(child.stdout!, turn.stdoutFile, limits.output_bytes, () => reach('stdout')),
      boundedCopy(child.stderr!, turn.stderrFile, limits.output_bytes, () => reach('stderr')),
    ]);
    let measuring = false;
    const poll = setInterval(() => {
      const hit = cgroup?.reached();
      if (hit) return reach(hit);
      if (measuring) return;
      measuring = true;
      void diskUsage([lent.workspace, lent.home]).then((bytes) => {
        measuring = false;
        if (bytes >= limits.workspace_bytes) reach('workspace');
      });
    }, POLL_MS);
    const exited = new Promise<TurnExit>((resolve, reject) => {
      child.once('error', (err) => {
        clearInterval(poll);
        cgroup?.remove();
        stage.giveBack();
        reject(err);
      });
      child.once('exit', (code, signal) => {
        running = false;
        clearInterval(poll);
        void outputs.then(async ([stdout, stderr]: OutputCount[]) => {
          const late = cgroup?.reached();
          cgroup?.remove();
          if (!reached && late) reached = late;
          if (!reached && (await diskUsage([lent.workspace, lent.home])) >= limits.workspace_bytes) reached = 'workspace';
          const workspace = sweepTree(lent.workspace, runner);
          const home = sweepTree(lent.home, runner);
          stage.giveBack();
          const privileged = [...workspace.privileged.map((p) => `workspace/${p}`), ...home.privileged.map((p) => `home/${p}`)];
          const removed = [...workspace.removed.map((p) => `workspace/${p}`), ...home.removed.map((p) => `home/${p}`)];
          resolve({
            ...exitOf(code, signal),
            ...(reached ? { limit: reached, limit_detail: limitSentence(reached, limits) } : {}),
            output: { stdout: stdout!, stderr: stderr! },
            ...(privileged.length + removed.length > 0 ? { swept: { privileged, removed } } : {}),
          });
        }).catch(reject);
      });
    });
    return {
      exited,
      // The command shares the group of the namespace's first process, which ignores SIGTERM.
      terminate: () => (initPid === undefined ? send(child.pid!, 'SIGKILL') : send(-initPid, 'SIGTERM')),
      kill,
    };
  };

  return {
    isolation: 'bwrap',
    programCommand: (name) => `${shellQuote(`${SANDBOX.tools}/node`)} ${shellQuote(`${SANDBOX.tools}/${PROGRAM_FILES[name]}`)}`,
    agentPort: { socket: agentSocket, url: `http://127.0.0.1:${SANDBOX.agentPort}` },
    enforced,
    open: async () => {
      if (egress.length > 0 && !proxy) proxy = await startEgressProxy(egressSocket, egress, { destinations: [`127.0.0.1:${SANDBOX.agentPort}`, `localhost:${SANDBOX.agentPort}`], socket: agentSocket });
    },
    close: async () => {
      if (proxy) await new Promise<void>((r) => proxy!.close(() => r()));
      proxy = undefined;
      stage.remove();
    },
    launch,
  };
}
