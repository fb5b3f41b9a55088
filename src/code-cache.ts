import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';

/**
 * A V8 code cache for the operator's CLI: Node 20 has no module compile cache, and an `erp`
 * command compiles about a thousand CommonJS files (5 MB) before it does anything. Each file of
 * the package (its dist and its node_modules) is compiled with the code V8 produced for it last
 * time, and after a run the code of every file that was compiled afresh is written back, with the
 * functions that ran by then compiled too.
 *
 * Entries are keyed by path and a hash of the source, never by V8's own check alone (which looks
 * at the source's length, not its text), so an edited or rebuilt file is compiled from its source.
 * V8 refuses code from another version or other flags, and then the file is compiled from source
 * too: a cache can make a start slower or faster, never different. Files Node must load itself
 * are left to it: ES modules, and CommonJS that calls import(), whose loader a cached script
 * does not carry.
 *
 * The file lives in the operator's cache folder, which no agent's sandbox mounts.
 */

/** What one process did with the cache, for tests and for `ERP_CLI_CODE_CACHE=stats`. */
export interface CodeCacheStats {
  file: string;
  /** Files compiled with code from the cache. */
  hits: number;
  /** Files with no entry, or whose entry V8 refused: compiled from source and written back. */
  misses: number;
  /** Files under the root left to Node's own loader (ES modules, import()). */
  passed: number;
  /** Whether this process rewrote the cache file. */
  wrote: boolean;
}

/** Past this the file keeps only what the writing process loaded: entries of rebuilt files go. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
const MAGIC = 'bb-erp-code-cache-2';

interface Entry {
  key: string;
  data: Buffer;
}

/** Where an entry's bytes are in the file the process opened: read when asked for, not held. */
interface Stored {
  offset: number;
  length: number;
}

type CompileFn = (this: Module, content: string, filename: string) => unknown;

let installed: CodeCacheStats | undefined;

/** The cache file for this node and architecture under a cache folder. */
export function codeCacheFile(cacheDir: string): string {
  return join(cacheDir, 'v8-code', `${process.version}-${process.arch}.bin`);
}

/**
 * Serves files under `root` from the cache at `file` for the rest of the process. Called once,
 * before anything it should cover is required; a second call returns the first one's stats.
 */
export function installCodeCache(root: string, file: string): CodeCacheStats {
  if (installed) return installed;
  const stats: CodeCacheStats = { file, hits: 0, misses: 0, passed: 0, wrote: false };
  installed = stats;
  const stored = openCache(file);
  /** The key of every file this process compiled, by path. */
  const current = new Map<string, string>();
  const fresh: { key: string; script: Script }[] = [];
  const prefix = root.endsWith(sep) ? root : root + sep;
  const proto = Module.prototype as unknown as { _compile: CompileFn };
  const compile = proto._compile;

  proto._compile = function (this: Module, content: string, filename: string) {
    if (!filename.startsWith(prefix) || content.includes('import(')) {
      if (filename.startsWith(prefix)) stats.passed++;
      return compile.call(this, content, filename);
    }
    const key = `${filename}\u0000${createHash('sha1').update(content).digest('base64')}`;
    current.set(filename, key);
    const cached = stored.read(key);
    let script: Script;
    try {
      script = new Script(Module.wrap(content.startsWith('#!') ? `//${content.slice(2)}` : content), { filename, cachedData: cached });
    } catch (err) {
      // ES module syntax, or a real syntax error: Node's loader knows what to do with both.
      if (err instanceof SyntaxError) {
        stats.passed++;
        return compile.call(this, content, filename);
      }
      throw err;
    }
    if (cached && !script.cachedDataRejected) stats.hits++;
    else {
      stats.misses++;
      fresh.push({ key, script });
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };

  process.once('exit', () => {
    try {
      if (fresh.length > 0) writeBack();
    } catch {
      // A cache that cannot be written (a read-only install, a full disk) only means a slower start next time.
    } finally {
      stored.close();
    }
    if (process.env.ERP_CLI_CODE_CACHE === 'stats') printStats(stats);
  });
  return stats;

  /**
   * The new code, then the entries this process used, then those of files it did not load (other
   * commands load other files) while the file stays within its bound; an entry of an older build
   * of a file it loaded goes.
   */
  function writeBack(): void {
    const entries: Entry[] = fresh.map(({ key, script }) => ({ key, data: script.createCachedData() }));
    const written = new Set(entries.map((e) => e.key));
    const usedHere = (key: string) => current.get(key.slice(0, key.indexOf('\u0000'))) === key;
    const loadedHere = (key: string) => current.has(key.slice(0, key.indexOf('\u0000')));
    const kept = [...stored.index.keys()].filter((k) => !written.has(k) && (usedHere(k) || !loadedHere(k)));
    let size = entries.reduce((n, e) => n + e.data.length, 0);
    for (const key of [...kept.filter(usedHere), ...kept.filter((k) => !usedHere(k))]) {
      const length = stored.index.get(key)!.length;
      if (size + length > MAX_CACHE_BYTES) continue;
      const data = stored.read(key);
      if (!data) continue;
      entries.push({ key, data });
      size += length;
    }
    writeCache(file, entries);
    stats.wrote = true;
  }
}

function printStats(s: CodeCacheStats): void {
  process.stderr.write(`code cache ${s.file}: ${s.hits} from the cache, ${s.misses} compiled, ${s.passed} left to node${s.wrote ? ', written' : ''}\n`);
}

/** The `require` a CommonJS module is given, as Node builds it. */
function requireFor(mod: Module): NodeJS.Require {
  const loader = Module as unknown as {
    _resolveFilename(request: string, parent: Module, isMain: boolean, options?: { paths?: string[] }): string;
    _resolveLookupPaths(request: string, parent: Module): string[] | null;
    _extensions: NodeJS.RequireExtensions;
    _cache: NodeJS.Dict<NodeJS.Module>;
  };
  const req = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) => loader._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => loader._resolveLookupPaths(request, mod);
  req.resolve = resolve;
  req.main = require.main;
  req.extensions = loader._extensions;
  req.cache = loader._cache;
  return req;
}

/**
 * The file: a line of the magic word and the index's length in bytes, the JSON index of [key,
 * length] pairs, then the entries' bytes in index order. It is opened once and each entry read
 * when a file asks for it; anything unreadable is an empty cache.
 */
function openCache(file: string): { index: ReadonlyMap<string, Stored>; read(key: string): Buffer | undefined; close(): void } {
  const index = new Map<string, Stored>();
  let fd: number | undefined;
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(64);
    const line = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('latin1').split('\n', 1)[0]!;
    const [magic, length] = line.split(' ');
    const indexBytes = Number(length);
    if (magic !== MAGIC || !Number.isSafeInteger(indexBytes) || line.length + 1 + indexBytes > size) throw new Error('not a code cache');
    const indexText = Buffer.alloc(indexBytes);
    readSync(fd, indexText, 0, indexBytes, line.length + 1);
    const entries = JSON.parse(indexText.toString('utf8')) as [string, number][];
    let offset = line.length + 1 + indexBytes;
    for (const [key, length] of entries) {
      index.set(key, { offset, length });
      offset += length;
    }
    if (offset !== size) throw new Error('a truncated code cache');
  } catch {
    close();
    index.clear();
  }
  return {
    index,
    read: (key) => {
      const at = index.get(key);
      if (!at || fd === undefined) return undefined;
      const data = Buffer.allocUnsafe(at.length);
      return readSync(fd, data, 0, at.length, at.offset) === at.length ? data : undefined;
    },
    close,
  };
}

/** Written beside itself and renamed over: a concurrent reader sees the old file or the new, whole. */
function writeCache(file: string, entries: readonly Entry[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const index = Buffer.from(JSON.stringify(entries.map((e) => [e.key, e.data.length])));
  const head = Buffer.concat([Buffer.from(`${MAGIC} ${index.length}\n`), index]);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([head, ...entries.map((e) => e.data)]));
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
