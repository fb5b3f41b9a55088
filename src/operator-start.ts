import { join } from 'node:path';
import { codeCacheFile, installCodeCache } from './code-cache';
import { installOperatorBundle } from './operator-bundle';

/**
 * How an operator's process of the package starts: `erp` itself and the workers the runner spawns
 * (validation, campaign and strategy workers). Each compiles from the V8 code cache under .cache/
 * and loads the package's modules from the operator bundle while it is current. Called before any
 * module of the package is required; the environment turns either off (`=0`) or reports it
 * (`=stats`): ERP_CLI_CODE_CACHE and ERP_CLI_BUNDLE.
 */

/** The package root of a compiled file of dist/src; undefined when running from source (ts-jest). */
function compiledRoot(): string | undefined {
  return __filename.endsWith('.js') ? join(__dirname, '..', '..') : undefined;
}

export function startCodeCache(root = compiledRoot()): void {
  if (root === undefined || process.env.ERP_CLI_CODE_CACHE === '0') return;
  installCodeCache(root, codeCacheFile(join(root, '.cache')));
}

export function startOperatorBundle(root = compiledRoot()): void {
  if (root === undefined || process.env.ERP_CLI_BUNDLE === '0') return;
  const use = installOperatorBundle(root);
  if (process.env.ERP_CLI_BUNDLE === 'stats') process.stderr.write(use.used ? `operator bundle: ${use.modules} files served from it\n` : `operator bundle not used: ${use.why}\n`);
}

/** Both, for a worker process: it runs operator code only. */
export function startOperatorProcess(): void {
  startCodeCache();
  startOperatorBundle();
}
