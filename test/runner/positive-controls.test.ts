import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AttemptResult, CheckResult } from '../../src/grader/result';
import { runAttempt } from '../../src/runner/attempt';
import { clientBundlePath } from '../../src/runner/client-bundle';
import { toolArgumentsFor } from '../../src/runner/generic-positives';
import { newMutantState } from '../../src/runner/mutations';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import { packRows } from '../../src/runner/validate';
import { mutantOutcome, positiveGot } from '../../src/runner/validate-unit';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';
import { FIXTURE_TASKS, packCopy } from '../support/packs';

const check = (id: string, passed: boolean, detail = ''): CheckResult => ({ id, type: 'state_values', required: true, passed, breach: false, detail, cites: [] } as unknown as CheckResult);
const result = (checks: CheckResult[], hash = 'h-mutant'): AttemptResult => ({ verdict: checks.every((c) => c.passed) ? 'pass' : 'fail', checks, final_hash: hash, turns: [] } as unknown as AttemptResult);

describe('a positive control judged', () => {
  it('given it fails a required check, then it fails with the check and its evidence', () => {
    const got = positiveGot(result([check('decisions', false, 'REQ-7: route ≠ approve'), check('approved-set', true)]), null, 'h-oracle');
    expect(got).toEqual({ ok: false, got: 'fail: fails decisions (REQ-7: route ≠ approve)' });
  });

  it('given it passes, then it says so, whether it reached the oracle\'s final state, and what went over plain HTTP', () => {
    expect(positiveGot(result([check('a', true)], 'h-oracle'), null, 'h-oracle')).toEqual({ ok: true, got: 'pass; same final state as the oracle' });
    const fallbacks = { requests: 2, reasons: new Map([['custom headers', 2]]) };
    expect(positiveGot(result([check('a', true)]), null, 'h-oracle', fallbacks).got).toBe('pass; 2 request(s) over plain HTTP: 2× custom headers');
  });
});

describe('a mutation control judged', () => {
  const pack = loadPack('leave-cover', FIXTURE_TASKS);
  const shift = pack.spec.mutations.find((m) => m.breaks === 'LV-1.2')!;
  const changed = { ...newMutantState(), matched: 1, changed: 1 };

  it('given a check citing its clause fails, then it is caught', () => {
    expect(mutantOutcome(pack, shift, changed, result([check('leave-values', false), check('leave-set', true)]), 'h-oracle')).toEqual({ outcome: 'caught', got: 'fails leave-values' });
  });

  it('given every check of its clause passes though its writes differ, then it is a false pass naming them', () => {
    const out = mutantOutcome(pack, shift, changed, result([check('leave-values', true), check('handoff-note', false)]), 'h-oracle');
    expect(out.outcome).toBe('missed');
    expect(out.got).toMatch(/^FALSE PASS: 1 request\(s\) changed, and leave-values pass \(fails only handoff-note\)/);
  });

  it('given nothing matched, or the final state is the oracle\'s, then it is unchanged and not counted', () => {
    expect(mutantOutcome(pack, shift, newMutantState(), result([check('leave-values', true)]), 'h-oracle')).toEqual({ outcome: 'unchanged', got: 'unchanged: no request matched' });
    expect(mutantOutcome(pack, shift, changed, result([check('leave-values', true)], 'h-oracle'), 'h-oracle').outcome).toBe('unchanged');
  });
});

describe('--strict and a pack\'s own positive controls', () => {
  it('given fewer than three, then the pack fails the count; given three, it holds', () => {
    const two = packCopy({ task: (t) => delete t.positive_controls['pos:note-each-turn'] });
    const row = (dir: string) => packRows('leave-cover', join(dir, '..'), true).rows.find((r) => r.control === 'positive controls')!;
    expect(row(two)).toMatchObject({ ok: false, got: '2: pos:asked-in-reverse, pos:read-first' });
    expect(row(packCopy())).toMatchObject({ ok: true });
  });
});

describe('the tool that makes a request, for the MCP positive control', () => {
  const tool = {
    binding: {
      method: 'POST', path: '/ap-invoices/{id}/flag-duplicate', operation_id: 'x', permission: null, tag: 'payables',
      arguments: { invoice_id: { in: 'path' as const, name: 'id' }, original_invoice_id: { in: 'body' as const, name: 'original' }, idempotency_key: { in: 'header' as const, name: 'Idempotency-Key' } },
      fixed: [],
    },
  };

  it('given a request its binding makes, then its arguments; given a field it cannot place, then none', () => {
    const req = { method: 'POST', path: '/ap-invoices/APINV-9/flag-duplicate', options: { body: { original: 'APINV-3' }, idempotencyKey: 'k1' } };
    expect(toolArgumentsFor(tool, req)).toEqual({ invoice_id: 'APINV-9', original_invoice_id: 'APINV-3', idempotency_key: 'k1' });
    expect(toolArgumentsFor(tool, { ...req, options: { body: { original: 'APINV-3', note: 'x' } } })).toBeNull();
    expect(toolArgumentsFor(tool, { ...req, method: 'GET' })).toBeNull();
  });
});

// The generic positives go through dist/erp-client.cjs (`npm run build`).
const built = existsSync(clientBundlePath());
(built ? describe : describe.skip)('the generic positive controls, played on the smoke task', () => {
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-positives-'));
  const pack = loadPack('leave-cover', FIXTURE_TASKS);
  const code = loadPackCode(pack);
  const scenarioDir = join(root, 'scenarios', 'leave-cover', 'seed-0');
  let scenario: Scenario;
  const play = async (agent: Parameters<typeof runAttempt>[0]['agent'], name: string) =>
    (await runAttempt({ pack, code, packHash: scenario.manifest.pack_hash, scenarioDir, seed: 0, agent, attemptDir: join(root, name), label: 'test', rep: 1 })).result!;
  const outcomes = (r: AttemptResult) => r.checks.map((c) => [c.id, c.passed]);
  let oracle: AttemptResult;

  beforeAll(async () => {
    scenario = await generateScenario(pack, { seed: 0, out: scenarioDir });
    oracle = await play({ kind: 'oracle' }, 'oracle');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each(['oracle~cli', 'oracle~keys'])('given %s, when played, then it makes the oracle\'s writes: the same final state', async (name) => {
    const r = await play({ kind: 'positive', name }, name);
    expect(r.verdict).toBe('pass');
    expect(r.final_hash).toBe(oracle.final_hash);
  });

  it.each(['oracle~mcp', 'oracle~reads'])('given %s, which reads more than the oracle, then it passes every check the oracle passes', async (name) => {
    const r = await play({ kind: 'positive', name }, name);
    expect(outcomes(r)).toEqual(outcomes(oracle));
    expect(r.verdict).toBe('pass');
    expect(r.final_hash).not.toBe(oracle.final_hash);
  });

  it('given a pack\'s own positive control by name, then it is played, and an unknown one is refused naming those there are', async () => {
    expect((await play({ kind: 'positive', name: 'asked-in-reverse' }, 'own')).verdict).toBe('pass');
    await expect(play({ kind: 'positive', name: 'nope' }, 'nope')).rejects.toThrow(/no positive control pos:nope \(it has pos:asked-in-reverse, pos:read-first, pos:note-each-turn, pos:oracle~cli/);
  });
});
