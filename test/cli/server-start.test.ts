import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdtempSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { databaseFileProblem, serveProblem } from '../../src/api/file-check';
import { sha256File, START_FILE } from '../../src/grader/start-file';
import { seedSmallOrg } from '../../src/sim/small-company';
import { openTestErp } from '../support/erp';

/** `erp server start` checks the file before it serves it, and says what is wrong with a damaged one. */
const bin = join(__dirname, '..', '..', 'bin', 'run.js');
const dir = mkdtempSync(join(tmpdir(), 'bb-erp-start-'));

function companyFile(name: string): string {
  const file = join(dir, name);
  const { erp, api } = openTestErp(file);
  seedSmallOrg(api);
  erp.db.pragma('journal_mode = DELETE');
  erp.close();
  return file;
}

/** A company file whose event `seq` was edited behind SQLite's back (its append-only trigger dropped first). */
function tamperedFile(file: string, seq: number): string {
  const db = new Database(file);
  db.exec('DROP TRIGGER events_refuse_update');
  db.prepare(`UPDATE events SET actor = 'mallory' WHERE seq = ?`).run(seq);
  db.close();
  return file;
}

function start(file: string, ...more: string[]) {
  const r = spawnSync(process.execPath, [bin, 'server', 'start', '--db', file, '--control-token', 't', ...more], { encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(/\s*\n\s*›\s*/g, ' ') };
}

describe('a damaged file', () => {
  it('whose pages are corrupt is refused with what SQLite found', () => {
    const file = companyFile('corrupt.db');
    const page = (new Database(file, { readonly: true }).pragma('page_size', { simple: true }) as number);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(page, 0x5a), 0, page, page * 3);
    closeSync(fd);
    const out = start(file);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(new RegExp(`Refusing to serve ${file}: (SQLite's integrity check fails: |it cannot be read: )`));
  });

  it('whose event log was edited behind SQLite\'s back is refused naming the first broken event', () => {
    const file = tamperedFile(companyFile('tampered.db'), 5);
    const out = start(file);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`Refusing to serve ${file}: the event log's hash chain breaks at event 5: row hash does not match its contents and the previous row.`);
  });

  it('that is not a database at all is refused', () => {
    const file = join(dir, 'notes.db');
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(200));
    const out = start(file);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`Refusing to serve ${file}: `);
    expect(out.stderr).toMatch(/not a database/);
  });
});

describe('a server started to reset from a file', () => {
  it('checks that file, which its copies are made of, and refuses a damaged one', () => {
    const file = tamperedFile(companyFile('tampered-source.db'), 7);
    const out = start(join(dir, 'served-copy.db'), '--reset-from', file);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(`Refusing to serve copies of ${file}: the event log's hash chain breaks at event 7: `);
  });

  it('refuses a file to reset from that does not exist', () => {
    const missing = join(dir, 'no-such-scenario.db');
    const out = start(join(dir, 'served-copy.db'), '--reset-from', missing);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`Refusing to serve copies of ${missing}: it does not exist.`);
  });
});

describe('what erp server start checks', () => {
  it('is only the bytes of a file with the start record of its generation beside it, and the whole file once they differ', () => {
    const folder = mkdtempSync(join(dir, 'scenario-'));
    const file = join(folder, 'scenario.db');
    copyFileSync(companyFile('recorded.db'), file);
    tamperedFile(file, 3);
    const chainBreak = /the event log's hash chain breaks at event 3/;
    expect(databaseFileProblem(file)).toMatch(chainBreak);
    // A record of these very bytes is taken at its word: what it records was verified.
    writeFileSync(join(folder, START_FILE), JSON.stringify({ file_sha256: sha256File(file) }));
    expect(databaseFileProblem(file)).toBeUndefined();
    writeFileSync(join(folder, START_FILE), JSON.stringify({ file_sha256: '0'.repeat(64) }));
    expect(databaseFileProblem(file)).toMatch(chainBreak);
    writeFileSync(join(folder, START_FILE), '{ not json');
    expect(databaseFileProblem(file)).toMatch(chainBreak);
  });


  it('is the file to reset from when there is one, whatever the file it is copied over holds', () => {
    const sound = companyFile('sound-source.db');
    const notes = join(dir, 'overwritten-notes.db');
    writeFileSync(notes, 'not a database\n'.repeat(200));
    expect(serveProblem({ db: notes, resetFrom: sound })).toBeUndefined();
    expect(serveProblem({ db: notes })).toMatch(new RegExp(`^Refusing to serve ${notes}: `));
    expect(serveProblem({ db: sound, resetFrom: notes })).toMatch(new RegExp(`^Refusing to serve copies of ${notes}: .*not a database`));
  });
});
