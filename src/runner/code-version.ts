import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion } from '../package-info';
import { filesUnder, hashFiles } from '../task-pack/fingerprint';

let cached: string | undefined;

/** Beside the compiled code: the hash of the TypeScript sources it was compiled from. */
export const SOURCE_STAMP = 'source-hash.json';

/** The hash of the TypeScript sources under `srcDir` (src/ of a checkout). */
export function sourceHash(srcDir: string): string {
  const files = filesUnder(srcDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  return hashFiles(srcDir, files).slice(0, 16);
}

/** Run by `npm run build`: records which sources dist/ was compiled from. */
export function writeSourceStamp(distDir: string, srcDir: string): void {
  writeFileSync(join(distDir, SOURCE_STAMP), JSON.stringify({ source_hash: sourceHash(srcDir) }) + '\n');
}

/**
 * The version of the code that generates and runs scenarios: the package version and a hash of
 * the TypeScript sources, so that a scenario or company cached by other code is generated again.
 * Under ts-jest the sources are hashed as they are; compiled code reads the hash its build
 * recorded. Both name the same sources the same way, so `npm test` and `npm start` share one
 * cache entry instead of evicting each other's. A build without the stamp hashes its own files.
 */
export function codeVersion(): string {
  if (cached) return cached;
  const root = join(__dirname, '..');
  const compiled = __filename.endsWith('.js');
  const stamp = join(root, '..', SOURCE_STAMP);
  let hash: string;
  if (!compiled) hash = sourceHash(root);
  else if (existsSync(stamp)) hash = (JSON.parse(readFileSync(stamp, 'utf8')) as { source_hash: string }).source_hash;
  else hash = hashFiles(root, filesUnder(root).filter((f) => f.endsWith('.js'))).slice(0, 16);
  return (cached = `${packageVersion()}+${hash}`);
}
