import { openDatabase, type Db } from '../../src/events/database';
import { RESUMABLE_TABLE_ROWS, tableHash, tableHashAfterRows, tableHashState } from '../../src/events/canonical-hash';

/** A ledger-like table keyed by a zero-padded id, as read models number their documents. */
function ledger(rows: number): Db {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE lines (id TEXT PRIMARY KEY, account TEXT NOT NULL, amount INTEGER NOT NULL, memo TEXT, created_wall TEXT)');
  const insert = db.prepare('INSERT INTO lines VALUES (?, ?, ?, ?, ?)');
  for (let i = 1; i <= rows; i++) insert.run(`GL-${String(i * 10).padStart(6, '0')}`, i % 3 ? '1000' : '2100', i * 7, i % 5 ? `line ${i}` : null, `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`);
  return db;
}

describe('a table\'s hash resumed from the state after its rows', () => {
  it('given too few rows to be worth a state, then none is recorded', () => {
    expect(tableHashState(ledger(RESUMABLE_TABLE_ROWS - 1), 'lines')).toBeUndefined();
  });

  it('given no row added, then the resumed hash is the table\'s hash', () => {
    const db = ledger(RESUMABLE_TABLE_ROWS);
    const state = tableHashState(db, 'lines')!;
    expect(state.rows).toBe(RESUMABLE_TABLE_ROWS);
    expect(tableHashAfterRows(db, 'lines', state)).toBe(tableHash(db, 'lines'));
  });

  it('given rows added that sort after the last, then the resumed hash is the hash of the whole table', () => {
    const db = ledger(RESUMABLE_TABLE_ROWS + 5);
    const state = tableHashState(db, 'lines')!;
    db.prepare(`INSERT INTO lines VALUES ('GL-999990', '1000', 1, 'later', 'x'), ('GL-999991', '2100', -1, NULL, 'y')`).run();
    const whole = tableHash(db, 'lines');
    expect(tableHashAfterRows(db, 'lines', state)).toBe(whole);
    expect(whole).not.toBe(tableHash(ledger(RESUMABLE_TABLE_ROWS + 5), 'lines'));
  });

  it('given a row added that sorts among the recorded ones, then it cannot be resumed', () => {
    const db = ledger(RESUMABLE_TABLE_ROWS);
    const state = tableHashState(db, 'lines')!;
    db.prepare(`INSERT INTO lines VALUES ('GL-000015', '1000', 1, 'between', 'x')`).run();
    expect(tableHashAfterRows(db, 'lines', state)).toBeUndefined();
  });

  it('given the last recorded row changed, or a column added, then it cannot be resumed', () => {
    const changed = ledger(RESUMABLE_TABLE_ROWS);
    const state = tableHashState(changed, 'lines')!;
    changed.prepare(`UPDATE lines SET amount = 0 WHERE id = (SELECT MAX(id) FROM lines)`).run();
    expect(tableHashAfterRows(changed, 'lines', state)).toBeUndefined();
    const widened = ledger(RESUMABLE_TABLE_ROWS);
    widened.exec('ALTER TABLE lines ADD COLUMN note TEXT');
    expect(tableHashAfterRows(widened, 'lines', state)).toBeUndefined();
  });

  it('given wall-clock values changed, then the state still holds: they are not hashed', () => {
    const db = ledger(RESUMABLE_TABLE_ROWS);
    const state = tableHashState(db, 'lines')!;
    db.prepare(`UPDATE lines SET created_wall = 'later'`).run();
    expect(tableHashAfterRows(db, 'lines', state)).toBe(tableHash(db, 'lines'));
  });
});
