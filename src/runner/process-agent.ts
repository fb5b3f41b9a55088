import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-info';

export interface ProcessTurn {
  /** A shell command; the prompt file's path is appended as its last argument. */
  command: string;
  /** The persistent workspace. */
  cwd: string;
  erpUrl: string;
  erpToken: string;
  /** Folder holding the `erp` wrapper, put first on PATH. */
  binDir: string;
  /** A fresh HOME for this turn. */
  home: string;
  promptFile: string;
  prompt: string;
  budgetMs: number;
  stdoutFile: string;
  stderrFile: string;
  /** Time between SIGTERM and SIGKILL at the budget. */
  graceMs?: number;
}

export interface ProcessOutcome {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_s: number;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Writes bin/erp: this package's CLI under the node running the runner. */
export function writeErpWrapper(binDir: string): string {
  mkdirSync(binDir, { recursive: true });
  const file = join(binDir, 'erp');
  writeFileSync(file, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(join(packageRoot(), 'bin', 'run.js'))} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** The agent's environment: the runner's, without any ERP_ settings of its own, plus the agent's. */
export function agentEnv(turn: Pick<ProcessTurn, 'erpUrl' | 'erpToken' | 'binDir' | 'home'>, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!k.startsWith('ERP_')) env[k] = v;
  return { ...env, HOME: turn.home, PATH: `${turn.binDir}:${base.PATH ?? '/usr/bin:/bin'}`, ERP_URL: turn.erpUrl, ERP_TOKEN: turn.erpToken };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* the group is gone */
  }
}

/**
 * Runs one turn of a command agent in its own process group, with the prompt file's path as an
 * argument and its text on stdin. At the budget the whole group gets SIGTERM, then SIGKILL; when
 * the agent exits on its own, anything it left running in its group is killed too.
 */
export function runProcessTurn(turn: ProcessTurn): Promise<ProcessOutcome> {
  mkdirSync(turn.home, { recursive: true });
  const out = openSync(turn.stdoutFile, 'w');
  const err = openSync(turn.stderrFile, 'w');
  const started = process.hrtime.bigint();
  const child = spawn('/bin/sh', ['-c', `${turn.command} "$@"`, 'agent', turn.promptFile], {
    cwd: turn.cwd,
    env: agentEnv(turn),
    detached: true,
    stdio: ['pipe', out, err],
  });
  closeSync(out);
  closeSync(err);
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(turn.prompt);
  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  timers.push(setTimeout(() => {
    timedOut = true;
    killGroup(child.pid!, 'SIGTERM');
    timers.push(setTimeout(() => killGroup(child.pid!, 'SIGKILL'), turn.graceMs ?? 2000));
  }, turn.budgetMs));
  return new Promise((resolve, reject) => {
    child.once('error', (e) => {
      timers.forEach(clearTimeout);
      reject(e);
    });
    child.once('exit', (code, signal) => {
      timers.forEach(clearTimeout);
      killGroup(child.pid!, 'SIGKILL');
      resolve({ exit_code: code, signal, timed_out: timedOut, duration_s: Number(process.hrtime.bigint() - started) / 1e9 });
    });
  });
}
