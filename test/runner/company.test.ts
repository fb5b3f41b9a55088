import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { createAppRegistry } from '../../src/projections';
import { ErpDb } from '../../src/projections/erp-db';
import { buildCompany, generateCompany, verifiedCompany } from '../../src/runner/company';

const root = mkdtempSync(join(tmpdir(), 'bb-erp-company-'));
process.env.BB_ERP_CACHE_DIR = join(root, 'cache');

describe('generating a company alone', () => {
  const out = join(root, 'small-0');
  const lines: string[] = [];
  const first = generateCompany('small-company', { seed: 0, out, log: (l) => lines.push(l) });

  it('writes scenario.db holding its whole history, world.json and company.json', () => {
    expect(first.cached).toBe(false);
    for (const f of ['scenario.db', 'world.json', 'company.json']) expect(existsSync(join(out, f))).toBe(true);
    const db = new Database(join(out, 'scenario.db'), { readonly: true });
    const events = (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
    db.close();
    expect(first.manifest).toMatchObject({ company: 'small-company', seed: 0, business_date: '2026-10-05', events });
    expect(JSON.parse(readFileSync(join(out, 'world.json'), 'utf8'))).toMatchObject({ company: 'small-company', seed: 0 });
  });

  it('reports its health: the small company has books that balance but no AP or AR at all, and says so', () => {
    const health = new Map(first.manifest.health.map((h) => [h.name, h]));
    expect(health.get('trial balance')).toEqual({ name: 'trial balance', ok: true, detail: 'debits 0.00, credits 0.00' });
    expect(health.get('AP aging has current and overdue items')).toEqual({ name: 'AP aging has current and overdue items', ok: false, detail: 'current 0.00, overdue 0.00' });
    expect(health.get('AR aging has current and overdue items')).toEqual({ name: 'AR aging has current and overdue items', ok: false, detail: 'current 0.00, overdue 0.00' });
    expect(first.manifest.health.filter((h) => !h.ok)).toHaveLength(2);
    expect(lines).toContain(`small-company seed 0: 2 of ${first.manifest.health.length} health checks fail`);
    expect(lines).toContain('  AP aging has current and overdue items: current 0.00, overdue 0.00');
    expect(lines).toContain('  AR aging has current and overdue items: current 0.00, overdue 0.00');
  });

  it('checks its health without writing to its log: the events are the generator\'s alone', () => {
    const erp = ErpDb.open(':memory:', createAppRegistry(), { fast: true });
    buildCompany('small-company', 0, new Api(erp, allRoutes()));
    expect(first.manifest.events).toBe(erp.store.lastSeq());
    erp.close();
  });

  it('is kept the second time, and says so', () => {
    const again: string[] = [];
    expect(generateCompany('small-company', { seed: 0, out, log: (l) => again.push(l) }).cached).toBe(true);
    expect(again).toEqual([`small-company seed 0: using the generated company in ${out}`]);
  });

  it('is built again with force, from the generator and not the cache', () => {
    const again: string[] = [];
    const forced = generateCompany('small-company', { seed: 0, out, force: true, log: (l) => again.push(l) });
    expect(forced.cached).toBe(false);
    expect(again.filter((l) => l.includes('cache'))).toEqual([]);
    expect(forced.manifest.events).toBe(first.manifest.events);
  });

  it('keeps one build per company and seed in the cache: a build by older code is dropped', () => {
    const cache = join(root, 'cache', 'small-company');
    const stale = join(cache, 'seed-0-0123456789abcdef');
    const otherSeed = join(cache, 'seed-10-0123456789abcdef');
    for (const dir of [stale, otherSeed]) mkdirSync(dir, { recursive: true });
    generateCompany('small-company', { seed: 0, out, force: true });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(otherSeed)).toBe(true);
    expect(readdirSync(cache).filter((d) => d.startsWith('seed-0-'))).toHaveLength(1);
  });

  it('is copied from the company cache into another folder', () => {
    const other: string[] = [];
    generateCompany('small-company', { seed: 0, out: join(root, 'small-0-copy'), log: (l) => other.push(l) });
    expect(other[0]).toBe('small-company seed 0: copied from the company cache');
  });

  it('refuses a company nobody generates, naming the ones that exist', () => {
    expect(() => generateCompany('southgate', { seed: 0, out: join(root, 'x') })).toThrow("No company generator 'southgate' (known: small-company, northgate");
  });
});

describe('a company in the cache, verified', () => {
  const out = join(root, 'small-verified');
  generateCompany('small-company', { seed: 3, out });
  const registry = createAppRegistry();

  it('is verified the first time it is asked for: its start record is written beside the cached database, the record of its events', () => {
    const base = verifiedCompany('small-company', 3, registry)!;
    expect(base.file).toMatch(/company\.db$/);
    expect(existsSync(join(dirname(base.file), 'start.json'))).toBe(true);
    const db = new Database(base.file, { readonly: true });
    const head = db.prepare('SELECT seq, row_hash FROM events ORDER BY seq DESC LIMIT 1').get() as { seq: number; row_hash: string };
    db.close();
    expect(base.record).toMatchObject({ events: head.seq, head: head.row_hash });
    expect(verifiedCompany('small-company', 3, registry)).toEqual(base);
  });

  it('drops that record when the company is built again, since it is of other bytes', () => {
    const before = verifiedCompany('small-company', 3, registry)!;
    generateCompany('small-company', { seed: 3, out, force: true });
    expect(existsSync(join(dirname(before.file), 'start.json'))).toBe(false);
    expect(verifiedCompany('small-company', 3, registry)!.record.file_sha256).not.toBe(before.record.file_sha256);
  });

  it('is not there for a company nobody built', () => {
    expect(verifiedCompany('small-company', 99, registry)).toBeUndefined();
  });
});
