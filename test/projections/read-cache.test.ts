import { Type } from '@sinclair/typebox';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/events/database';
import { defineEvent } from '../../src/events/event-types';
import { ErpDb } from '../../src/projections/erp-db';
import { defineReadModel, on } from '../../src/projections/read-model';
import { ReadModelRegistry } from '../../src/projections/registry';
import { testWallClock } from '../support/erp';

const CounterSet = defineEvent('TestCounterSet', Type.Object({ name: Type.String(), value: Type.Integer(), tags: Type.Array(Type.String()) }, { additionalProperties: false }));
const CounterFailed = defineEvent('TestCounterFailed', Type.Object({ name: Type.String() }, { additionalProperties: false }));

const counters = defineReadModel({
  name: 'test-counters',
  tables: [{ name: 'test_counters', columns: { name: 'text', value: 'integer', tags: 'json' }, key: ['name'], indexes: [['value']] }],
  handlers: [
    on(CounterSet, (tx, d) => void tx.upsert('test_counters', { name: d.name, value: d.value, tags: d.tags }, (r) => { r.value = d.value; r.tags = d.tags; })),
    on(CounterFailed, (tx, d) => {
      tx.update('test_counters', d.name, (r) => { r.value = -1; });
      throw new Error('projection failure');
    }),
  ],
});

const registry = () => new ReadModelRegistry().register(counters);
const set = (name: string, value: number, tags: string[] = []) => ({ kind: 'write' as const, businessDate: '2026-10-05', actor: 'system', action: 'test', outcome: 'ok' as const, type: CounterSet.type, data: { name, value, tags } });

describe('a read-model table read twice with no write between', () => {
  it('answers the second read with the same frozen row, and a list the caller may sort', () => {
    const erp = ErpDb.open(':memory:', registry(), { wallClock: testWallClock });
    erp.store.append([set('a', 1, ['x']), set('b', 2)]);
    const first = erp.tables.get<{ value: number; tags: string[] }>('test_counters', 'a');
    expect(erp.tables.get('test_counters', 'a')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first!.tags)).toBe(true);
    expect(() => { (first as { value: number }).value = 9; }).toThrow(TypeError);
    const list = erp.tables.find<{ name: string }>('test_counters', {}, { orderBy: 'name' });
    list.reverse();
    expect(erp.tables.find<{ name: string }>('test_counters', {}, { orderBy: 'name' }).map((r) => r.name)).toEqual(['a', 'b']);
  });
});

describe('a cached read-model table', () => {
  it('answers from the table again once an event writes to it', () => {
    const erp = ErpDb.open(':memory:', registry(), { wallClock: testWallClock });
    erp.store.append([set('a', 1)]);
    expect(erp.tables.count('test_counters', { value: 1 })).toBe(1);
    const before = erp.tables.version('test_counters');
    erp.store.append([set('a', 5)]);
    expect(erp.tables.version('test_counters')).toBeGreaterThan(before);
    expect(erp.tables.get<{ value: number }>('test_counters', 'a')!.value).toBe(5);
    expect(erp.tables.count('test_counters', { value: 1 })).toBe(0);
    expect(erp.tables.all<{ n: number }>('SELECT COUNT(*) AS n FROM test_counters WHERE value = ?', 5)).toEqual([{ n: 1 }]);
  });

  it('forgets what a rolled-back projection wrote', () => {
    const erp = ErpDb.open(':memory:', registry(), { wallClock: testWallClock });
    erp.store.append([set('a', 1)]);
    expect(() => erp.store.append([{ ...set('a', 0), type: CounterFailed.type, data: { name: 'a' } }])).toThrow(/projection failure/);
    expect(erp.tables.get<{ value: number }>('test_counters', 'a')!.value).toBe(1);
  });

  it.each([['read from SQLite', false], ['held in memory', true]])('sees a commit another connection made to the file, its tables %s', (_how, mirror) => {
    const dir = mkdtempSync(join(tmpdir(), 'bb-erp-read-cache-'));
    try {
      const file = join(dir, 'erp.db');
      const writer = ErpDb.open(file, registry(), { wallClock: testWallClock });
      writer.store.append([set('a', 1)]);
      const reader = ErpDb.open(file, registry(), { wallClock: testWallClock, mirror });
      expect(reader.tables.get<{ value: number }>('test_counters', 'a')!.value).toBe(1);
      writer.store.append([set('a', 2)]);
      expect(reader.tables.get<{ value: number }>('test_counters', 'a')!.value).toBe(2);
      writer.close();
      reader.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the rows a write did not touch, and reads the written row and the lists again', () => {
    const erp = ErpDb.open(':memory:', registry(), { wallClock: testWallClock });
    erp.store.append([set('a', 1), set('b', 2)]);
    const b = erp.tables.get('test_counters', 'b');
    expect(erp.tables.get('test_counters', 'c')).toBeUndefined();
    expect(erp.tables.count('test_counters', {})).toBe(2);
    erp.store.append([set('a', 3), set('c', 4)]);
    expect(erp.tables.get('test_counters', 'b')).toBe(b);
    expect(erp.tables.get<{ value: number }>('test_counters', 'a')!.value).toBe(3);
    expect(erp.tables.get<{ value: number }>('test_counters', 'c')!.value).toBe(4);
    expect(erp.tables.count('test_counters', {})).toBe(3);
  });

  it('rewrites only the columns an update changed', () => {
    const erp = ErpDb.open(':memory:', registry(), { wallClock: testWallClock });
    erp.store.append([set('a', 1, ['x'])]);
    erp.store.append([set('a', 1, ['y'])]);
    expect(erp.tables.get('test_counters', 'a')).toEqual({ name: 'a', value: 1, tags: ['y'] });
  });
});

describe('a connection from openDatabase', () => {
  it('prepares each SQL text once, and hands a running statement out only once', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2)');
    const sql = 'SELECT n FROM t ORDER BY n';
    const stmt = db.prepare(sql);
    expect(db.prepare(sql)).toBe(stmt);
    const seen: unknown[] = [];
    for (const row of stmt.iterate()) {
      const again = db.prepare(sql);
      expect(again).not.toBe(stmt);
      seen.push(row);
    }
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('hands a statement out in its default mode whatever its last user set', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (7)');
    expect(db.prepare('SELECT n FROM t').raw(true).get()).toEqual([7]);
    expect(db.prepare('SELECT n FROM t').get()).toEqual({ n: 7 });
    expect(db.prepare('SELECT n FROM t').pluck().get()).toBe(7);
    expect(db.prepare('SELECT n FROM t').get()).toEqual({ n: 7 });
  });
});

describe('the tables written through one access', () => {
  it('given rows only added to a table, then it is not rewritten; given one overwritten or deleted, then it is', () => {
    const erp = ErpDb.open(':memory:', registry(), { wallClock: testWallClock });
    erp.store.append([set('a', 1), set('b', 2)]);
    expect([...erp.tables.rewrittenTables()]).toEqual([]);
    erp.store.append([set('a', 3)]);
    expect([...erp.tables.rewrittenTables()]).toEqual(['test_counters']);
    const other = ErpDb.open(':memory:', registry(), { wallClock: testWallClock });
    other.tables.insert('test_counters', { name: 'z', value: 1, tags: [] });
    expect([...other.tables.rewrittenTables()]).toEqual([]);
    other.tables.delete('test_counters', 'z');
    expect([...other.tables.rewrittenTables()]).toEqual(['test_counters']);
  });
});
