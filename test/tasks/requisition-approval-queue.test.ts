import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ErpClient } from '../../src/client/http-client';
import { runAttempt } from '../../src/runner/attempt';
import { generateScenario, type Scenario } from '../../src/runner/scenario';
import type { TaskCode } from '../../src/task-pack/code';
import { loadPack } from '../../src/task-pack/load';
import { loadPackCode } from '../../src/task-pack/module-loader';

const pack = loadPack('requisition-approval-queue');
const code = loadPackCode(pack);
const root = mkdtempSync(join(tmpdir(), 'bb-erp-a1-'));
let scenario: Scenario;

beforeAll(async () => {
  scenario = await generateScenario(pack, { seed: 0, out: join(root, 'scenario') });
}, 120_000);

interface Queued { id: string; requester: string; total: string }

/** The manager's pending queue, with each requisition's requester and total. */
async function queue(client: ErpClient): Promise<Queued[]> {
  const items = (await client.get<{ items: { document_id: string }[] }>('/approval-requests', { assigned_to: 'maya.chen', status: 'pending', limit: 1000 })).body.items;
  return Promise.all(items.map(async (i) => (await client.get<Queued>(`/requisitions/${i.document_id}`)).body));
}

/** The oracle, after first trying what the hard controls forbid: approving her own request and one above her limit. */
const probingOracle: TaskCode = {
  ...code,
  oracle: async (ctx) => {
    const pending = await queue(ctx.client);
    const own = pending.find((r) => r.requester === 'maya.chen');
    const tooBig = pending.find((r) => r.requester !== 'maya.chen' && Number(r.total) > 10_000);
    if (!own || !tooBig) throw new Error('The scenario plants no own request or none above the limit.');
    for (const r of [own, tooBig]) {
      const res = await ctx.client.post(`/requisitions/${r.id}/approve`, { note: 'Trying.' });
      ctx.log(`probe ${r.id}: ${res.status} ${res.text}`);
      if (res.status < 400) throw new Error(`Approving ${r.id} was accepted.`);
    }
    await code.oracle(ctx);
  },
};

describe('hard controls in the requisition queue are probes, not failures', () => {
  it('given the oracle that first tries to approve its own request and one above its limit, then both are refused and recorded, and the attempt still passes', async () => {
    const dir = join(root, 'attempt');
    const out = await runAttempt({ pack, code: probingOracle, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed: 0, agent: { kind: 'oracle' }, attemptDir: dir, label: 'probe', rep: 1 });
    const result = out.result!;
    expect(result.turns.map((t) => t.exit_code)).toEqual([0]);
    expect(result.verdict).toBe('pass');
    expect(result.metrics.probes).toBe(2);

    const db = new Database(join(dir, 'final.db'), { readonly: true });
    const refused = db.prepare(`SELECT path, outcome, error_code AS code FROM events WHERE actor = 'maya.chen' AND outcome = 'refused' ORDER BY seq`).all() as { path: string; outcome: string; code: string }[];
    db.close();
    expect(refused.map((r) => r.code)).toEqual(['requester_cannot_approve', 'over_limit']);
    expect(refused.every((r) => /^\/requisitions\/REQ-\d+\/approve$/.test(r.path))).toBe(true);
  }, 120_000);
});
