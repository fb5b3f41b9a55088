import { Command, Flags } from '@oclif/core';
import { message, progress, tasksDirFlag } from '../../runner/cli-support';
import { formatStrategies, strategies, type StrategiesReport } from '../../runner/strategies';

const list = (text: string | undefined) => text?.split(',').map((s) => s.trim()).filter(Boolean);

export default class BenchStrategies extends Command {
  static override summary = "Run the strategy matrix of seed 004: per family and seed, the reference, alternative valid solutions, the failing strategies, regression strategies and a blind one.";
  static override description = 'Every strategy plays through the real runner on the same scenario and is graded. Valid strategies must pass every run; failing and regression strategies must fail every run (the table shows the share of checks each still satisfied); the blind strategy, acting on queue position alone, must pass no more often than chance predicts (its count, the expectation and the 95% bound are printed). Exits 1 when the matrix does not hold.';
  static override examples = ['<%= config.bin %> bench strategies --family all --seeds 1,2,3,4,5', '<%= config.bin %> bench strategies --family duplicate,wire --seeds 1'];
  static override flags = {
    family: Flags.string({ default: 'all', description: 'comma-separated families, or all' }),
    seeds: Flags.string({ default: '1,2,3,4,5', description: 'comma-separated seeds' }),
    'tasks-dir': tasksDirFlag,
    jobs: Flags.integer({ min: 1, description: 'worker processes (default: the number of cores)' }),
    'runs-dir': Flags.string({ description: 'where the attempts go (default: runs/strategies)' }),
    'scenarios-dir': Flags.string({ description: 'where scenarios are generated or found (default: scenarios/)' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<StrategiesReport> {
    const { flags } = await this.parse(BenchStrategies);
    const seeds = list(flags.seeds)!.map(Number);
    if (seeds.some((s) => !Number.isInteger(s) || s < 0)) this.error('--seeds takes comma-separated whole numbers, e.g. 1,2,3.', { exit: 2 });
    let report: StrategiesReport;
    try {
      report = await strategies({ families: list(flags.family), seeds, tasksDir: flags['tasks-dir'], jobs: flags.jobs, runsDir: flags['runs-dir'], scenariosDir: flags['scenarios-dir'], log: progress });
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) this.log(formatStrategies(report));
    if (!report.ok) process.exitCode = 1;
    return report;
  }
}
