import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ErpClient } from '../src/client/http-client';
import { packageRoot } from '../src/package-info';

export const RESETS = 20;

/** A server started by `erp server start`, its control client, and how long it took to answer /control/health. */
export async function spawnServer(args: readonly string[]): Promise<{ ms: number; control: ErpClient; stop: () => Promise<void> }> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(packageRoot(), 'bin', 'run.js'), 'server', 'start', ...args, '--control-token', 'bench'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const { control_url } = JSON.parse(line) as { control_url: string };
  const control = new ErpClient({ baseUrl: control_url, token: 'bench' });
  await untilHealthy(control);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return {
    ms, control, stop: async () => {
      await control.post('/control/shutdown', {});
      await new Promise((r) => child.once('exit', r));
      control.close();
    },
  };
}

async function untilHealthy(control: ErpClient): Promise<void> {
  for (;;) {
    const res = await control.get('/control/health').catch(() => ({ status: 0 }));
    if (res.status === 200) return;
  }
}

/**
 * A reset without a new process: a server started with --reset-from swaps in a fresh copy of the
 * scenario on POST /control/reset; measured until /control/health answers again, median of RESETS.
 */
export async function resets(dir: string, scenarioFile: string): Promise<number[]> {
  const server = await spawnServer(['--db', join(dir, 'reset.db'), '--reset-from', scenarioFile]);
  const times: number[] = [];
  try {
    for (let i = 0; i < RESETS; i++) {
      // The next copy is made in the background between resets, as between two attempts.
      await new Promise((r) => setTimeout(r, 100));
      const start = process.hrtime.bigint();
      const res = await server.control.post('/control/reset', {});
      if (res.status !== 200) throw new Error(`reset failed: ${res.text}`);
      await untilHealthy(server.control);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  } finally {
    await server.stop();
  }
  return times.sort((a, b) => a - b);
}

