import { verifyChain } from '../../src/events/chain-verify';
import { openDatabase, type Db } from '../../src/events/database';
import { EventStore } from '../../src/events/store';
import { testWallClock } from '../support/erp';

const read = (actor: string, data: unknown) => ({ kind: 'read' as const, businessDate: '2026-10-05', actor, action: 'get', outcome: 'ok' as const, data });

/** A log of three reads, the second with allocated ids, its triggers dropped so a test can edit it. */
function threeEvents(): Db {
  const db = openDatabase(':memory:');
  const store = new EventStore(db, { apply: () => undefined }, testWallClock);
  store.append([read('ann', { a: 1 }), { ...read('bob', { list: [1, 'two', null] }), allocated: { AP: 7 } }, read('cy', {})]);
  db.exec('DROP TRIGGER events_refuse_update; DROP TRIGGER events_refuse_delete');
  return db;
}

describe('verifying the hash chain of a log', () => {
  it('given an untouched log, when verified, then it is whole and ends at the last row hash', () => {
    const db = threeEvents();
    const last = db.prepare('SELECT row_hash FROM events WHERE seq = 3').get() as { row_hash: string };
    expect(verifyChain(db)).toEqual({ ok: true, events: 3, head: last.row_hash });
  });

  it('given a row whose chain is known good, when verified from it, then only the rows after it are read, and a break after it is found', () => {
    const db = threeEvents();
    const second = db.prepare('SELECT row_hash FROM events WHERE seq = 2').get() as { row_hash: string };
    const last = db.prepare('SELECT row_hash FROM events WHERE seq = 3').get() as { row_hash: string };
    db.prepare(`UPDATE events SET actor = 'mallory' WHERE seq = 1`).run();
    expect(verifyChain(db, { seq: 2, rowHash: second.row_hash })).toEqual({ ok: true, events: 1, head: last.row_hash });
    expect(verifyChain(db, { seq: 3, rowHash: last.row_hash })).toEqual({ ok: true, events: 0, head: last.row_hash });
    expect(verifyChain(db, { seq: 2, rowHash: '0'.repeat(64) })).toMatchObject({ ok: false, brokenAt: 3 });
    expect(verifyChain(db, { seq: 1, rowHash: second.row_hash })).toMatchObject({ ok: false, brokenAt: 2 });
  });

  it('given an empty log, when verified, then it is whole with no events', () => {
    expect(verifyChain(openDatabase(':memory:'))).toEqual({ ok: true, events: 0, head: '' });
  });

  it('given a column edited behind SQLite\'s back, when verified, then the link breaks at that row', () => {
    const db = threeEvents();
    db.prepare(`UPDATE events SET actor = 'mallory' WHERE seq = 2`).run();
    expect(verifyChain(db)).toMatchObject({ ok: false, brokenAt: 2, reason: 'row hash does not match its contents and the previous row' });
  });

  it('given a payload rewritten as equal JSON with other bytes, when verified, then the link breaks: the hash is of the stored text', () => {
    const db = threeEvents();
    db.prepare(`UPDATE events SET data = '{ "a": 1 }' WHERE seq = 1`).run();
    expect(verifyChain(db)).toMatchObject({ ok: false, brokenAt: 1 });
  });

  it('given a payload or allocated ids that are not JSON, when verified, then it says so at that row', () => {
    const payload = threeEvents();
    payload.prepare(`UPDATE events SET data = '{a:1}' WHERE seq = 3`).run();
    expect(verifyChain(payload)).toMatchObject({ ok: false, brokenAt: 3, reason: 'payload is not valid JSON' });
    const allocated = threeEvents();
    allocated.prepare(`UPDATE events SET allocated = '{"AP":' WHERE seq = 2`).run();
    expect(verifyChain(allocated)).toMatchObject({ ok: false, brokenAt: 2, reason: 'payload is not valid JSON' });
  });

  it('given a row removed, when verified, then it names the sequence number it expected', () => {
    const db = threeEvents();
    db.prepare('DELETE FROM events WHERE seq = 2').run();
    expect(verifyChain(db)).toMatchObject({ ok: false, brokenAt: 3, reason: 'expected event 2 here, found 3' });
  });
});
