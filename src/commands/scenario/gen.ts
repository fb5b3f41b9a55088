import { Command, Flags } from '@oclif/core';
import { message, progress, seedFlag, taskArg, tasksDirFlag } from '../../runner/cli-support';
import { generateScenario, type ScenarioManifest } from '../../runner/scenario';
import { loadPack } from '../../task-pack/load';

export default class ScenarioGen extends Command {
  static override summary = "Generate a task's scenario: scenario.db, world.json, turns.yaml, handbook/, truth.json, and reference/ from the oracle played through the runner.";
  static override description = 'Cached by task, seed, the pack\'s files and the code version: a second gen with nothing changed returns at once and says it used the cache. Progress goes to stderr; stdout gets one JSON line.';
  static override examples = ['<%= config.bin %> scenario gen payment-run --seed 0', '<%= config.bin %> scenario gen leave-cover --tasks-dir test/fixtures/tasks --seed 1 --out /tmp/s1'];
  static override args = { task: taskArg };
  static override flags = {
    'tasks-dir': tasksDirFlag,
    seed: seedFlag,
    out: Flags.string({ description: 'scenario folder (default: scenarios/<task>/seed-<N>)' }),
    force: Flags.boolean({ description: 'generate again even when the cache matches' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<{ dir: string; cached: boolean; manifest: ScenarioManifest }> {
    const { args, flags } = await this.parse(ScenarioGen);
    try {
      const out = await generateScenario(loadPack(args.task, flags['tasks-dir']), { seed: flags.seed, out: flags.out, force: flags.force, log: progress });
      if (!this.jsonEnabled()) this.log(JSON.stringify({ dir: out.dir, cached: out.cached, oracle: out.manifest.oracle.verdict }));
      return out;
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
  }
}
