import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-info';
import { FIXTURE_TASKS } from '../support/packs';

/**
 * The built campaign runner (its attempts in worker processes), interrupted while a worker is still
 * starting: the attempt it was to play never recorded an end of its own.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runCampaign } = require(join(packageRoot(), 'dist', 'src', 'runner', 'campaign', 'run.js')) as typeof import('../../src/runner/campaign/run');

const root = mkdtempSync(join(tmpdir(), 'bb-erp-campaign-interrupt-'));

describe('a campaign interrupted while its worker starts', () => {
  it('given one slot, when the interrupt comes before the attempt could end, then the slot holds an incomplete result saying so', async () => {
    const stop = new AbortController();
    const out = await runCampaign({
      spec: { name: 'cut-short', tasks: ['leave-cover'], tasksDir: FIXTURE_TASKS, seeds: [0], reps: 1, conditions: ['clean'], agents: [{ agent: 'oracle' }] },
      runsDir: join(root, 'runs'), scenariosDir: join(root, 'scenarios'), jobs: 1, signal: stop.signal,
      // The worker has been spawned, and has not loaded yet.
      onAttemptsStart: () => setImmediate(() => stop.abort()),
    });
    expect(out.interrupted).toBe(true);
    const slot = join(out.dir, 'oracle~http', 'leave-cover', 'seed-0', 'rep-1');
    expect(existsSync(join(slot, 'result.json'))).toBe(true);
    const result = JSON.parse(readFileSync(join(slot, 'result.json'), 'utf8')) as { verdict: string; status: string; why?: string };
    expect(result).toMatchObject({ verdict: 'incomplete', why: expect.stringMatching(/^interrupted before the attempt recorded its end/) });
    expect(out.counts.incomplete).toBe(1);
    expect(readdirSync(out.dir)).not.toContain('.staging');
  }, 120_000);
});
