import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { call, openTestErp } from '../support/erp';
import { seedSmallOrg } from '../../src/sim/small-company';

const bin = join(__dirname, '..', '..', 'bin', 'run.js');
const erp = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8' }).trim();

describe('erp log on a database built by the tests', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-cli-log-'));
  const file = join(dir, 'live.db');
  const { erp: live, api } = openTestErp(file);
  const tokens = seedSmallOrg(api);
  call(api, tokens.maya, 'POST', '/departments', { id: 'X', name: 'refused' });
  call(api, tokens.grace, 'POST', '/leaves', { user: 'maya.chen', start_date: '2026-10-06', end_date: '2026-10-09' });
  const mark = live.store.lastSeq();
  call(api, tokens.grace, 'POST', '/leaves/LV-000001/cancel', {});
  live.db.pragma('wal_checkpoint(TRUNCATE)');

  it('replays to a file with the same canonical hash', () => {
    erp('log', 'replay', file, '--out', join(dir, 'replayed.db'));
    expect(erp('log', 'hash', join(dir, 'replayed.db'))).toBe(erp('log', 'hash', file));
  });

  it('replays --until to the state as of that event', () => {
    erp('log', 'replay', file, '--until', String(mark), '--out', join(dir, 'until.db'));
    const db = new Database(join(dir, 'until.db'), { readonly: true });
    expect(db.prepare(`SELECT status FROM delegations WHERE id = 'LV-000001'`).get()).toEqual({ status: 'scheduled' });
    db.close();
  });

  it('shows the refused request as a JSON line', () => {
    const lines = erp('log', 'show', file, '--outcome', 'refused').split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ actor: 'maya.chen', action: 'department.create', outcome: 'refused', errorCode: 'forbidden' });
  });

  it('verifies the hash chain of an untouched file', () => {
    expect(JSON.parse(erp('log', 'verify', file))).toMatchObject({ ok: true, events: live.store.lastSeq() });
  });

  it('names the first broken link after an edit made behind SQLite\'s back', () => {
    const copy = join(dir, 'tampered.db');
    live.db.prepare('VACUUM INTO ?').run(copy);
    const db = new Database(copy);
    db.exec('DROP TRIGGER events_refuse_update');
    db.prepare(`UPDATE events SET actor = 'mallory' WHERE seq = ?`).run(mark);
    db.close();
    const result = spawnSync(process.execPath, [bin, 'log', 'verify', copy], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, brokenAt: mark });
  });
});
