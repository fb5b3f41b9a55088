import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Host processes still running (zombies are not) whose command line carries `marker`. */
export function processesWith(marker: string): number[] {
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z' && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  }).map(Number);
}

/**
 * Runs the built `erp` with `args` and sends it SIGINT (Ctrl-C) as soon as `ready()` holds, polled
 * every 50 ms; resolves with its exit code and stderr. Rejects when it is not ready in `limitMs`.
 */
export async function interruptWhen(erp: string, args: readonly string[], ready: () => boolean, options: { cwd?: string; limitMs?: number } = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [erp, ...args], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  await new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (ready()) {
        clearInterval(poll);
        child.kill('SIGINT');
        resolve();
      } else if (Date.now() - started > (options.limitMs ?? 60_000)) {
        clearInterval(poll);
        child.kill('SIGKILL');
        reject(new Error(`it was never ready to interrupt: ${stderr}`));
      }
    }, 50);
  });
  return exited;
}
