import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Api } from '../../src/api/pipeline';
import { allRoutes } from '../../src/api/routes';
import { verifyChain } from '../../src/events/chain-verify';
import { HASHED_COLUMNS, rowHash, type StoredColumns } from '../../src/events/row-hash';
import { gradeAttempt } from '../../src/grader/grade';
import { createAppRegistry } from '../../src/projections';
import { ErpDb } from '../../src/projections/erp-db';
import { campaignMetrics, flaggedAttempts } from '../../src/runner/metrics';
import { runAttempt } from '../../src/runner/attempt';
import { settleToSingleFile } from '../../src/runner/db-file';
import { replayFile } from '../../src/projections/replay';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';
import { FIXTURE_TASKS } from '../support/packs';

/**
 * What an agent (or anyone) might do to an attempt's files after the fact, and the grader's answer:
 * each is refused as tampered, naming what differs, where the untouched attempt passes.
 */
const root = mkdtempSync(join(tmpdir(), 'bb-erp-tamper-'));
const pack = loadPack('leave-cover', FIXTURE_TASKS);
const code = loadPackCode(pack);
const scenarioDir = join(root, 'scenario');
let scenario: Scenario;
const oracleDir = join(root, 'oracle');
const nullDir = join(root, 'null');

/** A copy of an attempt folder to spoil. */
function copyOf(dir: string, name: string): string {
  const to = join(root, name);
  cpSync(dir, to, { recursive: true });
  return to;
}

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: scenarioDir });
  for (const [agent, dir] of [[{ kind: 'oracle' } as const, oracleDir], [{ kind: 'null' } as const, nullDir]] as const) {
    await runAttempt({ pack, code, packHash: scenario.manifest.pack_hash, scenarioDir, seed: 0, agent, attemptDir: dir, label: 'tamper', rep: 1 });
  }
}, 60_000);

describe('an untouched attempt', () => {
  it('extends every head it recorded and is graded', () => {
    const heads = readFileSync(join(oracleDir, 'heads.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).at);
    expect(heads).toEqual(['start', 'turn 1 begins', 'turn 1 ends', 'turn 2 begins', 'turn 2 ends', 'closed']);
    expect(gradeAttempt(oracleDir)).toMatchObject({ verdict: 'pass', status: 'graded' });
  });
});

describe('an attempt graded against a rewritten reference', () => {
  const file = () => join(scenarioDir, 'reference', 'leaves.csv');
  let original: string;
  beforeAll(() => { original = readFileSync(file(), 'utf8'); });
  afterAll(() => writeFileSync(file(), original));

  it('is tampered, naming the file: the null agent that rewrote its answer key does not pass', () => {
    // The null agent did nothing; the reference now says nothing was to be done.
    writeFileSync(file(), 'employee,start_date,end_date,delegate,_leave\ngrace.lin,2026-11-02,2026-11-06,,LV-000002\nsam.ortiz,2026-11-16,2026-11-20,,LV-000001\n');
    const result = gradeAttempt(nullDir);
    expect(result).toMatchObject({ verdict: 'tampered', status: 'tampered', passed: false, checks: [] });
    expect(result.tampered).toEqual([expect.stringMatching(/^the scenario's reference differs from its hash recorded at start: leaves\.csv$/)]);
    expect(result.why).toMatch(/^Not graded: the scenario's reference differs/);
  });
});

describe('an attempt whose history was rewritten and re-chained', () => {
  it('verifies as a chain, yet is tampered: its rows no longer reach the recorded heads', () => {
    const dir = copyOf(oracleDir, 'rechained');
    const db = new Database(join(dir, 'final.db'));
    db.exec('DROP TRIGGER events_refuse_update');
    const record = JSON.parse(readFileSync(join(dir, 'attempt.json'), 'utf8'));
    const target = record.agent_windows[0].fromSeq as number;
    let previous = '';
    for (const raw of db.prepare('SELECT * FROM events ORDER BY seq').all() as Record<string, string | number | null>[]) {
      if (raw.seq === target) raw.business_date = '2026-10-05';
      const stored = Object.fromEntries(HASHED_COLUMNS.map((c) => [c, raw[c]])) as StoredColumns;
      previous = rowHash(previous, stored);
      db.prepare('UPDATE events SET business_date = ?, row_hash = ? WHERE seq = ?').run(raw.business_date, previous, raw.seq);
    }
    expect(verifyChain(db).ok).toBe(true);
    db.close();
    const result = gradeAttempt(dir);
    expect(result.verdict).toBe('tampered');
    // The first head after the edit is the end of turn 1: its row hash no longer matches.
    expect(result.tampered![0]).toMatch(new RegExp(`^final\\.db's event ${record.agent_windows[0].toSeq} has row hash [0-9a-f]{12}…, not [0-9a-f]{12}… as recorded at turn 1 ends: its history was rewritten$`));
  });
});

describe('an attempt with a row appended after its run', () => {
  it('is tampered: final.db runs past the head recorded when the run closed', () => {
    const dir = copyOf(oracleDir, 'appended');
    const erp = ErpDb.open(join(dir, 'final.db'), createAppRegistry());
    new Api(erp, allRoutes()).handle({ method: 'POST', path: '/departments', body: { id: 'LATE', name: 'Late' }, asSystem: true });
    erp.close();
    const closed = JSON.parse(readFileSync(join(dir, 'heads.jsonl'), 'utf8').trim().split('\n').pop()!).seq;
    expect(gradeAttempt(dir).tampered).toEqual([`final.db has 1 event after the run closed at event ${closed}`]);
  });
});

describe('an attempt whose heads were removed', () => {
  it('is tampered: the evidence is missing', () => {
    const dir = copyOf(oracleDir, 'no-heads');
    rmSync(join(dir, 'heads.jsonl'));
    expect(gradeAttempt(dir).tampered).toEqual(['heads.jsonl, the runner\'s record of the chain heads, is missing']);
  });
});

describe('an attempt whose record moved its start', () => {
  it('is tampered: the start_seq of attempt.json is not the start head the runner recorded', () => {
    const dir = copyOf(oracleDir, 'moved-start');
    const record = JSON.parse(readFileSync(join(dir, 'attempt.json'), 'utf8'));
    writeFileSync(join(dir, 'attempt.json'), JSON.stringify({ ...record, start_seq: record.start_seq + 1 }));
    expect(gradeAttempt(dir).tampered).toEqual([`attempt.json's start_seq ${record.start_seq + 1} is not the start head recorded at the reset (event ${record.start_seq})`]);
  });
});

describe('an attempt of record version 2, which kept a start.db', () => {
  /** The attempt as the runner wrote it before version 3: start.db was final.db as the reset left it. */
  function version2(name: string, startSeq: (recorded: number) => number): string {
    const dir = copyOf(oracleDir, name);
    const record = JSON.parse(readFileSync(join(dir, 'attempt.json'), 'utf8'));
    replayFile(join(dir, 'final.db'), join(dir, 'start.db'), createAppRegistry(), { untilSeq: startSeq(record.start_seq) });
    settleToSingleFile(join(dir, 'start.db'));
    writeFileSync(join(dir, 'attempt.json'), JSON.stringify({ ...record, version: 2 }));
    return dir;
  }

  it('is graded as the same attempt without it', () => {
    const strip = ({ graded_at_wall: _g, ...r }: ReturnType<typeof gradeAttempt>) => r;
    expect(strip(gradeAttempt(version2('v2', (s) => s)))).toEqual(strip(gradeAttempt(oracleDir)));
  });

  it('is tampered when its start.db is not the start head', () => {
    const dir = version2('v2-short', (s) => s - 1);
    expect(gradeAttempt(dir).tampered).toEqual([expect.stringMatching(/^start\.db ends at event \d+ \([0-9a-f]{12}…\), not at the start head recorded at the reset \(event \d+\)$/)]);
  });

  it('is tampered when its start.db is missing', () => {
    const dir = version2('v2-missing', (s) => s);
    rmSync(join(dir, 'start.db'));
    expect(gradeAttempt(dir).tampered).toEqual(['start.db, which an attempt of record version 2 keeps beside final.db, is missing']);
  });
});

describe('a report over tampered attempts', () => {
  it('counts them as attempts that did not pass, and lists each', () => {
    const results = ['appended', 'no-heads'].map((n) => gradeAttempt(join(root, n)));
    const [group] = campaignMetrics([gradeAttempt(oracleDir), ...results]);
    expect(group).toMatchObject({ attempts: 3, pass_at_1: 1 / 3, tampered: 2, incomplete: 0 });
    expect(flaggedAttempts(results)).toEqual([expect.stringMatching(/^TAMPERED: oracle~http leave-cover seed 0 rep 1: Not graded: final\.db has 1 event/), expect.stringMatching(/^TAMPERED: .*heads\.jsonl/)]);
  });
});
