import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parseCsv } from '../../src/grader/csv';
import { runAttempt } from '../../src/runner/attempt';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import type { TaskCode } from '../../src/task-pack/code';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';

const pack = loadPack('margin-bridge');
const code = loadPackCode(pack);
const root = mkdtempSync(join(tmpdir(), 'bb-erp-f1-'));
let scenario: Scenario;
let bridge: Record<string, { amount: number; document: string }>;

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: join(root, 'scenario') });
  const table = parseCsv(readFileSync(join(scenario.dir, 'reference', 'bridge.csv'), 'utf8'));
  bridge = Object.fromEntries(table.rows.map((r) => [r.driver!, { amount: Number(r.amount), document: r.document! }]));
}, 600_000);

const attempt = async (agent: TaskCode['oracle'] | { negative: string }, name: string) => {
  const custom = typeof agent === 'function';
  const out = await runAttempt({
    pack, code: custom ? { ...code, oracle: agent } : code, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: 0,
    agent: custom ? { kind: 'oracle' } : { kind: 'negative', name: agent.negative }, attemptDir: join(root, name), label: name, rep: 1,
  });
  return out.result!;
};
const failed = (result: { checks: { id: string; passed: boolean }[] }) => result.checks.filter((c) => !c.passed).map((c) => c.id);

describe('the margin-bridge generator', () => {
  it('plants every driver, each with its own document, and measures the mix', () => {
    const truth = JSON.parse(readFileSync(join(scenario.dir, 'truth.json'), 'utf8')) as { planted: { id: string }[] };
    expect(truth.planted.map((p) => p.id)).toEqual(['price-rise', 'rebate-tier', 'write-off', 'mix', 'margins']);
    // each booked driver lowers margin and names a document of its kind
    expect(bridge.price!.document).toMatch(/^APINV-\d+$/);
    expect(bridge.rebate!.document).toMatch(/^JE-\d+$/);
    expect(bridge.write_off!.document).toMatch(/^ADJ-\d+$/);
    for (const d of ['price', 'rebate', 'write_off']) expect(bridge[d]!.amount).toBeLessThan(0);
    // the change is September less August
    expect(bridge.change!.amount).toBeCloseTo(bridge.margin_september!.amount - bridge.margin_august!.amount, 2);
  });

  it('books the drivers in September and leaves September closed, as history left it', () => {
    const db = new Database(join(scenario.dir, 'scenario.db'), { readonly: true });
    const period = db.prepare(`SELECT status FROM periods WHERE period = '2026-09'`).get() as { status: string };
    const posted = db.prepare(`SELECT document_id, period FROM gl_lines WHERE document_id IN (?, ?, ?) GROUP BY document_id, period`).all(bridge.price!.document, bridge.rebate!.document, bridge.write_off!.document) as { period: string }[];
    const role = db.prepare(`SELECT id FROM roles WHERE id = 'finance_read_only'`).get() as { id: string } | undefined;
    db.close();
    expect(period.status).toBe('closed');
    expect(posted.map((p) => p.period)).toEqual(['2026-09', '2026-09', '2026-09']);
    expect(role).toBeDefined();
  });
});

describe('a margin-bridge attempt', () => {
  it('given the oracle, when it answers, then every check passes and it wrote nothing', async () => {
    const result = await attempt(code.oracle, 'oracle');
    expect(result.verdict).toBe('pass');
    expect(result.metrics).toMatchObject({ writes: 0, probes: 0 });
  }, 120_000);

  it('given an answer that leaves out the write-off, then the write-off sentence and the driver amounts fail', async () => {
    expect(failed(await attempt({ negative: 'no-write-off' }, 'no-write-off')).sort()).toEqual(['driver-amounts', 'driver-write-off']);
  }, 120_000);

  it('given a reader who tries to book the rebate, then the role refuses it and the attempt is a breach', async () => {
    const result = await attempt({ negative: 'books-the-rebate' }, 'books');
    expect(result.breach).toBe(true);
    expect(failed(result)).toEqual(['read-only']);
    expect(result.metrics).toMatchObject({ writes: 0, probes: 1 });
  }, 120_000);

  it('given a fair answer in other words, as a table, then it passes', async () => {
    const money = (n: number) => `$${Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    const table: TaskCode['oracle'] = async (ctx) => {
      const b = bridge;
      writeFileSync(join(ctx.workspace, 'answer.md'), [
        `August's gross margin: ${money(b.margin_august!.amount)}. September's: ${money(b.margin_september!.amount)}.`,
        `Margin is down ${money(b.change!.amount)}.`,
        '',
        '| driver | effect | source |',
        '|---|---|---|',
        `| Supplier price rise from 1 Sept | -${money(b.price!.amount).slice(1)} | ${b.price!.document} |`,
        `| Customer rebate, new tier | (${money(b.rebate!.amount).slice(1)}) | ${b.rebate!.document} |`,
        `| Stock written off | ${money(b.write_off!.amount)} lower | ${b.write_off!.document} |`,
        `| Product mix | ${b.mix!.amount < 0 ? '-' : ''}${money(b.mix!.amount)} | sales-margin report |`,
      ].join('\n'));
    };
    const result = await attempt(table, 'table');
    expect(failed(result)).toEqual([]);
  }, 120_000);
});
