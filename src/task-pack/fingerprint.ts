import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TaskPack } from './load';

export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' ? [] : filesUnder(path);
    return d.isFile() ? [path] : [];
  });
}

/** A hash of a set of files: their paths (relative to `root`) and contents, in sorted order. */
export function hashFiles(root: string, files: readonly string[]): string {
  const h = createHash('sha256');
  for (const file of [...files].sort()) {
    h.update(relative(root, file).split('\\').join('/'));
    h.update('\0');
    h.update(readFileSync(file));
    h.update('\0');
  }
  return h.digest('hex');
}

/** Every file of the pack's folder, and any policies.yaml it extends from elsewhere. */
export function packHash(pack: TaskPack): string {
  const own = filesUnder(pack.dir);
  const borrowed = pack.policies.sources.filter((s) => relative(pack.dir, s).startsWith('..'));
  return hashFiles(pack.dir, [...own, ...borrowed]);
}
