import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheFile } from '../../src/code-cache';

const compiled = join(__dirname, '..', '..', 'dist', 'src', 'code-cache.js');
const bin = join(__dirname, '..', '..', 'bin', 'run.js');

/** A package root with a few modules, and a script that installs the cache and requires them. */
function fixture(): { root: string; cache: string } {
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-code-cache-'));
  mkdirSync(join(root, 'lib'));
  writeFileSync(join(root, 'lib', 'a.js'), "exports.value = () => 'a1' + require('./b').value;\n");
  writeFileSync(join(root, 'lib', 'b.js'), "exports.value = 'b1';\nexports.resolved = require.resolve('./a');\n");
  writeFileSync(join(root, 'lib', 'esm.mjs'), "export const value = 'esm';\n");
  writeFileSync(join(root, 'lib', 'dynamic.js'), "exports.load = () => import('./esm.mjs');\n");
  writeFileSync(join(root, 'main.js'), `
    const { installCodeCache } = require(${JSON.stringify(compiled)});
    const stats = installCodeCache(${JSON.stringify(root)}, process.argv[2]);
    const a = require('./lib/a');
    const b = require('./lib/b');
    require('./lib/dynamic').load().then((m) => {
      process.on('exit', () => process.stdout.write(JSON.stringify({ value: a.value(), resolved: b.resolved, esm: m.value, stats }) + '\\n'));
    });
  `);
  return { root, cache: join(root, 'cache.bin') };
}

function run(root: string, cache: string) {
  const r = spawnSync(process.execPath, [join(root, 'main.js'), cache], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { value: string; resolved: string; esm: string; stats: { hits: number; misses: number; passed: number; wrote: boolean } };
}

describe('the operator CLI code cache', () => {
  it('given no cache, when modules load, then they are compiled and written; when they load again, then from the cache, with the same behaviour', () => {
    const { root, cache } = fixture();
    const first = run(root, cache);
    expect(first).toMatchObject({ value: 'a1b1', resolved: join(root, 'lib', 'a.js'), esm: 'esm' });
    // main.js is compiled before the cache is installed; dynamic.js calls import(), left to node.
    expect(first.stats).toMatchObject({ hits: 0, misses: 2, passed: 1, wrote: true });
    const second = run(root, cache);
    expect(second).toMatchObject({ value: 'a1b1', esm: 'esm', stats: { hits: 2, misses: 0, wrote: false } });
  });

  it('given a cached module edited to a source of the same length, when it loads, then its new source runs', () => {
    const { root, cache } = fixture();
    run(root, cache);
    const b = join(root, 'lib', 'b.js');
    writeFileSync(b, readFileSync(b, 'utf8').replace("'b1'", "'b2'"));
    const after = run(root, cache);
    expect(after.value).toBe('a1b2');
    expect(after.stats).toMatchObject({ hits: 1, misses: 1, wrote: true });
    expect(run(root, cache).stats).toMatchObject({ hits: 2, misses: 0 });
  });

  it('given a cache file that is not one (truncated, garbage), when modules load, then they compile from source and the file is rewritten', () => {
    const { root, cache } = fixture();
    run(root, cache);
    writeFileSync(cache, readFileSync(cache).subarray(0, 100));
    expect(run(root, cache)).toMatchObject({ value: 'a1b1', stats: { hits: 0, misses: 2, wrote: true } });
    writeFileSync(cache, 'garbage');
    expect(run(root, cache)).toMatchObject({ value: 'a1b1', stats: { hits: 0, misses: 2, wrote: true } });
    expect(run(root, cache).stats.hits).toBe(2);
  });

  it('given a cache that cannot be written (its folder would be a file), when modules load, then the program still runs', () => {
    const { root } = fixture();
    const cache = join(root, 'main.js', 'cache.bin');
    const r = spawnSync(process.execPath, [join(root, 'main.js'), cache], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ value: 'a1b1' });
  });

  it('erp reports the cache with ERP_CLI_CODE_CACHE=stats, under .cache/ for this node, and ERP_CLI_CODE_CACHE=0 leaves it out', () => {
    const on = spawnSync(process.execPath, [bin, 'bench', 'show', '--help'], { encoding: 'utf8', env: { ...process.env, ERP_CLI_CODE_CACHE: 'stats' } });
    expect(on.status).toBe(0);
    const file = codeCacheFile(join(__dirname, '..', '..', '.cache'));
    expect(on.stderr).toMatch(new RegExp(`^code cache ${file.replace(/[.+]/g, '\\$&')}: \\d+ from the cache, \\d+ compiled, \\d+ left to node`, 'm'));
    const off = spawnSync(process.execPath, [bin, 'bench', 'show', '--help'], { encoding: 'utf8', env: { ...process.env, ERP_CLI_CODE_CACHE: '0' } });
    expect(off.status).toBe(0);
    expect(off.stderr).not.toContain('code cache');
    expect(off.stdout).toBe(on.stdout);
  });
});
