import type { Statement } from 'better-sqlite3';
import { openDatabase, writeLater, writeQueueOf, type Db } from '../../src/events/database';
import { WriteQueue } from '../../src/events/write-queue';

function open(): Db {
  const db = openDatabase(':memory:', { deferWrites: true });
  db.exec('CREATE TABLE notes (n INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  return db;
}

const add = (db: Db, n: number, text = `note ${n}`) => writeLater(db, db.prepare('INSERT INTO notes (n, text) VALUES (?, ?)'), [n, text]);
const notes = (db: Db) => (db.prepare('SELECT n FROM notes ORDER BY n').all() as { n: number }[]).map((r) => r.n);

describe('a connection that defers its writes', () => {
  it('runs a write outside any transaction at once', () => {
    const db = open();
    add(db, 1);
    expect(notes(db)).toEqual([1]);
  });

  it('holds the writes of a transaction until something reads the file, then runs them in order', () => {
    const db = open();
    db.transaction(() => {
      add(db, 2);
      add(db, 1);
      expect(writeQueueOf(db)!.holding).toBe(true);
      expect(notes(db)).toEqual([1, 2]);
      add(db, 3);
    })();
    expect(notes(db)).toEqual([1, 2, 3]);
  });

  it('drops what a nested transaction queued when it throws, and keeps what its parent queued', () => {
    const db = open();
    db.transaction(() => {
      add(db, 1);
      expect(() => db.transaction(() => {
        add(db, 2);
        throw new Error('request failed');
      })()).toThrow('request failed');
      add(db, 3);
    })();
    expect(notes(db)).toEqual([1, 3]);
  });

  it('opens the savepoint of a nested transaction that reads with writes of its own queued, and rolls them back when it throws', () => {
    const db = open();
    db.transaction(() => {
      add(db, 1);
      expect(() => db.transaction(() => {
        add(db, 2);
        expect(notes(db)).toEqual([1, 2]);
        add(db, 4);
        throw new Error('request failed');
      })()).toThrow('request failed');
      expect(notes(db)).toEqual([1]);
      db.transaction(() => {
        add(db, 5);
        expect(notes(db)).toEqual([1, 5]);
      })();
    })();
    expect(notes(db)).toEqual([1, 5]);
  });

  it('rolls back every write of an outermost transaction that throws, run or still queued', () => {
    const db = open();
    add(db, 1);
    expect(() => db.transaction(() => {
      add(db, 2);
      expect(notes(db)).toEqual([1, 2]);
      add(db, 3);
      throw new Error('build failed');
    })()).toThrow('build failed');
    expect(notes(db)).toEqual([1]);
    db.transaction(() => add(db, 4))();
    expect(notes(db)).toEqual([1, 4]);
  });

  it('throws a write SQLite refuses where the queue runs it: at the next read or commit', () => {
    const db = open();
    add(db, 1);
    expect(() => db.transaction(() => add(db, 1))()).toThrow(/UNIQUE constraint failed: notes.n/);
    expect(notes(db)).toEqual([1]);
  });

  it('refuses every write and read after a queued write failed, even when the failure was caught, until the transaction has rolled back', () => {
    const db = open();
    add(db, 1);
    const seen: string[] = [];
    const attempt = (what: string, fn: () => unknown) => {
      try {
        fn();
        seen.push(`${what}: done`);
      } catch (err) {
        seen.push(`${what}: ${(err as Error).message.split(':')[0]}`);
      }
    };
    attempt('transaction', () => db.transaction(() => {
      add(db, 2);
      add(db, 1);
      // A request that reads, meets the failure and turns it into a refusal of its own.
      attempt('read in a request', () => db.transaction(() => notes(db))());
      attempt('write after it', () => add(db, 3));
      attempt('read after it', () => notes(db));
    })());
    expect(seen).toEqual([
      'read in a request: UNIQUE constraint failed',
      'write after it: A queued write failed, and the writes queued with it are lost until the transaction rolls back',
      'read after it: A queued write failed, and the writes queued with it are lost until the transaction rolls back',
      'transaction: A queued write failed, and the writes queued with it are lost until the transaction rolls back',
    ]);
    expect(notes(db)).toEqual([1]);
    db.transaction(() => add(db, 4))();
    expect(notes(db)).toEqual([1, 4]);
  });

  it('runs the queue before exec and pragma', () => {
    const db = open();
    db.transaction(() => {
      add(db, 1);
      db.exec('CREATE TABLE copies AS SELECT * FROM notes');
    })();
    expect(db.prepare('SELECT COUNT(*) AS n FROM copies').get()).toEqual({ n: 1 });
  });
});

describe('a write queue', () => {
  /** A queue over a stand-in connection: what it ran, and the SQL it executed. */
  function recording() {
    const log: string[] = [];
    const queue = new WriteQueue(() => true, (stmt, params) => void log.push(`run ${(stmt as unknown as { name: string }).name} ${params.join(',')}`), (sql) => void log.push(sql));
    const stmt = (name: string) => ({ name }) as unknown as Statement;
    return { log, queue, stmt };
  }

  it('runs nothing until it is flushed', () => {
    const { log, queue, stmt } = recording();
    queue.write(stmt('a'), [1]);
    queue.write(stmt('b'), [2]);
    expect(log).toEqual([]);
    queue.flush();
    expect(log).toEqual(['run a 1', 'run b 2']);
    queue.flush();
    expect(log).toHaveLength(2);
  });

  it('opens a savepoint where a nested unit began only when the unit has writes of its own at a flush', () => {
    const { log, queue, stmt } = recording();
    queue.write(stmt('a'), [1]);
    queue.begin();
    queue.flush();
    expect(log).toEqual(['run a 1']);
    queue.write(stmt('b'), [2]);
    queue.begin();
    queue.write(stmt('c'), [3]);
    queue.flush();
    expect(log).toEqual(['run a 1', 'SAVEPOINT queued_1', 'run b 2', 'SAVEPOINT queued_2', 'run c 3']);
    queue.rollback();
    queue.commit();
    expect(log.slice(5)).toEqual(['ROLLBACK TO queued_2', 'RELEASE queued_2', 'RELEASE queued_1']);
  });
});
