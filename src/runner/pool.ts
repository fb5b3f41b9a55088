import { spawn } from 'node:child_process';

/** Runs `work` over the items with at most `size` at a time; results in the items' order. */
export async function pool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(size, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Runs a worker script with its options as JSON in argv[2]; resolves with the JSON of the last line
 * it prints on stdout. Its stderr (progress) passes through.
 */
export function runWorker<R>(script: string, options: unknown): Promise<R> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop();
      if (code === 0 && last) resolvePromise(JSON.parse(last) as R);
      else reject(new Error(`the worker exited with ${code}`));
    });
  });
}
