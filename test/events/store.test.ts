import { Type } from '@sinclair/typebox';
import { openDatabase } from '../../src/events/database';
import { defineEvent } from '../../src/events/event-types';
import { EventStore } from '../../src/events/store';
import { defineReadModel, on } from '../../src/projections/read-model';
import { ReadModelRegistry } from '../../src/projections/registry';
import { ErpDb } from '../../src/projections/erp-db';
import { verifyChain } from '../../src/events/chain-verify';
import { testWallClock } from '../support/erp';

const TallyBumped = defineEvent('TestTallyBumped', Type.Object({ name: Type.String(), by: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }));
const TallyBroken = defineEvent('TestTallyBroken', Type.Object({ name: Type.String() }, { additionalProperties: false }));

const tallies = defineReadModel({
  name: 'test-tallies',
  tables: [{ name: 'test_tallies', columns: { name: 'text', total: 'integer', bumps: 'json' }, key: ['name'] }],
  handlers: [
    on(TallyBumped, (tx, d, e) => {
      tx.upsert('test_tallies', { name: d.name, total: 0, bumps: [] as number[] }, (row) => {
        row.total = (row.total as number) + d.by;
        (row.bumps as number[]).push(e.seq);
      });
    }),
    on(TallyBroken, (tx, d) => {
      tx.update('test_tallies', d.name, (row) => { row.total = -1; });
      throw new Error('projection failure');
    }),
  ],
  queries: (t) => ({ total: (name: string) => t.get<{ total: number }>('test_tallies', name)?.total }),
});

function open() {
  return ErpDb.open(':memory:', new ReadModelRegistry().register(tallies), { wallClock: testWallClock });
}

const write = (type: string, data: unknown) => ({ kind: 'write' as const, businessDate: '2026-10-05', actor: 'system', action: 'test', outcome: 'ok' as const, type, data });
const count = (erp: ErpDb) => (erp.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;

describe('an empty event log', () => {
  it('appends a valid event, numbers it and applies its read model in the same transaction', () => {
    const erp = open();
    const [row] = erp.store.append([write(TallyBumped.type, { name: 'a', by: 2 })]);
    expect(row!.seq).toBe(1);
    expect(row!.rowHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tallies.queries(erp.tables).total('a')).toBe(2);
  });

  it('refuses an unknown event type and writes nothing', () => {
    const erp = open();
    expect(() => erp.store.append([write('NoSuchThing', {})])).toThrow(/not defined/);
    expect(count(erp)).toBe(0);
  });

  it('refuses a payload that violates its schema and leaves the database unchanged', () => {
    const erp = open();
    erp.store.append([write(TallyBumped.type, { name: 'a', by: 1 })]);
    expect(() => erp.store.append([write(TallyBumped.type, { name: 'a', by: 2 }), write(TallyBumped.type, { name: 'a', by: 'lots' })])).toThrow(/data\.by must be integer/);
    expect(count(erp)).toBe(1);
    expect(tallies.queries(erp.tables).total('a')).toBe(1);
  });
});

describe('a read model that throws', () => {
  it('leaves neither the event nor any read-model change behind', () => {
    const erp = open();
    erp.store.append([write(TallyBumped.type, { name: 'a', by: 5 })]);
    expect(() => erp.store.append([write(TallyBroken.type, { name: 'a' })])).toThrow('projection failure');
    expect(count(erp)).toBe(1);
    expect(tallies.queries(erp.tables).total('a')).toBe(5);
  });
});

describe('reads and refusals', () => {
  it('are recorded as rows and skipped by read models', () => {
    const erp = open();
    erp.store.append([
      { kind: 'read', businessDate: '2026-10-05', actor: 'maya.chen', action: 'get /x', outcome: 'ok', data: { q: 1 } },
      { kind: 'write', businessDate: '2026-10-05', actor: 'maya.chen', action: 'test', outcome: 'refused', errorCode: 'over_limit', type: null, data: { name: 'a', by: 9 } },
      write(TallyBumped.type, { name: 'a', by: 3 }),
    ]);
    expect(count(erp)).toBe(3);
    expect(tallies.queries(erp.tables).total('a')).toBe(3);
    expect([...erp.store.read({ domainOnly: true })].map((e) => e.seq)).toEqual([3]);
  });
});

describe('the events table', () => {
  it('refuses a raw UPDATE and a raw DELETE', () => {
    const erp = open();
    erp.store.append([write(TallyBumped.type, { name: 'a', by: 1 })]);
    expect(() => erp.db.exec(`UPDATE events SET actor = 'mallory'`)).toThrow(/append-only: UPDATE is refused/);
    expect(() => erp.db.exec('DELETE FROM events')).toThrow(/append-only: DELETE is refused/);
    expect(count(erp)).toBe(1);
  });

  it('chains each row hash to the one before', () => {
    const db = openDatabase(':memory:');
    const sink = { apply: () => undefined };
    const a = new EventStore(db, sink, testWallClock);
    const [r1, r2] = a.append([
      { kind: 'read', businessDate: '2026-10-05', actor: 'x', action: 'get', outcome: 'ok', data: {} },
      { kind: 'read', businessDate: '2026-10-05', actor: 'x', action: 'get', outcome: 'ok', data: {} },
    ]);
    expect(r1!.rowHash).not.toBe(r2!.rowHash);
  });
});

describe('a log whose writes are deferred (a build)', () => {
  const openDeferred = () => ErpDb.open(':memory:', new ReadModelRegistry().register(tallies), { wallClock: testWallClock, mirror: true, deferWrites: true });

  it('chains the next event to the last one kept when a nested append fails after its row was queued', () => {
    const erp = openDeferred();
    erp.transaction(() => {
      erp.store.append([write(TallyBumped.type, { name: 'a', by: 1 })]);
      expect(() => erp.transaction(() => erp.store.append([write(TallyBumped.type, { name: 'a', by: 2 }), write(TallyBroken.type, { name: 'a' })]))).toThrow('projection failure');
      expect(erp.store.lastSeq()).toBe(1);
      erp.store.append([write(TallyBumped.type, { name: 'a', by: 4 })]);
    });
    expect(count(erp)).toBe(2);
    expect(verifyChain(erp.db)).toMatchObject({ ok: true });
    expect(erp.tables.get<{ total: number }>('test_tallies', 'a')!.total).toBe(5);
  });

  it('builds the same log and tables as a plain one for the same appends', () => {
    const plain = open();
    const deferred = openDeferred();
    for (const erp of [plain, deferred]) {
      erp.transaction(() => {
        erp.store.append([write(TallyBumped.type, { name: 'a', by: 1 }), write(TallyBumped.type, { name: 'b', by: 2 })]);
        expect(() => erp.store.append([write(TallyBroken.type, { name: 'b' })])).toThrow('projection failure');
        erp.store.append([write(TallyBumped.type, { name: 'b', by: 3 })]);
      });
    }
    const rows = (erp: ErpDb) => erp.db.prepare('SELECT seq, kind, actor, outcome, type, data FROM events ORDER BY seq').all();
    expect(rows(deferred)).toEqual(rows(plain));
    expect(deferred.db.prepare('SELECT * FROM test_tallies ORDER BY name').all()).toEqual(plain.db.prepare('SELECT * FROM test_tallies ORDER BY name').all());
  });
});
