import fc from 'fast-check';
import { openDatabase, type Db } from '../../src/events/database';
import { compareCodePoints, compareSqlValues } from '../../src/projections/table-mirror';
import { TableAccess, type FindOptions, type Where } from '../../src/projections/table-access';
import { tableDdl, type Row, type TableSpec } from '../../src/projections/table-spec';

const SPEC: TableSpec = {
  name: 'things',
  columns: { doc: 'text', line: 'integer', label: 'text', qty: 'real', open: 'bool', tags: 'json', rank: 'integer' },
  key: ['doc', 'line'],
  indexes: [['label']],
};
const catalog = new Map([[SPEC.name, SPEC]]);

function open(options: { mirror?: boolean; deferWrites?: boolean } = {}): { db: Db; tables: TableAccess } {
  const db = openDatabase(':memory:', { deferWrites: options.deferWrites });
  db.exec(tableDdl(SPEC));
  return { db, tables: new TableAccess(db, catalog, { mirror: options.mirror }) };
}

const docs = ['A', 'B', 'b', 'é', '𝔸', '\uffff'];
const labels = [null, '', 'x', 'X', 'x y', '10', '9', '10.0', 'ß', '😀', '\ue000'];
const row = fc.record({
  doc: fc.constantFrom(...docs),
  line: fc.integer({ min: 1, max: 6 }),
  label: fc.constantFrom(...labels),
  qty: fc.oneof(fc.constant(null), fc.integer({ min: -3, max: 3 }), fc.double({ min: -5, max: 5, noNaN: true })),
  open: fc.oneof(fc.constant(null), fc.boolean()),
  tags: fc.oneof(fc.constant(null), fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 })),
  rank: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 4 })),
});
type Op =
  | { kind: 'insert'; row: Row }
  | { kind: 'overwrite'; row: Row }
  | { kind: 'delete'; doc: string; line: number }
  | { kind: 'failed'; ops: Op[]; readInside: boolean };
const simpleOp: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: row.map((r) => ({ kind: 'insert' as const, row: r })) },
  { weight: 2, arbitrary: row.map((r) => ({ kind: 'overwrite' as const, row: r })) },
  { weight: 1, arbitrary: fc.record({ doc: fc.constantFrom(...docs), line: fc.integer({ min: 1, max: 6 }) }).map((k) => ({ kind: 'delete' as const, ...k })) },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: simpleOp },
  { weight: 1, arbitrary: fc.tuple(fc.array(simpleOp, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([ops, readInside]) => ({ kind: 'failed' as const, ops, readInside })) },
);

const whereArb: fc.Arbitrary<Where> = fc.record({
  doc: fc.option(fc.oneof(fc.constantFrom(...docs), fc.array(fc.constantFrom(...docs, null), { maxLength: 3 })), { nil: undefined }),
  label: fc.option(fc.oneof(fc.constantFrom(...labels), fc.constantFrom(10, 9)), { nil: undefined }),
  open: fc.option(fc.oneof(fc.boolean(), fc.constant(null)), { nil: undefined }),
  rank: fc.option(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant('2'), fc.constant(null)), { nil: undefined }),
  qty: fc.option(fc.constantFrom(0, 1, -1, 0.5), { nil: undefined }),
}, { requiredKeys: [] });
const optionsArb: fc.Arbitrary<FindOptions> = fc.record({
  orderBy: fc.option(fc.array(fc.constantFrom('label', 'label desc', 'qty', 'qty DESC', 'rank', 'open', 'line desc', 'doc', 'tags'), { minLength: 1, maxLength: 2 }), { nil: undefined }),
  limit: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  offset: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
}, { requiredKeys: [] });

/** Plays an op, a failed group of ops inside a transaction that throws. */
function play(t: { db: Db; tables: TableAccess }, o: Op): void {
  const attempt = (f: () => void) => {
    try {
      f();
    } catch (err) {
      if (!(err as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) throw err;
    }
  };
  switch (o.kind) {
    case 'insert':
      return attempt(() => t.db.transaction(() => t.tables.insert('things', o.row))());
    case 'overwrite': {
      const before = t.tables.get('things', { doc: o.row.doc, line: o.row.line });
      return t.db.transaction(() => t.tables.overwrite('things', o.row, before))();
    }
    case 'delete':
      return void t.db.transaction(() => t.tables.delete('things', { doc: o.doc, line: o.line }))();
    case 'failed':
      return attempt(() => t.db.transaction(() => {
        for (const inner of o.ops) play(t, inner);
        // A read inside: a queue holding writes of the transaction must open its savepoint first.
        if (o.readInside) t.tables.all('SELECT COUNT(*) AS n FROM things');
        throw Object.assign(new Error('request failed'), { code: 'SQLITE_CONSTRAINT_TEST' });
      })());
  }
}

const sorted = (rows: readonly Row[]) => JSON.stringify(rows);

describe('a read-model table held in memory beside SQLite', () => {
  it('answers every find, count and get as SQLite answers it, through writes and rolled-back transactions', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 25 }), fc.array(fc.tuple(whereArb, optionsArb), { minLength: 1, maxLength: 6 }), (ops, queries) => {
      const plain = open();
      const mirrored = open({ mirror: true });
      const deferred = open({ mirror: true, deferWrites: true });
      // Wrapped in an outer transaction, as a build's requests are inside their day's.
      for (const t of [plain, mirrored, deferred]) {
        t.db.transaction(() => {
          // Read first, so that the mirrors are loaded and follow every write.
          t.tables.find('things');
          for (const o of ops) play(t, o);
        })();
      }
      for (const [where, options] of queries) {
        const expected = plain.tables.find('things', where, options);
        expect(sorted(mirrored.tables.find('things', where, options))).toBe(sorted(expected));
        expect(sorted(deferred.tables.find('things', where, options))).toBe(sorted(expected));
        expect(mirrored.tables.count('things', where)).toBe(plain.tables.count('things', where));
        expect(deferred.tables.count('things', where)).toBe(plain.tables.count('things', where));
      }
      for (const doc of docs) for (let line = 1; line <= 6; line++) {
        const key = { doc, line };
        expect(JSON.stringify(mirrored.tables.get('things', key))).toBe(JSON.stringify(plain.tables.get('things', key)));
        expect(JSON.stringify(deferred.tables.get('things', key))).toBe(JSON.stringify(plain.tables.get('things', key)));
      }
      const all = (t: { db: Db }) => JSON.stringify(t.db.prepare('SELECT * FROM things ORDER BY doc, line').all());
      expect(all(deferred)).toBe(all(plain));
    }), { numRuns: 150 });
  });

  it('reloads from SQLite a table it had loaded inside a savepoint that rolled back', () => {
    const t = open({ mirror: true });
    t.db.transaction(() => {
      expect(() => t.db.transaction(() => {
        t.tables.insert('things', { doc: 'A', line: 1 });
        expect(t.tables.get('things', { doc: 'A', line: 1 })).toBeDefined();
        throw new Error('request failed');
      })()).toThrow('request failed');
      expect(t.tables.get('things', { doc: 'A', line: 1 })).toBeUndefined();
      expect(t.tables.find('things')).toEqual([]);
    })();
  });

  it('hands out frozen rows, and lists the caller may sort', () => {
    const t = open({ mirror: true });
    t.tables.insert('things', { doc: 'A', line: 1, tags: ['a'] });
    t.tables.insert('things', { doc: 'B', line: 1 });
    const first = t.tables.get<{ tags: string[] }>('things', { doc: 'A', line: 1 })!;
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.tags)).toBe(true);
    t.tables.find('things').reverse();
    expect(t.tables.find<{ doc: string }>('things').map((r) => r.doc)).toEqual(['A', 'B']);
  });

  it('stores a value of another type than its column as SQLite does (read back), and finds it by SQLite\'s rules', () => {
    const plain = open();
    const mirrored = open({ mirror: true });
    for (const t of [plain, mirrored]) {
      t.tables.find('things');
      t.tables.insert('things', { doc: 'A', line: 1, label: 12 as unknown as string, rank: '3' as unknown as number, qty: 0.1 + 0.2 });
    }
    const row = mirrored.tables.get('things', { doc: 'A', line: 1 });
    expect(row).toEqual(plain.tables.get('things', { doc: 'A', line: 1 }));
    // A JavaScript number is bound as a REAL: a TEXT column keeps '12.0'.
    expect(row).toMatchObject({ label: '12.0', rank: 3 });
    expect(mirrored.tables.find('things', { rank: '3' })).toEqual(plain.tables.find('things', { rank: '3' }));
    expect(mirrored.tables.find('things', { label: 12 })).toHaveLength(1);
  });
});

describe('a table written on a connection that defers its writes', () => {
  it('refuses a row whose key is taken with the error SQLite gives, and writes nothing of it', () => {
    const plain = open();
    const deferred = open({ mirror: true, deferWrites: true });
    const errors = [plain, deferred].map((t) => {
      t.tables.insert('things', { doc: 'A', line: 1 });
      try {
        t.db.transaction(() => t.tables.insert('things', { doc: 'A', line: 1, label: 'again' }))();
      } catch (err) {
        return { code: (err as { code: string }).code, message: (err as Error).message, name: (err as Error).name };
      }
      return undefined;
    });
    expect(errors[1]).toEqual(errors[0]);
    expect(errors[0]).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(deferred.tables.find('things')).toEqual(plain.tables.find('things'));
  });

  it('reports a delete or overwrite of a missing row as changing nothing, as SQLite does', () => {
    const deferred = open({ mirror: true, deferWrites: true });
    deferred.db.transaction(() => {
      expect(deferred.tables.delete('things', { doc: 'A', line: 9 })).toBe(0);
      deferred.tables.overwrite('things', { doc: 'A', line: 9, label: 'x' });
      deferred.tables.insert('things', { doc: 'A', line: 1 });
      expect(deferred.tables.delete('things', { doc: 'A', line: 1 })).toBe(1);
    })();
    expect(deferred.db.prepare('SELECT COUNT(*) AS n FROM things').get()).toEqual({ n: 0 });
  });
});

describe('SQLite\'s order of values', () => {
  it('orders strings by their UTF-8 bytes', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
      expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))));
    }), { numRuns: 500 });
    expect(compareCodePoints('😀', '\uffff')).toBeGreaterThan(0);
  });

  it('puts NULL first, then numbers, then text', () => {
    const values = ['a', 2, null, true, 1.5, '', false];
    expect([...values].sort(compareSqlValues)).toEqual([null, false, true, 1.5, 2, '', 'a']);
  });
});
