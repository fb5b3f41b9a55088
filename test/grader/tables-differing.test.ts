import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openScratchDatabase } from '../../src/events/database';
import { tablesDifferingFromFile } from '../../src/grader/start-snapshot';

const dir = mkdtempSync(join(tmpdir(), 'bb-erp-differing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCHEMA = `CREATE TABLE items (id TEXT PRIMARY KEY, qty INTEGER, note TEXT, updated_wall TEXT);
  CREATE TABLE tags (name TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID;`;
const ROWS: [string, number, string | null][] = [['A', 1, 'x'], ['B', 2, null], ['C', 3, 'z']];

/** A database with the schema and `rows` inserted in that order, and one file written the same way but changed by `edit`. */
function given(edit: (db: Database.Database) => void, rows = ROWS): { db: Database.Database; file: string } {
  const fill = (db: Database.Database, order: typeof ROWS) => {
    db.exec(SCHEMA);
    for (const [id, qty, note] of order) db.prepare('INSERT INTO items VALUES (?, ?, ?, ?)').run(id, qty, note, 'wall');
    for (const [name, n] of [['a', 1], ['b', 2]] as const) db.prepare('INSERT INTO tags VALUES (?, ?)').run(name, n);
  };
  const db = openScratchDatabase();
  fill(db, ROWS);
  const file = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  const other = new Database(file);
  fill(other, rows);
  edit(other);
  other.close();
  return { db, file };
}

describe('tables differing between a replay and a file', () => {
  it('given the same rows written in the same order, then none differ', () => {
    const { db, file } = given(() => undefined);
    expect(tablesDifferingFromFile(db, file, ['items', 'tags'])).toEqual([]);
  });

  it('given the same rows under other rowids (written in another order), then none differ', () => {
    const { db, file } = given(() => undefined, [...ROWS].reverse());
    expect(tablesDifferingFromFile(db, file, ['items', 'tags'])).toEqual([]);
  });

  it('given only a wall-clock column changed, then none differ', () => {
    const { db, file } = given((f) => f.prepare(`UPDATE items SET updated_wall = 'later'`).run());
    expect(tablesDifferingFromFile(db, file, ['items'])).toEqual([]);
  });

  it.each([
    ['a value changed', (f: Database.Database) => f.prepare(`UPDATE items SET qty = 9 WHERE id = 'B'`).run()],
    ['a null made a value', (f: Database.Database) => f.prepare(`UPDATE items SET note = '' WHERE id = 'B'`).run()],
    ['a row added', (f: Database.Database) => f.prepare(`INSERT INTO items VALUES ('D', 4, NULL, 'wall')`).run()],
    ['a row removed', (f: Database.Database) => f.prepare(`DELETE FROM items WHERE id = 'C'`).run()],
    ['two rows swapped between rowids with one changed', (f: Database.Database) => {
      f.exec(`DELETE FROM items; INSERT INTO items VALUES ('C', 3, 'z', 'w'), ('B', 2, NULL, 'w'), ('A', 1, 'changed', 'w')`);
    }],
  ])('given %s, then the table differs', (_what, edit) => {
    const { db, file } = given(edit);
    expect(tablesDifferingFromFile(db, file, ['items', 'tags'])).toEqual(['items']);
  });

  it('given a table without rowids changed, or missing from the file, then it differs', () => {
    const changed = given((f) => f.prepare(`UPDATE tags SET n = 5 WHERE name = 'a'`).run());
    expect(tablesDifferingFromFile(changed.db, changed.file, ['items', 'tags'])).toEqual(['tags']);
    const missing = given((f) => f.exec('DROP TABLE tags'));
    expect(tablesDifferingFromFile(missing.db, missing.file, ['items', 'tags'])).toEqual(['tags']);
  });

  it('given the file\'s table made one without rowids, with the same rows, then none differ', () => {
    const { db, file } = given((f) => f.exec(`DROP TABLE items; CREATE TABLE items (id TEXT PRIMARY KEY, qty INTEGER, note TEXT, updated_wall TEXT) WITHOUT ROWID;
      INSERT INTO items VALUES ('A', 1, 'x', 'w'), ('B', 2, NULL, 'w'), ('C', 3, 'z', 'w')`));
    expect(tablesDifferingFromFile(db, file, ['items'])).toEqual([]);
  });
});
