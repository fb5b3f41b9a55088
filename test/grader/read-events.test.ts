import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachForScan, openDatabase, SCAN_CACHE_KIB } from '../../src/events/database';
import { readEvents } from '../../src/grader/grade';
import { createAppRegistry } from '../../src/projections';
import { ErpDb } from '../../src/projections/erp-db';
import { testWallClock } from '../support/erp';

const dir = mkdtempSync(join(tmpdir(), 'bb-erp-read-events-'));
const file = join(dir, 'log.db');

beforeAll(() => {
  const erp = ErpDb.open(file, createAppRegistry(), { wallClock: testWallClock });
  erp.store.append([
    { kind: 'write', businessDate: '2026-10-05', actor: 'system', action: 'test', outcome: 'refused', errorCode: 'forbidden', data: { asked: 'first' } },
    { kind: 'read', businessDate: '2026-10-05', actor: 'maya.chen', action: 'get /whoami', outcome: 'ok', data: { params: {}, query: { n: 2 } } },
  ]);
  erp.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the events a grade reads', () => {
  it('given payloads read on first use, then every row equals the row read with its payload', () => {
    const db = openDatabase(file, { readonly: true });
    const eager = readEvents(db);
    const lazy = readEvents(db, { payloads: 'on-read' });
    expect(lazy.map((e) => e.data)).toEqual([{ asked: 'first' }, { params: {}, query: { n: 2 } }]);
    expect(lazy).toEqual(eager);
    db.close();
  });

  it('given payloads read on first use, when the database closes before a payload is read, then reading it fails rather than answering nothing', () => {
    const db = openDatabase(file, { readonly: true });
    const [first, second] = readEvents(db, { payloads: 'on-read' });
    expect(first!.data).toEqual({ asked: 'first' });
    db.close();
    expect(first!.data).toEqual({ asked: 'first' });
    expect(() => second!.data).toThrow(/not open/);
  });

  it('given a payload set by the reader, then the row answers that and never reads the stored one', () => {
    const db = openDatabase(file, { readonly: true });
    const [first] = readEvents(db, { payloads: 'on-read' });
    db.close();
    first!.data = { replaced: true };
    expect(first!.data).toEqual({ replaced: true });
  });
});

describe('the page cache of a database read through', () => {
  it('is the scanning cache for a read-only connection and an attached file, and SQLite\'s default for a served one', () => {
    const served = openDatabase(join(dir, 'served.db'));
    const defaultCache = served.pragma('cache_size', { simple: true });
    expect(defaultCache).not.toBe(-SCAN_CACHE_KIB);
    attachForScan(served, file, 'other');
    expect(served.pragma('other.cache_size', { simple: true })).toBe(-SCAN_CACHE_KIB);
    expect(served.pragma('main.cache_size', { simple: true })).toBe(defaultCache);
    expect((served.prepare('SELECT COUNT(*) AS n FROM other.events').get() as { n: number }).n).toBe(2);
    served.close();
    const read = openDatabase(file, { readonly: true });
    expect(read.pragma('cache_size', { simple: true })).toBe(-SCAN_CACHE_KIB);
    read.close();
  });
});
