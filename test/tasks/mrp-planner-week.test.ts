import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runAttempt } from '../../src/runner/attempt';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import type { Truth } from '../../src/task-pack/code';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';

const pack = loadPack('mrp-planner-week');
const code = loadPackCode(pack);
const root = mkdtempSync(join(tmpdir(), 'bb-erp-d1-'));
let scenario: Scenario;
let truth: Truth;

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: join(root, 'scenario') });
  truth = JSON.parse(readFileSync(join(scenario.dir, 'truth.json'), 'utf8')) as Truth;
}, 240_000);

function startDb(): Database.Database {
  return new Database(join(scenario.dir, 'scenario.db'), { readonly: true });
}

/** A planted case's item, found by the clause it exercises. */
function itemFor(clause: string): string {
  const p = truth.planted.find((x) => x.clauses.includes(clause));
  if (!p) throw new Error(`No case plants ${clause}.`);
  return p.id;
}

describe('the generator plants every case of the planner week', () => {
  it('given seed 0, when the scenario is generated, then every clause and part of the handbook has a planted case', () => {
    const planted = new Set(truth.planted.flatMap((p) => p.clauses));
    for (const c of ['MRP-1.1/apply', 'MRP-1.1/before', 'MRP-1.1/vendor', 'MRP-1.2/firm', 'MRP-1.2/as_planned', 'MRP-1.3', 'MRP-1.4/expedite', 'MRP-1.4/defer', 'MRP-1.4/once', 'MRP-2.1']) {
      expect(planted).toContain(c);
    }
  });

  it('given the start state, then the planner has two lead-time notes, one from the item\'s preferred vendor and one from a vendor that does not supply it', () => {
    const db = startDb();
    const notes = db.prepare(`SELECT m.from_address AS sender, i.id AS item, v.email AS preferred
      FROM messages m JOIN items i ON m.subject = 'Lead time update: ' || i.id JOIN vendors v ON v.id = i.preferred_vendor
      WHERE m.owner = 'owen.mercer' ORDER BY i.id`).all() as { sender: string; item: string; preferred: string }[];
    db.close();
    expect(notes).toHaveLength(2);
    expect(notes.find((n) => n.item === itemFor('MRP-1.1/apply'))!.sender).toBe(notes.find((n) => n.item === itemFor('MRP-1.1/apply'))!.preferred);
    expect(notes.find((n) => n.item === itemFor('MRP-1.1/vendor'))!.sender).not.toBe(notes.find((n) => n.item === itemFor('MRP-1.1/vendor'))!.preferred);
  });

  it('given the start state, then the expedite, defer and already-asked lines are on sent orders, and the earlier request was refused', () => {
    const db = startDb();
    const line = (item: string) => db.prepare(`SELECT p.status, l.po, l.line FROM po_lines l JOIN purchase_orders p ON p.id = l.po WHERE l.item = ?`).get(item) as { status: string; po: string; line: number };
    for (const c of ['MRP-1.4/expedite', 'MRP-1.4/defer', 'MRP-1.4/once']) expect(line(itemFor(c)).status).toBe('sent');
    const asked = line(itemFor('MRP-1.4/once'));
    const requests = db.prepare('SELECT kind, status FROM vendor_requests WHERE po = ? AND line = ?').all(asked.po, asked.line);
    expect(requests).toEqual([{ kind: 'expedite', status: 'refused' }]);
    db.close();
  });
});

describe('one attempt per policy on seed 0', () => {
  const attempt = async (agent: { kind: 'oracle' } | { kind: 'negative'; name: string }, label: string) => {
    const dir = join(root, label);
    const out = await runAttempt({ pack, code, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: 0, agent, attemptDir: dir, label, rep: 1 });
    return { result: out.result!, dir };
  };

  it('given the oracle, when it plays the Monday, then it passes, and its released orders and vendor requests are the planted cases\' outcomes', async () => {
    const { result, dir } = await attempt({ kind: 'oracle' }, 'oracle');
    expect(result.verdict).toBe('pass');
    const db = new Database(join(dir, 'final.db'), { readonly: true });
    const lead = db.prepare('SELECT lead_time_days FROM items WHERE id = ?').pluck();
    const released = db.prepare(`SELECT p.status, l.qty FROM po_lines l JOIN purchase_orders p ON p.id = l.po WHERE l.item = ? AND p.created_date = '2026-10-05'`);
    const requests = db.prepare(`SELECT r.kind, r.date FROM vendor_requests r JOIN po_lines l ON l.po = r.po AND l.line = r.line WHERE l.item = ? AND r.raised_date = '2026-10-05'`);
    expect(lead.get(itemFor('MRP-1.1/apply'))).toBeGreaterThanOrEqual(15);
    expect(lead.get(itemFor('MRP-1.1/vendor'))).toBeLessThanOrEqual(14);
    expect(released.all(itemFor('MRP-1.1/apply'))).toHaveLength(1);
    expect(released.all(itemFor('MRP-1.2/firm'))).toHaveLength(0);
    expect((released.get(itemFor('MRP-1.2/as_planned')) as { qty: number }).qty % 25).toBe(0);
    expect(released.get(itemFor('MRP-1.3'))).toMatchObject({ status: 'sent' });
    expect(requests.all(itemFor('MRP-1.3'))).toEqual([{ kind: 'expedite', date: '2026-10-12' }]);
    expect(requests.all(itemFor('MRP-1.4/expedite'))).toEqual([{ kind: 'expedite', date: '2026-10-19' }]);
    expect(requests.all(itemFor('MRP-1.4/defer'))).toEqual([{ kind: 'defer', date: '2026-11-09' }]);
    expect(requests.all(itemFor('MRP-1.4/once'))).toEqual([]);
    db.close();
  }, 120_000);

  // One control per clause keeps the file fast; `erp bench validate --strict` plays every control on seeds 0-4.
  const perClause = ['neg:mrp_before_lead_time', 'neg:release_every_suggestion', 'neg:late_not_expedited', 'neg:expedite_twice', 'neg:trim_forecast'];
  it.each(perClause)('given %s, when it plays the Monday, then it fails exactly the checks of the clause it breaks', async (name) => {
    const control = pack.spec.negative_controls[name]!;
    const { result } = await attempt({ kind: 'negative', name: name.replace(/^neg:/, '') }, name.replace(/^neg:/, ''));
    expect(result.verdict).toBe('fail');
    expect(result.checks.filter((c) => !c.passed).map((c) => c.id).sort()).toEqual([...control.fails].sort());
  }, 120_000);
});
