import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadPack } from '../../src/task-pack/load';
import { generateScenario } from '../../src/runner/scenario';
import { validate } from '../../src/runner/validate';
import { packCopy } from '../support/packs';

/** The smoke pack with one of its policies wrapped so that a turn throws after (or instead of) its work. */
function crashing(which: 'oracle' | 'no-note', turn: number): string {
  return packCopy({
    index: (s) => s.replace('export default task;', [
      `const wrapped = ${which === 'oracle' ? 'task.oracle' : "task.negatives['no-note']"}!;`,
      `const crash: AgentPolicy = async (ctx) => { await wrapped(ctx); if (ctx.turn.index === ${turn}) throw new Error('lost its way'); };`,
      which === 'oracle' ? 'task.oracle = crash;' : "task.negatives['no-note'] = crash;",
      'export default task;',
    ].join('\n')),
  });
}

describe('a scripted policy whose turn does not finish', () => {
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-broken-'));

  it('given an oracle that throws at the end of turn 2, when the scenario is generated, then there is no reference and the error names the turn', async () => {
    const pack = loadPack(crashing('oracle', 2));
    await expect(generateScenario(pack, { seed: 0, out: join(root, 'scenario-oracle') }))
      .rejects.toThrow(/^The oracle's turn 2 exited 1, so there is no reference: Error: lost its way \(.*turns\/2\/stderr\.txt\)$/);
  });

  it('given a negative control that throws on turn 1 after its work, when validated strict, then its control fails as broken, not as proven, and the clause only it broke is uncovered', async () => {
    const dir = crashing('no-note', 1);
    const report = await validate({ tasks: ['leave-cover'], tasksDir: dirname(dir), seeds: [0], runsDir: join(root, 'validate'), scenariosDir: join(root, 'scenarios'), strict: true });
    const failed = report.rows.filter((r) => !r.ok);
    expect(failed.map((r) => [r.control, r.got])).toEqual([
      ['neg:no-note', 'turn 1 exited 1 (turns/1/stderr.txt)'],
      ['clause coverage', 'LV-2.1: neg:no-note did not come out as declared on seed 0'],
    ]);
    // The failing control keeps its databases to be looked into; one that held does not.
    const seedDir = join(root, 'validate', 'leave-cover', 'seed-0');
    expect(['start.db', 'final.db'].map((f) => existsSync(join(seedDir, 'neg-no-note', f)))).toEqual([false, true]);
    expect(['start.db', 'final.db', 'result.json'].map((f) => existsSync(join(seedDir, 'neg-everything', f)))).toEqual([false, false, true]);
  });
});
