import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { packageRoot } from '../package-info';

/**
 * A pack copied out of this package into a --tasks-dir still imports `../shared/…` (tasks/shared/:
 * the HTTP helpers, the AP-exception packs' handbook and planting code). When such a file is
 * missing, the sentence that says so also says what to copy where; '' for any other missing file.
 */
export function sharedCodeHint(missing: string): string {
  const parts = missing.split(sep);
  const at = parts.lastIndexOf('shared');
  if (at <= 0) return '';
  const target = parts.slice(0, at + 1).join(sep);
  const ours = join(packageRoot(), 'tasks', 'shared');
  const inOurs = join(ours, ...parts.slice(at + 1));
  if (target === ours || !['', '.ts', '.js', `${sep}index.ts`].some((ext) => existsSync(inOurs + ext))) return '';
  return `; the pack uses bb-erp's tasks/shared/, which is not beside it: copy ${ours} to ${target}`;
}

/** The sentence for a module a pack imports that is not there, or undefined for any other load error. */
export function missingImport(err: unknown): string | undefined {
  const e = err as { code?: string; message?: string; requireStack?: string[] };
  const spec = e.code === 'MODULE_NOT_FOUND' ? /^Cannot find module '([^']+)'/.exec(e.message ?? '')?.[1] : undefined;
  const from = e.requireStack?.[0];
  if (!spec || !from || !spec.startsWith('.')) return undefined;
  const missing = join(dirname(from), spec);
  return `${from} imports ${spec}, and there is no ${missing}${sharedCodeHint(missing)}`;
}
