import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/events/database';

describe('openDatabase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-open-database-'));

  it('given a file served live, when it is opened, then it is in WAL mode and commits with synchronous NORMAL', () => {
    const db = openDatabase(join(dir, 'live.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    db.close();
  });

  it("given a fast file (a generator's, a grade's scratch copy), when it is opened, then it is in WAL mode and never syncs", () => {
    const db = openDatabase(join(dir, 'fast.db'), { fast: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(0);
    db.close();
  });

  it('given a file opened read-only, when it is read, then its journal mode is left as it was', () => {
    const file = join(dir, 'kept.db');
    openDatabase(file).close();
    const db = openDatabase(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});
