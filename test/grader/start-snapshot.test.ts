import Database from 'better-sqlite3';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gradeAttempt, readEvents, replayAttempt, StartMismatch } from '../../src/grader/grade';
import { readAttemptEvents } from '../../src/grader/attempt-events';
import { openDatabase } from '../../src/events/database';
import { createAppRegistry } from '../../src/projections';
import { replayInto } from '../../src/projections/replay';
import { readStartRecord, START_FILE } from '../../src/grader/start-snapshot';
import { verifyChain } from '../../src/events/chain-verify';
import { HASHED_COLUMNS, rowHash, type StoredColumns } from '../../src/events/row-hash';
import { runAttempt } from '../../src/runner/attempt';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';
import { FIXTURE_TASKS } from '../support/packs';

const root = mkdtempSync(join(tmpdir(), 'bb-erp-start-'));
const pack = loadPack('leave-cover', FIXTURE_TASKS);
const code = loadPackCode(pack);
const scenarioDir = join(root, 'scenario');
let scenario: Scenario;

async function attempt(agent: Parameters<typeof runAttempt>[0]['agent'], name: string): Promise<string> {
  const dir = join(root, 'attempts', name);
  await runAttempt({ pack, code, packHash: scenario.manifest.pack_hash, scenarioDir, seed: 0, agent, attemptDir: dir, label: 'start', rep: 1, grade: false });
  return dir;
}

function startSeqOf(dir: string): number {
  return (JSON.parse(readFileSync(join(dir, 'attempt.json'), 'utf8')) as { start_seq: number }).start_seq;
}

/** The same attempt pointed at a copy of its scenario without start.json: graded by replaying everything. */
function withoutVerifiedStart(dir: string, name: string): string {
  const copy = join(root, 'attempts', name);
  const scenarioCopy = join(root, `scenario-${name}`);
  cpSync(dir, copy, { recursive: true });
  cpSync(scenarioDir, scenarioCopy, { recursive: true });
  rmSync(join(scenarioCopy, START_FILE));
  const record = JSON.parse(readFileSync(join(copy, 'attempt.json'), 'utf8'));
  writeFileSync(join(copy, 'attempt.json'), JSON.stringify({ ...record, scenario_dir: scenarioCopy }));
  return copy;
}

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: scenarioDir });
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a generated scenario', () => {
  it('records its start as verified: the last event, its row hash and the bytes of scenario.db', () => {
    const start = readStartRecord(scenarioDir)!;
    const db = new Database(join(scenarioDir, 'scenario.db'), { readonly: true });
    const last = db.prepare('SELECT seq, row_hash FROM events ORDER BY seq DESC LIMIT 1').get() as { seq: number; row_hash: string };
    db.close();
    expect(start).toMatchObject({ version: 1, events: last.seq, head: last.row_hash });
    expect(Object.keys(start.table_hashes)).toContain('delegations');
    expect(scenario.manifest.start).toEqual({ events: start.events, head: start.head, file_sha256: start.file_sha256 });
  });
});

describe('an attempt graded from the verified start', () => {
  it.each([['oracle', { kind: 'oracle' as const }], ['null', { kind: 'null' as const }], ['neg', { kind: 'negative' as const, name: Object.keys(code.negatives)[0]! }]])(
    'gets the verdict, checks and final hash of a replay of every event (the %s agent)', async (name, agent) => {
      const dir = await attempt(agent, name);
      const fast = gradeAttempt(dir, { pack });
      const full = gradeAttempt(withoutVerifiedStart(dir, `${name}-full`), { pack });
      const strip = ({ graded_at_wall: _g, ...r }: typeof fast) => r;
      expect(strip(fast)).toEqual(strip(full));
    }, 120_000);

  it('is refused when final.db does not begin with the verified start: not graded as tampered, and its replay refused', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'forked');
    const db = new Database(join(dir, 'final.db'));
    db.exec('DROP TRIGGER events_refuse_update');
    db.prepare('UPDATE events SET row_hash = ? WHERE seq = ?').run('0'.repeat(64), readStartRecord(scenarioDir)!.events);
    db.close();
    expect(gradeAttempt(dir, { pack }).verdict).toBe('tampered');
    const replay = () => replayAttempt(dir, scenarioDir, createAppRegistry(), startSeqOf(dir));
    expect(replay).toThrow(StartMismatch);
    expect(replay).toThrow(/final\.db does not begin with the scenario's verified start/);
  });

  it('given a start without the events hash state, then the final hash is the same as with it', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'no-state');
    const copy = withoutVerifiedStart(dir, 'no-state-copy');
    const record = JSON.parse(readFileSync(join(copy, 'attempt.json'), 'utf8'));
    const { events_hash_state: state, ...older } = readStartRecord(scenarioDir)!;
    expect(state).toMatchObject({ h: expect.stringMatching(/^[0-9a-f]{64}$/), length: expect.any(Number) });
    writeFileSync(join(record.scenario_dir, START_FILE), JSON.stringify(older));
    expect(gradeAttempt(copy, { pack }).final_hash).toBe(gradeAttempt(dir, { pack }).final_hash);
  }, 120_000);

  it('given a start event of final.db edited and every later row re-chained, then it is tampered, naming the event', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'prefix-rechained');
    const target = 3;
    const db = new Database(join(dir, 'final.db'));
    db.exec('DROP TRIGGER events_refuse_update');
    let previous = '';
    for (const raw of db.prepare('SELECT * FROM events ORDER BY seq').all() as Record<string, string | number | null>[]) {
      if (raw.seq === target) raw.actor = 'someone.else';
      previous = rowHash(previous, Object.fromEntries(HASHED_COLUMNS.map((c) => [c, raw[c]])) as StoredColumns);
      db.prepare('UPDATE events SET actor = ?, row_hash = ? WHERE seq = ?').run(raw.actor, previous, raw.seq);
    }
    expect(verifyChain(db).ok).toBe(true);
    db.close();
    const result = gradeAttempt(dir, { pack });
    expect(result.verdict).toBe('tampered');
    expect(result.tampered![0]).toBe(`final.db's events are not the scenario's verified start: its event ${target} is not the verified start's event ${target}`);
  }, 120_000);

  it('given an attempt event edited after the start, then its chain breaks there, verified from the start\'s head', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'suffix-edited');
    const start = readStartRecord(scenarioDir)!;
    const db = new Database(join(dir, 'final.db'));
    db.exec('DROP TRIGGER events_refuse_update');
    db.prepare(`UPDATE events SET actor = 'someone.else' WHERE seq = ?`).run(start.events + 1);
    db.close();
    expect(gradeAttempt(dir, { pack }).tampered![0]).toBe(`final.db's hash chain breaks at event ${start.events + 1}: row hash does not match its contents and the previous row`);
  }, 120_000);

  it('is refused when scenario.db is no longer the file verified', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'moved');
    const scenarioCopy = join(root, 'scenario-edited');
    cpSync(scenarioDir, scenarioCopy, { recursive: true });
    const db = new Database(join(scenarioCopy, 'scenario.db'));
    db.prepare(`UPDATE users SET name = 'Someone Else' WHERE id = 'sam.ortiz'`).run();
    db.close();
    const record = JSON.parse(readFileSync(join(dir, 'attempt.json'), 'utf8'));
    writeFileSync(join(dir, 'attempt.json'), JSON.stringify({ ...record, scenario_dir: scenarioCopy }));
    expect(() => gradeAttempt(dir, { pack })).toThrow(/is not the start verified at generation/);
  });

  it('given the scenario graded once in this process, when scenario.db is then edited in place, then the next grade is refused all the same', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'edited-later');
    const scenarioCopy = join(root, 'scenario-edited-later');
    cpSync(scenarioDir, scenarioCopy, { recursive: true });
    const record = JSON.parse(readFileSync(join(dir, 'attempt.json'), 'utf8'));
    writeFileSync(join(dir, 'attempt.json'), JSON.stringify({ ...record, scenario_dir: scenarioCopy }));
    // Only a file whose last change is older than the kernel's file-time tick by a margin is remembered.
    await new Promise((r) => setTimeout(r, 1200));
    expect(gradeAttempt(dir, { pack }).verdict).toBe('pass');
    const db = new Database(join(scenarioCopy, 'scenario.db'));
    db.prepare(`UPDATE users SET name = 'Someone Else' WHERE id = 'sam.ortiz'`).run();
    db.close();
    expect(() => gradeAttempt(dir, { pack })).toThrow(/is not the start verified at generation/);
  });
});

describe('the events a grade reads from an attempt beginning with the verified start', () => {
  it('given the start shown to be the verified one, then they are the final file\'s events, the start\'s rows shared by every grade of the scenario', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'events-read');
    const start = readStartRecord(scenarioDir)!;
    const db = openDatabase(join(dir, 'final.db'), { readonly: true });
    const all = readEvents(db);
    const first = readAttemptEvents(db, scenarioDir, start, true);
    const second = readAttemptEvents(db, scenarioDir, start, true);
    expect(first).toEqual(all);
    expect(first.map((e) => e.data)).toEqual(all.map((e) => e.data));
    expect(first.length).toBeGreaterThan(start.events);
    expect(second[start.events - 1]).toBe(first[start.events - 1]);
    expect(second[start.events]).not.toBe(first[start.events]);
    const unshown = readAttemptEvents(db, scenarioDir, start, false);
    expect(unshown).toEqual(all);
    expect(unshown[0]).not.toBe(first[0]);
    db.close();
  }, 120_000);
});

describe('the start an attempt began from, as a grade reads it', () => {
  it('given final.db through the record\'s start_seq (the verified start and the attempt\'s tokens), then every table reads as a full replay to there, the ones the tokens wrote copied and the rest the verified start\'s', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'start-state');
    expect(existsSync(join(dir, 'start.db'))).toBe(false);
    const startSeq = startSeqOf(dir);
    expect(startSeq).toBeGreaterThan(readStartRecord(scenarioDir)!.events);
    const replayed = replayAttempt(dir, scenarioDir, createAppRegistry(), startSeq);
    const full = openDatabase(':memory:');
    replayInto(full, join(dir, 'final.db'), createAppRegistry(), { untilSeq: startSeq });
    try {
      const own = (replayed.start.prepare(`SELECT name FROM main.sqlite_master WHERE type = 'table'`).pluck().all() as string[]).sort();
      expect(own.length).toBeGreaterThan(0);
      expect(own.length).toBeLessThan(createAppRegistry().tableNames().length);
      const rows = (db: Database.Database, t: string) => (db.prepare(`SELECT * FROM "${t}"`).all() as object[]).map((r) => JSON.stringify(r)).sort();
      for (const t of createAppRegistry().tableNames()) expect([t, rows(replayed.start, t)]).toEqual([t, rows(full, t)]);
      const scenarioDb = new Database(join(scenarioDir, 'scenario.db'), { readonly: true });
      expect(rows(full, 'api_tokens').length).toBeGreaterThan(rows(scenarioDb, 'api_tokens').length);
      scenarioDb.close();
    } finally {
      full.close();
      replayed.close();
    }
  }, 120_000);

  it('given a start_seq past the end of final.db, or before the verified start, then the replay is refused', async () => {
    const dir = await attempt({ kind: 'oracle' }, 'start-beyond');
    const final = new Database(join(dir, 'final.db'), { readonly: true });
    const last = final.prepare('SELECT MAX(seq) FROM events').pluck().get() as number;
    final.close();
    expect(() => replayAttempt(dir, scenarioDir, createAppRegistry(), last + 1)).toThrow(/does not hold the attempt's start: its event \d+ is missing/);
    expect(() => replayAttempt(dir, scenarioDir, createAppRegistry(), readStartRecord(scenarioDir)!.events - 1)).toThrow(StartMismatch);
  }, 120_000);
});
