import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let root: string | undefined;

/** The folder holding bb-erp's package.json, from source (ts-jest) or from dist alike. */
export function packageRoot(): string {
  if (root) return root;
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === 'bb-erp') return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('Cannot find the bb-erp package root.');
    dir = up;
  }
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
