import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/package-info';

/** What one command cost: CPU time (user + system) of every process it ran, wall time, peak memory of the largest. */
export interface Usage {
  cpuSeconds: number;
  wallSeconds: number;
  maxRssMiB: number;
  processes: number;
}

function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string; wallSeconds: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const wallSeconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (code === 0) resolve({ stdout, wallSeconds });
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/**
 * Runs `erp ARGS` (bin/run.js) in a child and measures it, workers included: each node process
 * reports its own resource usage at exit (bench/usage-probe).
 */
export async function measureErp(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Usage & { stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-usage-'));
  try {
    const file = join(dir, 'usage.jsonl');
    const probe = join(packageRoot(), 'dist', 'bench', 'usage-probe.js');
    const nodeOptions = [process.env.NODE_OPTIONS, `--require=${probe}`].filter(Boolean).join(' ');
    const out = await run(process.execPath, [join(packageRoot(), 'bin', 'run.js'), ...args], { env: { ...process.env, ...env, NODE_OPTIONS: nodeOptions, BENCH_USAGE_FILE: file } });
    const rows = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { user_us: number; system_us: number; max_rss_kib: number }) : [];
    return {
      stdout: out.stdout,
      wallSeconds: out.wallSeconds,
      cpuSeconds: rows.reduce((s, r) => s + r.user_us + r.system_us, 0) / 1e6,
      maxRssMiB: Math.max(0, ...rows.map((r) => r.max_rss_kib)) / 1024,
      processes: rows.length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs a command of the seed's ERP (Python) in `cwd` under a Python parent that reports the
 * resource usage of its waited-for children (RUSAGE_CHILDREN): the anchor's CPU and peak memory.
 */
export async function measurePython(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Usage> {
  const wrapper = 'import json,resource,subprocess,sys\n'
    + 'subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n'
    + 'r = resource.getrusage(resource.RUSAGE_CHILDREN)\n'
    + 'print(json.dumps({"cpu": r.ru_utime + r.ru_stime, "max_rss_kib": r.ru_maxrss}))\n';
  const out = await run('python3', ['-c', wrapper, ...args], { cwd, env: { ...process.env, ...env } });
  const r = JSON.parse(out.stdout.trim().split('\n').pop()!) as { cpu: number; max_rss_kib: number };
  return { cpuSeconds: r.cpu, wallSeconds: out.wallSeconds, maxRssMiB: r.max_rss_kib / 1024, processes: 1 };
}

/** The best of `n` runs (least disturbed by other work on the machine), by CPU time. */
export async function bestOf<T extends Usage>(n: number, once: (i: number) => Promise<T>): Promise<T> {
  let best: T | undefined;
  for (let i = 0; i < n; i++) {
    const u = await once(i);
    if (!best || u.cpuSeconds < best.cpuSeconds) best = u;
  }
  return best!;
}
