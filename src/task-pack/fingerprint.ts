import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

/** The folders a pack's behaviour depends on: its own and those of the tasks it is a variant of, whose checks and projections it inherits. */
export function packFolders(pack: TaskPack): string[] {
  return [pack.dir, ...pack.baseDirs];
}

/**
 * Every file the pack depends on: its folders (packFolders), any policies.yaml it extends from
 * elsewhere, and the modules its code imports from outside them.
 */
export function packHash(pack: TaskPack): string {
  const folders = packFolders(pack);
  const files = new Set([...folders.flatMap(filesUnder), ...pack.policies.sources, ...folders.flatMap(importedFromOutside)]);
  return hashFiles(pack.dir, [...files]);
}

const RELATIVE_IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/**
 * Modules outside the pack's folder that its code imports at run time (relative imports that are not
 * `import type`), followed transitively: code several packs share is part of each pack's identity.
 */
export function importedFromOutside(packDir: string): string[] {
  const seen = new Set<string>();
  const queue = filesUnder(packDir).filter((f) => f.endsWith('.ts'));
  const outside: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(RELATIVE_IMPORT)) {
      const target = resolveModule(join(dirname(file), m[1]!));
      if (!target || seen.has(target)) continue;
      if (relative(packDir, target).startsWith('..')) outside.push(target);
      queue.push(target);
    }
  }
  return [...new Set(outside)].sort();
}

function resolveModule(base: string): string | undefined {
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}
