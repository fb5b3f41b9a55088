import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachForScan, openDatabase, SCAN_CACHE_KIB } from '../../src/events/database';
import { readEvents } from '../../src/grader/grade';
import { PAYLOADS_AHEAD, payloadReader } from '../../src/grader/attempt-events';
import type { EventRow } from '../../src/events/event-row';
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

  it('given payloads read on first use, then a copy or the JSON of a row carries its payload, as the eager row\'s does', () => {
    const db = openDatabase(file, { readonly: true });
    const eager = readEvents(db);
    const lazy = readEvents(db, { payloads: 'on-read' });
    expect(lazy.map((e) => ({ ...e }))).toEqual(eager.map((e) => ({ ...e })));
    expect(lazy.map((e) => JSON.stringify(e))).toEqual(eager.map((e) => JSON.stringify(e)));
    expect(Object.keys(lazy[0]!)).toEqual(Object.keys(eager[0]!));
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

describe('the columns stored after the payload, in rows read on first use', () => {
  const allocatedFile = join(dir, 'allocated.db');
  beforeAll(() => {
    const erp = ErpDb.open(allocatedFile, createAppRegistry(), { wallClock: testWallClock });
    erp.store.append([
      { kind: 'write', businessDate: '2026-10-05', actor: 'system', action: 'test', outcome: 'refused', errorCode: 'conflict', data: { n: 1 }, allocated: { APINV: 7 } },
      { kind: 'write', businessDate: '2026-10-05', actor: 'system', action: 'test', outcome: 'refused', errorCode: 'conflict', data: { n: 2 } },
    ]);
    erp.close();
  });

  it('given rows read without them, when allocated and the row hash are read, then they are the stored ones', () => {
    const db = openDatabase(allocatedFile, { readonly: true });
    const stored = db.prepare('SELECT allocated, row_hash FROM events ORDER BY seq').raw(true).all() as [string | null, string][];
    const lazy = readEvents(db, { payloads: 'on-read' });
    expect(lazy.map((e) => e.allocated)).toEqual([{ APINV: 7 }, null]);
    expect(lazy.map((e) => e.rowHash)).toEqual(stored.map(([, hash]) => hash));
    expect(lazy).toEqual(readEvents(db));
    db.close();
  });

  it('given rows read without them, when the database closes before they are read, then reading fails, and a value set by the reader is kept', () => {
    const db = openDatabase(allocatedFile, { readonly: true });
    const [first, second] = readEvents(db, { payloads: 'on-read' });
    const hash = first!.rowHash;
    db.close();
    expect(first!.allocated).toEqual({ APINV: 7 });
    expect(first!.rowHash).toBe(hash);
    expect(() => second!.rowHash).toThrow(/not open/);
    second!.allocated = { APINV: 8 };
    expect(second!.allocated).toEqual({ APINV: 8 });
  });
});

describe('the payloads of rows read on first use', () => {
  // A log of 200 events: even seqs are InvoiceEntered, odd ones PaymentMade, every tenth has no type.
  const typeOf = (seq: number) => (seq % 10 === 0 ? null : seq % 2 === 0 ? 'InvoiceEntered' : 'PaymentMade');
  const openLog = () => {
    const db = openDatabase(':memory:');
    const insert = db.prepare('INSERT INTO events (seq, kind, business_date, wall_time, actor, method, path, action, outcome, type, data, row_hash) VALUES (?, \'write\', \'2026-10-05\', \'\', \'system\', \'INTERNAL\', \'\', \'test\', \'ok\', ?, ?, \'\')');
    for (let seq = 1; seq <= 200; seq++) insert.run(seq, typeOf(seq), JSON.stringify({ seq }));
    return db;
  };
  const row = (seq: number) => ({ seq, type: typeOf(seq) }) as EventRow;

  it('given a reader, then each row gets its own payload, whatever order they are asked in', () => {
    const db = openLog();
    const read = payloadReader(db, 200);
    for (const seq of [7, 3, 200, 8, 10, 9, 150, 4, 7, 199]) expect(JSON.parse(read(row(seq)))).toEqual({ seq });
    db.close();
  });

  it('given one payload of a type read, when the database closes, then the next ones of that type are still answered, up to the batch, and no other type is', () => {
    const db = openLog();
    const read = payloadReader(db, 200);
    const invoices = Array.from({ length: 200 }, (_, i) => i + 1).filter((seq) => typeOf(seq) === 'InvoiceEntered');
    expect(JSON.parse(read(row(invoices[0]!)))).toEqual({ seq: invoices[0] });
    db.close();
    for (const seq of invoices.slice(1, PAYLOADS_AHEAD)) expect(JSON.parse(read(row(seq)))).toEqual({ seq });
    expect(() => read(row(invoices[PAYLOADS_AHEAD]!))).toThrow(/not open/);
    expect(() => read(row(3))).toThrow(/not open/);
    expect(() => read(row(20))).toThrow(/not open/);
  });

  it('given the range ends before the log does, then no payload past its end is fetched ahead', () => {
    const db = openLog();
    const read = payloadReader(db, 50);
    expect(JSON.parse(read(row(42)))).toEqual({ seq: 42 });
    db.close();
    expect(JSON.parse(read(row(48)))).toEqual({ seq: 48 });
    expect(() => read(row(52))).toThrow(/not open/);
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
