import { join } from 'node:path';
import { packageVersion } from '../package-info';
import { filesUnder, hashFiles } from '../task-pack/fingerprint';

let cached: string | undefined;

/**
 * The version of the code that generates and runs scenarios: the package version and a hash of the
 * source tree this process runs (src/ under ts-jest, dist/src when built), so that a scenario cached
 * by older code is generated again.
 */
export function codeVersion(): string {
  if (cached) return cached;
  const root = join(__dirname, '..');
  const files = filesUnder(root).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'));
  return (cached = `${packageVersion()}+${hashFiles(root, files).slice(0, 16)}`);
}
