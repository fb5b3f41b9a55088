import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
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

/**
 * The folders a pack's behaviour depends on: its own, those of the tasks it is a variant of (whose
 * checks it inherits and whose code it may import), and the shared lib/ beside the packs.
 */
export function packFolders(pack: TaskPack): string[] {
  const folders = [pack.dir];
  for (let base = pack.spec.variant_of; base !== undefined;) {
    const dir = join(dirname(pack.dir), base);
    if (folders.includes(dir) || !existsSync(join(dir, 'task.yaml'))) break;
    folders.push(dir);
    base = (parse(readFileSync(join(dir, 'task.yaml'), 'utf8')) as { variant_of?: string } | null)?.variant_of;
  }
  const lib = join(dirname(pack.dir), 'lib');
  if (existsSync(lib)) folders.push(lib);
  return folders;
}

/** Every file the pack depends on (packFolders), and any policies.yaml it extends from elsewhere. */
export function packHash(pack: TaskPack): string {
  const files = new Set(packFolders(pack).flatMap(filesUnder));
  for (const source of pack.policies.sources) files.add(source);
  return hashFiles(pack.dir, [...files]);
}
