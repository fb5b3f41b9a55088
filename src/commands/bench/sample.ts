import { Command, Flags } from '@oclif/core';
import { message, progress, tasksDirFlag } from '../../runner/cli-support';
import { writeSample, type SampleReport } from '../../runner/sample';

export default class BenchSample extends Command {
  static override summary = 'Write the public sample: one seed-1 task per AP-exception family, the ERP, the grader and a run script, runnable with Node alone.';
  static override description = "The folder holds the compiled code, the task packs, the scenarios with their answer keys, the runtime dependencies (better-sqlite3's compiled addon included) and run.js, which plays each task with an agent command (the reference agent by default) and grades it. It is not a held-out set. Needs a built package.";
  static override examples = ['<%= config.bin %> bench sample --out /tmp/bb-erp-sample && cd /tmp/bb-erp-sample && node run.js'];
  static override flags = {
    out: Flags.string({ required: true, description: 'an empty or new folder' }),
    'tasks-dir': tasksDirFlag,
    'scenarios-dir': Flags.string({ description: 'where scenarios are generated or found (default: scenarios/)' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<SampleReport> {
    const { flags } = await this.parse(BenchSample);
    let report: SampleReport;
    try {
      report = await writeSample({ out: flags.out, tasksDir: flags['tasks-dir'], scenariosDir: flags['scenarios-dir'], log: progress });
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) this.log(`wrote ${report.tasks.length} tasks and ${report.modules.length} runtime modules to ${report.out}; run it with: node ${report.out}/run.js`);
    return report;
  }
}
