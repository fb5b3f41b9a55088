import { readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * The operator's `erp` loads the package's compiled modules from one file, dist/erp-operator.cjs,
 * instead of resolving, reading and compiling about a thousand files one by one. The bundle holds
 * every module of dist/src and the packages they use, each as it was compiled; a request for one
 * of those files, from anywhere, gets the bundle's instance of it, so each module exists once.
 *
 * The bundle is only used while it is current: its manifest names every file of dist/ it was
 * built from, with size and modification time, and the package lock it was built against. One
 * changed, missing or rebuilt file (a plain `tsc`, a reinstall) and every module is loaded from
 * its own file, as if there were no bundle. `npm run build` rebuilds it.
 */

export const OPERATOR_BUNDLE = join('dist', 'erp-operator.cjs');
export const OPERATOR_MANIFEST = join('dist', 'erp-operator.json');
/** The file whose change means the packages inside the bundle may have changed. */
export const PACKAGE_LOCK = join('node_modules', '.package-lock.json');

/** A file the bundle was built from, as it was then. */
export type ManifestFile = [path: string, size: number, mtimeMs: number];

export interface OperatorManifest {
  version: 1;
  /** Files of dist/ inside the bundle, relative to the package root with `/` separators. */
  files: ManifestFile[];
  /** The package lock's size and time when it was built; null when there was none. */
  lock: [size: number, mtimeMs: number] | null;
}

/** What the bundle exports: each module it holds, by its path under the package root. */
type BundleModules = Record<string, () => unknown>;

export type BundleUse = { used: true; modules: number } | { used: false; why: string };

let installed: BundleUse | undefined;

function fileState(file: string): [number, number] | null {
  try {
    const s = statSync(file);
    return [s.size, s.mtimeMs];
  } catch {
    return null;
  }
}

/** Why the bundle at `root` cannot stand in for dist/ now, or undefined when it can. */
export function staleness(root: string, manifest: OperatorManifest): string | undefined {
  const lock = fileState(join(root, PACKAGE_LOCK));
  if (JSON.stringify(lock) !== JSON.stringify(manifest.lock)) return `${PACKAGE_LOCK} changed since the bundle was built`;
  for (const [path, size, mtimeMs] of manifest.files) {
    const now = fileState(join(root, path));
    if (!now) return `${path} is missing`;
    if (now[0] !== size || now[1] !== mtimeMs) return `${path} changed since the bundle was built`;
  }
  return undefined;
}

export function readManifest(root: string): OperatorManifest | undefined {
  try {
    const m = JSON.parse(readFileSync(join(root, OPERATOR_MANIFEST), 'utf8')) as OperatorManifest;
    return m.version === 1 && Array.isArray(m.files) ? m : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the package's modules from the bundle for the rest of the process, when it is current.
 * Called once, before any module it holds is required; a second call returns the first's answer.
 */
export function installOperatorBundle(root: string): BundleUse {
  if (installed) return installed;
  const manifest = readManifest(root);
  if (!manifest) return (installed = { used: false, why: `${OPERATOR_MANIFEST} is missing or unreadable` });
  const why = staleness(root, manifest);
  if (why) return (installed = { used: false, why });
  const served = new Set(manifest.files.map(([path]) => join(root, ...path.split('/'))));
  const bundleFile = join(root, OPERATOR_BUNDLE);
  const loader = Module as unknown as {
    _load(request: string, parent: Module | null, isMain: boolean): unknown;
    _resolveFilename(request: string, parent: Module | null, isMain: boolean): string;
  };
  const load = loader._load;
  let modules: BundleModules | undefined;
  loader._load = function (request: string, parent: Module | null, isMain: boolean) {
    // Packages and node's own modules are never files of dist/ (only paths can be).
    if (request.startsWith('.') || isAbsolute(request)) {
      let filename: string | undefined;
      try {
        filename = loader._resolveFilename(request, parent, isMain);
      } catch {
        // Not found: node's loader reports it.
      }
      if (filename !== undefined && served.has(filename)) {
        modules ??= load.call(this, bundleFile, null, false) as BundleModules;
        const key = relative(root, filename).split(sep).join('/');
        const get = modules[key];
        if (get) return get();
      }
    }
    return load.call(this, request, parent, isMain);
  };
  return (installed = { used: true, modules: served.size });
}
