import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOperatorBundle } from '../../src/build/operator-bundle';
import { seedSmallOrg } from '../../src/sim/small-company';
import { openTestErp } from '../support/erp';

const hook = join(__dirname, '..', '..', 'dist', 'src', 'operator-bundle.js');
const bin = join(__dirname, '..', '..', 'bin', 'run.js');

/** A package root whose dist/src holds a module with state, one that uses it, and one in a subfolder. */
function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-operator-bundle-'));
  mkdirSync(join(root, 'dist', 'src', 'sub'), { recursive: true });
  writeFileSync(join(root, 'dist', 'src', 'counter.js'), '"use strict";\nlet n = 0;\nexports.next = () => ++n;\nexports.where = __dirname;\nexports.strict = (function () { return this === undefined; })();\n');
  writeFileSync(join(root, 'dist', 'src', 'user.js'), '"use strict";\nconst counter = require("./counter");\nexports.count = () => counter.next();\n');
  writeFileSync(join(root, 'dist', 'src', 'sub', 'deep.js'), 'exports.file = __filename;\n');
  return root;
}

interface Seen {
  use: { used: boolean; modules?: number; why?: string };
  n: number;
  fromFiles: string[];
  where: string;
  strict: boolean;
  deep: string;
}

/** A process that installs the bundle of `root`, then requires its modules by path, as oclif does. */
function run(root: string): Seen {
  const script = `
    const { installOperatorBundle } = require(${JSON.stringify(hook)});
    const use = installOperatorBundle(${JSON.stringify(root)});
    const src = ${JSON.stringify(join(root, 'dist', 'src'))};
    const user = require(src + '/user.js');
    const counter = require(src + '/counter');
    user.count();
    counter.next();
    const deep = require(src + '/sub/deep.js').file;
    const fromFiles = Object.keys(require.cache).filter((f) => f.startsWith(src));
    process.stdout.write(JSON.stringify({ use, n: counter.next(), fromFiles, where: counter.where, strict: counter.strict, deep }));
  `;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Seen;
}

describe('the operator bundle', () => {
  it('given a built bundle, when modules are required by path, then each comes from it once, with its own __dirname and strict mode', async () => {
    const root = fixture();
    const built = await buildOperatorBundle(root);
    expect(built.modules).toBe(3);
    const seen = run(root);
    expect(seen.use).toEqual({ used: true, modules: 3 });
    expect(seen.fromFiles).toEqual([]);
    // user.js and the direct require share one counter: 1, 2, then 3.
    expect(seen.n).toBe(3);
    expect(seen.where).toBe(join(root, 'dist', 'src'));
    expect(seen.deep).toBe(join(root, 'dist', 'src', 'sub', 'deep.js'));
    expect(seen.strict).toBe(true);
  });

  it('given a module rebuilt after the bundle, when the process starts, then no module comes from the bundle and the new code runs', async () => {
    const root = fixture();
    await buildOperatorBundle(root);
    writeFileSync(join(root, 'dist', 'src', 'counter.js'), '"use strict";\nexports.next = () => 100;\nexports.where = __dirname;\nexports.strict = true;\n');
    const seen = run(root);
    expect(seen.use).toEqual({ used: false, why: 'dist/src/counter.js changed since the bundle was built' });
    expect(seen.n).toBe(100);
    expect(seen.fromFiles.length).toBe(3);
  });

  it('given no manifest, when the process starts, then every module loads from its file', () => {
    const root = fixture();
    const seen = run(root);
    expect(seen.use.used).toBe(false);
    expect(seen.use.why).toMatch(/erp-operator\.json is missing/);
    expect(seen.n).toBe(3);
    expect(seen.fromFiles.length).toBe(3);
  });

  it('given a module that imports dynamically, when the bundle is built, then the build refuses it', async () => {
    const root = fixture();
    writeFileSync(join(root, 'dist', 'src', 'dynamic.js'), 'exports.load = () => import(process.env.SOME_MODULE);\n');
    await expect(buildOperatorBundle(root)).rejects.toThrow(/would import dynamically/);
  });

  it('given a module of the build tools required by a bundled one, when the bundle is built, then the build refuses it', async () => {
    const root = fixture();
    mkdirSync(join(root, 'dist', 'src', 'build'));
    writeFileSync(join(root, 'dist', 'src', 'build', 'tool.js'), 'exports.x = 1;\n');
    writeFileSync(join(root, 'dist', 'src', 'uses-tool.js'), 'exports.x = require("./build/tool").x;\n');
    await expect(buildOperatorBundle(root)).rejects.toThrow(/cannot serve by path: dist\/src\/build\/tool\.js/);
  });

  it("erp serves the package's modules from the built bundle (ERP_CLI_BUNDLE=stats) with the same output as without it (=0)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'bb-erp-operator-bundle-log-'));
    const file = join(dir, 'live.db');
    const { erp: live, api } = openTestErp(file);
    seedSmallOrg(api);
    live.db.pragma('wal_checkpoint(TRUNCATE)');
    const env = (bundle: string) => ({ ...process.env, ERP_CLI_BUNDLE: bundle });
    const erp = (bundle: string, ...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: env(bundle) });
    const on = erp('stats', 'log', 'replay', file, '--out', join(dir, 'on.db'));
    const off = erp('0', 'log', 'replay', file, '--out', join(dir, 'off.db'));
    expect(on.status).toBe(0);
    expect(on.stderr).toMatch(/^operator bundle: \d+ files served from it$/m);
    expect(off.status).toBe(0);
    expect(off.stderr).not.toMatch(/operator bundle/);
    expect(on.stdout.replace(/on\.db/g, 'off.db')).toBe(off.stdout);
    const hashes = [erp('stats', 'log', 'hash', join(dir, 'on.db')), erp('0', 'log', 'hash', join(dir, 'off.db')), erp('0', 'log', 'hash', file)].map((r) => r.stdout);
    expect(hashes[0]).toMatch(/[0-9a-f]{64}/);
    expect(new Set(hashes).size).toBe(1);
    live.close();
  });

  it.each(['validate-worker', 'strategy-worker', 'campaign-worker'])('the runner\'s %s starts from the operator bundle, before it loads the package', (worker) => {
    const dist = join(__dirname, '..', '..', 'dist', 'src');
    const file = join(dist, 'runner', `${worker}.js`);
    // At exit, the files of dist/src the process loaded from disk.
    const probe = join(mkdtempSync(join(tmpdir(), 'bb-erp-operator-bundle-probe-')), 'probe.js');
    writeFileSync(probe, `process.on('exit', () => process.stderr.write('from files: ' + Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(dist)})).length + '\\n'));\n`);
    // An empty job: the worker starts, then refuses it.
    const r = spawnSync(process.execPath, ['--require', probe, file, '{}'], { encoding: 'utf8', input: '', env: { ...process.env, ERP_CLI_BUNDLE: 'stats' } });
    expect(r.stderr.split('\n')[0]).toMatch(/^operator bundle: \d+ files served from it$/);
    // The worker itself, its start and the two loaders it installs; the package came from the bundle.
    expect(r.stderr).toMatch(/^from files: 4$/m);
    expect(r.stdout).toBe('');
  });
});
