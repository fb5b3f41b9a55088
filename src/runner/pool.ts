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

/**
 * The worker's side of runWorker: runs one unit (a task and seed) given as JSON in argv[2] and
 * prints its result as one JSON line on stdout; progress goes to stderr with the unit's name in
 * front. Exits 1 with the error's message when the unit throws.
 */
export function serveUnit<O extends { task: string; seed: number }, R>(run: (options: O & { log: (line: string) => void }) => Promise<R>): void {
  const options = JSON.parse(process.argv[2]!) as O;
  const prefix = `[${options.task} seed ${options.seed}] `;
  run({ ...options, log: (line) => process.stderr.write(prefix + line + '\n') })
    .then((result) => process.stdout.write(JSON.stringify(result) + '\n'))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
