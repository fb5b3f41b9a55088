import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputCount } from './sandbox/bounded-output';
import type { LimitName, TurnLimits } from './sandbox/limits';

/**
 * How one turn of a command agent is started and ended: the only module that knows. A sandbox
 * (bubblewrap, src/runner/bwrap.ts) and the bare process group (`--no-sandbox`) implement it; a
 * container launcher (one container for the ERP, one for the agent, a private network) would be a
 * third implementation of the same interface.
 */
export interface TurnLauncher {
  /** What the attempt records as its isolation: `bwrap`, or `none` for an unsandboxed run. */
  readonly isolation: 'bwrap' | 'none';
  launch(turn: TurnSpec): LaunchedTurn;
  /** The shell words that run one of the runner's own programs (the reference LLM agent) as the agent sees it. */
  programCommand(name: 'llm'): string;
  /**
   * Where the attempt's server must serve the agent API, a unix socket, and the URL the agent is
   * given for it; undefined: the agent reaches the server's own loopback port.
   */
  readonly agentPort?: { socket: string; url: string };
  /** What the turns are held to, for condition.json; undefined when nothing is enforced (--no-sandbox). */
  readonly enforced?: SandboxEnforcement;
  /** Starts what the turns need besides the server (the egress proxy); called once before the first turn. */
  open(): Promise<void>;
  /** Stops it and removes its files; called once after the last turn. */
  close(): Promise<void>;
}

/** What a sandboxed attempt's turns were held to, as condition.json records it. */
export interface SandboxEnforcement {
  /** The host user the agent ran as (not root), and whether it is the runner's dedicated one. */
  host_uid: number;
  dedicated_user: boolean;
  /** own: a network namespace reaching only the agent port and the egress destinations. */
  network: 'own';
  egress: string[];
  limits: TurnLimits;
  /** How each limit is enforced here: cgroup v2 or v1, an rlimit, or the runner's polling. */
  enforcement: Record<LimitName, string>;
}

/**
 * The runner's files an agent's turn may run, each self-contained under node: the `erp` client,
 * the MCP server `erp mcp` loads from beside it, and the reference LLM agent.
 */
export interface AgentPrograms {
  client: string;
  mcp: string;
  llm: string;
}

/** Where each program sits beside the client, by file name: `erp mcp` finds its server there. */
export const PROGRAM_FILES: Readonly<Record<keyof AgentPrograms, string>> = { client: 'erp-client.cjs', mcp: 'erp-mcp.cjs', llm: 'llm-agent.cjs' };

/** The host's side of a turn: the launcher decides where each appears to the agent. */
export interface TurnSpec {
  /** A shell command; the prompt file's path is appended as its last argument. */
  command: string;
  /** The persistent workspace: the only place the agent may write that outlives the turn. */
  workspace: string;
  /** A fresh, empty HOME for this turn. */
  home: string;
  promptFile: string;
  prompt: string;
  /** The agent's environment without PATH and HOME, which the launcher sets (agentEnv). */
  env: Record<string, string>;
  /** Files and folders the agent's command needs (its harness): visible read-only at the same path. */
  agentFiles: readonly string[];
  stdoutFile: string;
  stderrFile: string;
}

export interface TurnExit {
  exit_code: number | null;
  signal: string | null;
  /** The limit that ended the turn, and what it means. */
  limit?: LimitName;
  limit_detail?: string;
  /** Output bytes kept and dropped, when a bounded writer kept them. */
  output?: { stdout: OutputCount; stderr: OutputCount };
  /** What the sweep after the turn took out of the workspace and HOME (setuid bits, devices, fifos, sockets). */
  swept?: { privileged: string[]; removed: string[] };
}

export interface LaunchedTurn {
  /** Resolves when the agent's command has ended; in a sandbox, everything it started has ended too. */
  exited: Promise<TurnExit>;
  /** Asks the agent to stop: SIGTERM to its command's process group. */
  terminate(): void;
  /** Ends every process of the turn at once. */
  kill(): void;
}

/** Runner variables an agent may see besides those the runner sets (HOME, PATH, ERP_URL, ERP_TOKEN). */
const INHERITED = ['LANG', 'TERM'];

/**
 * The agent's environment: an allow-list, never the runner's environment. The runner's LANG,
 * TERM and BENCH_* variables, the variables an adapter declares (`--pass-env`, such as a model API
 * key), and the agent's own ERP_URL and ERP_TOKEN; no ERP_ setting of the runner's own.
 */
export function agentEnv(erp: { url: string; token: string }, passEnv: readonly string[] = [], base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && (INHERITED.includes(k) || k.startsWith('BENCH_') || passEnv.includes(k))) env[k] = v;
  }
  return { ...env, ERP_URL: erp.url, ERP_TOKEN: erp.token };
}

/** Refuses a --pass-env name the runner owns or that would let the host's settings in. */
export function checkPassEnv(names: readonly string[]): void {
  for (const n of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new Error(`--pass-env ${n}: not an environment variable name.`);
    if (n.startsWith('ERP_') || ['PATH', 'HOME'].includes(n)) throw new Error(`--pass-env ${n}: the runner sets ${n.startsWith('ERP_') ? 'the ERP_ variables' : n} itself.`);
  }
}

export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Writes `erp` into binDir: the self-contained client bundle under the given node. */
export function writeErpWrapper(binDir: string, node: string, bundle: string): string {
  mkdirSync(binDir, { recursive: true });
  const file = join(binDir, 'erp');
  writeFileSync(file, `#!/bin/sh\nexec ${shellQuote(node)} ${shellQuote(bundle)} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Opens the turn's output files for a child's stdio; the caller closes them after the spawn. */
export function outputFds(turn: Pick<TurnSpec, 'stdoutFile' | 'stderrFile'>): [number, number] {
  return [openSync(turn.stdoutFile, 'w'), openSync(turn.stderrFile, 'w')];
}

export function closeFds(fds: readonly number[]): void {
  for (const fd of fds) closeSync(fd);
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    /* the group is gone */
  }
}

/**
 * `--no-sandbox`: the agent runs as the runner's user in its own process group, with the
 * allow-listed environment and host paths. Anything that leaves the group (setsid) outlives the
 * budget, and the agent can read whatever the runner's user can: such runs are recorded
 * `unsandboxed` and never pooled with sandboxed ones.
 */
export function bareLauncher(binDir: string, node: string, programs: AgentPrograms): TurnLauncher {
  writeErpWrapper(binDir, node, programs.client);
  return {
    isolation: 'none',
    programCommand: (name) => `${shellQuote(node)} ${shellQuote(programs[name])}`,
    open: async () => undefined,
    close: async () => undefined,
    launch(turn) {
      mkdirSync(turn.home, { recursive: true });
      const fds = outputFds(turn);
      const child = spawn('/bin/sh', ['-c', `${turn.command} "$@"`, 'agent', turn.promptFile], {
        cwd: turn.workspace,
        env: { ...turn.env, HOME: turn.home, PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}` },
        detached: true,
        stdio: ['pipe', fds[0], fds[1]],
      });
      closeFds(fds);
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(turn.prompt);
      const exited = new Promise<TurnExit>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, signal) => {
          // What the agent left running in its group goes with it.
          signalGroup(child.pid, 'SIGKILL');
          resolve({ exit_code: code, signal });
        });
      });
      return { exited, terminate: () => signalGroup(child.pid, 'SIGTERM'), kill: () => signalGroup(child.pid, 'SIGKILL') };
    },
  };
}
