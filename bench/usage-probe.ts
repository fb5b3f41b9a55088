import { appendFileSync } from 'node:fs';

/**
 * Loaded into every node process a benchmark starts (NODE_OPTIONS=--require, which forked workers
 * inherit): at exit it appends the process's own CPU time and peak memory to BENCH_USAGE_FILE.
 */
const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.once('exit', () => {
    const u = process.resourceUsage();
    appendFileSync(file, JSON.stringify({ pid: process.pid, user_us: u.userCPUTime, system_us: u.systemCPUTime, max_rss_kib: u.maxRSS }) + '\n');
  });
}
