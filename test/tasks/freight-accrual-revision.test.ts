import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAttempt } from '../../src/runner/attempt';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import type { Truth } from '../../src/task-pack/code';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';
import type { World } from '../../src/sim/world';
import { accrualCents, parseSchedule, scheduleBody } from '../../tasks/freight-accrual-revision/lanes';

const pack = loadPack('freight-accrual-revision');
const code = loadPackCode(pack);
const root = mkdtempSync(join(tmpdir(), 'bb-erp-freight-'));
let scenario: Scenario;

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: join(root, 'scenario') });
}, 300_000);

const read = <T>(file: string): T => JSON.parse(readFileSync(join(scenario.dir, file), 'utf8')) as T;

describe('MVF\'s schedule and the accrual arithmetic', () => {
  it('given a schedule body, when it is parsed, then every lane comes back with its shippers and rate', () => {
    const lanes = [{ lane: 'L1', origin: 'Dayton, OH', shippers: ['Mid-State Metals', 'Riverbend Alloys'], rate: '1.55' }, { lane: 'L3', origin: 'Portland, ME', shippers: ['Coastline Seal and Gasket'], rate: '3.40' }];
    expect(parseSchedule(scheduleBody('October 2026', lanes))).toEqual(lanes);
  });

  it('given a value and a rate, then the accrual rounds to the nearest cent with half a cent up', () => {
    expect(accrualCents(100_000, '1.55')).toBe(1_550);
    expect(accrualCents(10_050, '1.50')).toBe(151); // 150.75 cents
    expect(accrualCents(3_000, '1.65')).toBe(50); // 49.5 cents rounds up
  });
});

describe('the generator', () => {
  it('given seed 0, then it plants a receipt of every kind, each naming the clauses it exercises', () => {
    const truth = read<Truth>('truth.json');
    const kinds = truth.planted.map((p) => p.description!.replace(/^RCV-\d+ \([^)]*\): /, '').split(/[:,]/)[0]);
    expect(kinds).toEqual(expect.arrayContaining([
      "accrue at lane L1's October rate and leave it standing", "accrue at lane L2's October rate and leave it standing",
      'a prepaid shipper', expect.stringMatching(/^received 2026-10-29/), expect.stringMatching(/^MVF billed its actual charge/), expect.stringMatching(/^lane L3 corrected/),
    ]));
    const clauses = new Set(truth.planted.flatMap((p) => p.clauses));
    for (const c of ['FRT-1.1', 'FRT-1.2/month', 'FRT-1.2/actual', 'FRT-1.3', 'FRT-2.1/reverse', 'FRT-2.1/date', 'FRT-2.2', 'FRT-2.3']) expect(clauses).toContain(c);
  });

  it('given seed 0, then the three changes are scheduled for Monday 2 November: the receipt taken back, the lane corrected, the delivery billed', () => {
    const world = read<World>('world.json');
    const monday = world.scheduled.filter((a) => a.date === '2026-11-02');
    expect(monday.map((a) => `${a.actor} ${a.path}`)).toEqual([
      expect.stringMatching(/^warehouse \/receipts\/RCV-\d+\/reverse$/), 'vendors /messages/inbound', 'vendors /messages/inbound',
    ]);
    const related = monday.slice(1).map((a) => (a.body as { related: { id: string }[] }).related.length);
    expect(related[0]).toBeGreaterThanOrEqual(2);
    expect(related[1]).toBe(1);
  });
});

describe('one attempt per policy on seed 0', () => {
  const attempt = (agent: string, policy: typeof code.oracle) => runAttempt({
    pack, code: { ...code, oracle: policy }, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: 0,
    agent: { kind: 'oracle' }, attemptDir: join(root, agent), label: agent, rep: 1,
  });

  it('given the oracle, then every check passes', async () => {
    const result = (await attempt('oracle', code.oracle)).result!;
    expect(result.turns.map((t) => t.exit_code)).toEqual([0, 0]);
    expect(result.verdict).toBe('pass');
  }, 120_000);

  it.each(Object.entries(pack.spec.negative_controls))('given %s, then it fails exactly the checks its clause is held to', async (name, control) => {
    const result = (await attempt(name.replace('neg:', ''), code.negatives[name.replace('neg:', '')]!)).result!;
    expect(result.checks.filter((c) => c.required && !c.passed).map((c) => c.id).sort()).toEqual([...control.fails].sort());
    if (name === 'neg:difference_entries') {
      // The entries left standing beside their differences are named, with the change each missed.
      const stale = result.checks.find((c) => c.id === 'no-stale-accrual')!;
      expect(stale.findings!.map((f) => f.sentence).join('\n')).toMatch(/JE-\d+, prepared on 2026-10-30 from [^\n]*RCV-\d+[^\n]*, still stands: RCV-\d+ (was reversed|had new word in MSG-\d+)/);
    }
  }, 120_000);
});
