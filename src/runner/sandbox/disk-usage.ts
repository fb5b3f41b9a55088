import { execFile } from 'node:child_process';

/**
 * Bytes on disk under the given folders, links not followed, by `du` in a child process: a
 * workspace of many files is measured without holding up the runner, which serves the attempt.
 */
export function diskUsage(paths: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    execFile('du', ['-s', '-B1', '-x', '-c', ...paths], { encoding: 'utf8' }, (_err, stdout) => {
      // du still totals what it could read when one entry vanished under it.
      const total = /^(\d+)\s+total$/m.exec(stdout ?? '');
      resolve(total ? Number(total[1]) : 0);
    });
  });
}
