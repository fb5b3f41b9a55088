import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advanceTo } from '../../src/api/control-app';
import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { ReplayMismatch, verifyStartFile, verifyStartOverBase, type VerifiedBase } from '../../src/grader/start-snapshot';
import { createAppRegistry } from '../../src/projections';
import { BUILD_STORAGE, ErpDb } from '../../src/projections/erp-db';
import { buildCompany } from '../../src/runner/company';
import { settleToSingleFile } from '../../src/runner/db-file';
import { issueTokens } from '../../src/sim/credentials';

const root = mkdtempSync(join(tmpdir(), 'bb-erp-start-base-'));
const registry = createAppRegistry();
const companyFile = join(root, 'company.db');
let base: VerifiedBase;
let world: ReturnType<typeof buildCompany>;

/** A scenario built on the company: a copy of it, then a task's own requests (tokens, two days of the clock). */
function scenarioOnCompany(name: string): string {
  const file = join(root, `${name}.db`);
  copyFileSync(companyFile, file);
  const erp = ErpDb.open(file, registry, BUILD_STORAGE);
  const api = new Api(erp, allRoutes());
  api.batch(() => {
    issueTokens(api, world.users.slice(0, 3), 'scenario');
    advanceTo(api, '2026-10-06');
  });
  erp.close();
  settleToSingleFile(file);
  return file;
}

beforeAll(() => {
  const erp = ErpDb.open(companyFile, registry, BUILD_STORAGE);
  world = buildCompany('halvorsen', 0, new Api(erp, allRoutes()));
  erp.close();
  settleToSingleFile(companyFile);
  base = { file: companyFile, record: verifyStartFile(companyFile, registry) };
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a scenario built on a verified company', () => {
  it('is verified over the company with the record a replay of every event gives', () => {
    const file = scenarioOnCompany('same');
    const over = verifyStartOverBase(file, registry, base);
    const whole = verifyStartFile(file, registry);
    expect(over!.events).toBeGreaterThan(base.record.events);
    expect(over).toEqual(whole);
  });

  it.each([['a table its own events never wrote', 'vendors', "UPDATE vendors SET name = name || ' (changed)'"], ['a table its own events wrote', 'api_tokens', "UPDATE api_tokens SET label = 'changed'"]])(
    'is refused when %s differs from what its events say', (_what, table, sql) => {
      const file = scenarioOnCompany(`changed-${table}`);
      const db = new Database(file);
      db.exec(sql);
      db.close();
      expect(() => verifyStartOverBase(file, registry, base)).toThrow(ReplayMismatch);
      expect(() => verifyStartOverBase(file, registry, base)).toThrow(new RegExp(`events in ${table};`));
    });

  it('is verified whole when the company file changed since its verification, with the same record', () => {
    const file = scenarioOnCompany('changed-base');
    const stale: VerifiedBase = { file: companyFile, record: { ...base.record, file_sha256: '0'.repeat(64) } };
    expect(verifyStartOverBase(file, registry, stale)).toBeUndefined();
    expect(verifyStartFile(file, registry, stale)).toEqual(verifyStartFile(file, registry));
  });

  it('is verified whole when it does not begin with the company\'s events', () => {
    const file = scenarioOnCompany('other-history');
    const other = { ...base.record, head: 'f'.repeat(64) };
    const db = new Database(file);
    db.exec('DROP TRIGGER events_refuse_update');
    db.prepare("UPDATE events SET actor = 'someone else' WHERE seq = 1").run();
    db.close();
    expect(verifyStartOverBase(file, registry, base)).toBeUndefined();
    expect(() => verifyStartFile(file, registry, { file: companyFile, record: other })).toThrow(/hash chain breaks at event 1/);
  });
});
