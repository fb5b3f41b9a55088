import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { closeFds, outputFds, PROGRAM_FILES, shellQuote, writeErpWrapper, type AgentPrograms, type LaunchedTurn, type TurnExit, type TurnLauncher } from './launcher';

/** Where the turn's files appear inside the sandbox. */
export const SANDBOX = {
  workspace: '/workspace',
  home: '/home/agent',
  prompt: '/turn/prompt.md',
  /** The erp wrapper, the client bundle, the MCP server beside it, the reference LLM agent and the node that runs them, read-only. */
  tools: '/opt/erp',
} as const;

/** The sandbox's user: not root, so files root keeps to itself on the host stay closed to it. */
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
  const res = spawnSync('bwrap', [...rootArgs(), '--unshare-pid', '--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID), '--cap-drop', 'ALL', '--', '/bin/true'], { encoding: 'utf8' });
  if (res.error) probed = INSTALL_BWRAP;
  else if (res.status !== 0) probed = `bwrap is installed but cannot build a sandbox here (${(res.stderr || `exit ${res.status}`).trim()}); pass --no-sandbox to run the agent unsandboxed (recorded as such).`;
  else probed = null;
  return probed;
}

/** The read-only system part of the root: /usr, the merged-/usr links, a minimal /etc. */
function rootArgs(): string[] {
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


/**
 * The bubblewrap launcher: every turn in new PID, mount, IPC, UTS and user namespaces, as an
 * unprivileged user with no capabilities, on a read-only minimal root (/usr, a few files of /etc,
 * the node binary and the client bundle), a private /tmp, the workspace as the only writable
 * place that outlives the turn and a fresh HOME. The network is shared: the agent reaches the
 * agent port and its model provider; the control port wants a token it never sees. Arguments go
 * through a pipe (`--args`), so the sandbox's own command line shows the agent's command, not host paths.
 * Ending the namespace's first process ends every process in it, `setsid` children included.
 */
export function bwrapLauncher(supportDir: string, node: string, programs: AgentPrograms): TurnLauncher {
  const bin = join(supportDir, 'bin');
  writeErpWrapper(bin, `${SANDBOX.tools}/node`, `${SANDBOX.tools}/${PROGRAM_FILES.client}`);
  const programBinds = (Object.keys(PROGRAM_FILES) as (keyof AgentPrograms)[]).flatMap((k) => (existsSync(programs[k]) ? ['--ro-bind', programs[k], `${SANDBOX.tools}/${PROGRAM_FILES[k]}`] : []));
  mkdirSync(supportDir, { recursive: true });
  writeFileSync(join(supportDir, 'passwd'), `root:x:0:0:root:/root:/usr/sbin/nologin\nagent:x:${SANDBOX_UID}:${SANDBOX_UID}:agent:${SANDBOX.home}:/bin/sh\n`);
  writeFileSync(join(supportDir, 'group'), `root:x:0:\nagent:x:${SANDBOX_UID}:\n`);
  return {
    isolation: 'bwrap',
    programCommand: (name) => `${shellQuote(`${SANDBOX.tools}/node`)} ${shellQuote(`${SANDBOX.tools}/${PROGRAM_FILES[name]}`)}`,
    launch(turn): LaunchedTurn {
      mkdirSync(turn.home, { recursive: true });
      const env: Record<string, string> = { ...turn.env, HOME: SANDBOX.home, PATH: `${SANDBOX.tools}/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin` };
      const args = [
        ...rootArgs(),
        '--ro-bind', join(supportDir, 'passwd'), '/etc/passwd',
        '--ro-bind', join(supportDir, 'group'), '/etc/group',
        '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp',
        '--ro-bind', node, `${SANDBOX.tools}/node`,
        // A node outside /usr is at its own path too, for commands that name it (a harness run by node).
        ...(node.startsWith('/usr/') ? [] : ['--ro-bind', node, node]),
        ...programBinds,
        '--ro-bind', bin, `${SANDBOX.tools}/bin`,
        // A harness's own files, at their own paths (after /tmp, so one kept under /tmp shows through).
        ...turn.agentFiles.flatMap((f) => ['--ro-bind', f, f]),
        '--bind', turn.workspace, SANDBOX.workspace,
        '--bind', turn.home, SANDBOX.home,
        '--ro-bind', turn.promptFile, SANDBOX.prompt,
        // The root itself (a tmpfs holding the mount points) is read-only too, once everything is mounted.
        '--remount-ro', '/',
        '--chdir', SANDBOX.workspace,
        '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--hostname', 'agent',
        '--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID), '--cap-drop', 'ALL',
        '--die-with-parent', '--new-session', '--clearenv',
        ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]),
        '--info-fd', '4',
      ];
      // bwrap takes options, not the command, from --args.
      const command = ['/bin/sh', '-c', `${turn.command} "$@"`, 'agent', SANDBOX.prompt];
      const fds = outputFds(turn);
      const child = spawn('bwrap', ['--args', '3', '--', ...command], { env: {}, detached: true, stdio: ['pipe', fds[0], fds[1], 'pipe', 'pipe'] });
      closeFds(fds);
      const argPipe = child.stdio[3] as NodeJS.WritableStream;
      argPipe.on('error', () => undefined);
      argPipe.end(args.map((a) => a + '\0').join(''));
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(turn.prompt);
      // The namespace's first process, as the host sees it: ending it ends the sandbox.
      let initPid: number | undefined;
      let info = '';
      const infoPipe = child.stdio[4] as NodeJS.ReadableStream;
      infoPipe.on('data', (d: Buffer) => {
        info += d.toString();
        const m = /"child-pid"\s*:\s*(\d+)/.exec(info);
        if (m) initPid = Number(m[1]);
      });
      infoPipe.on('error', () => undefined);
      let running = true;
      const exited = new Promise<TurnExit>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, signal) => {
          running = false;
          resolve(exitOf(code, signal));
        });
      });
      // Signals go only while bwrap runs: it outlives the namespace, so its pids are not reused yet.
      const send = (pid: number, signal: NodeJS.Signals) => {
        if (!running) return;
        try {
          process.kill(pid, signal);
        } catch {
          /* already gone */
        }
      };
      return {
        exited,
        // The command shares the group of the namespace's first process, which ignores SIGTERM.
        terminate: () => (initPid === undefined ? send(child.pid!, 'SIGKILL') : send(-initPid, 'SIGTERM')),
        kill: () => {
          if (initPid !== undefined) send(initPid, 'SIGKILL');
          send(child.pid!, 'SIGKILL');
        },
      };
    },
  };
}
