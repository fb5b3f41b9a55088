import { Command } from '@oclif/core';
import { lintPack, type LintReport } from '../../handbook';
import { message, taskArg, tasksDirFlag } from '../../runner/cli-support';
import { loadPack } from '../../task-pack/load';

export default class HandbookLint extends Command {
  static override summary = 'Check that every check cites clauses the handbook has and every audit check runs a rule its clauses bind; list the clauses nothing enforces.';
  static override description = 'Exits 1 when a check cites a clause that does not exist (or is in no handbook file), or an audit_forbidden/audit_required check runs a rule none of its cited clauses binds. Clauses no check cites and that bind no rule are listed, not failed.';
  static override examples = ['<%= config.bin %> handbook lint payment-run'];
  static override args = { task: taskArg };
  static override flags = { 'tasks-dir': tasksDirFlag };
  static override enableJsonFlag = true;

  async run(): Promise<LintReport> {
    const { args, flags } = await this.parse(HandbookLint);
    let report: LintReport;
    try {
      report = lintPack(loadPack(args.task, flags['tasks-dir']));
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) {
      for (const e of report.errors) this.log(`error: ${e}`);
      for (const w of report.warnings) this.log(`warning: ${w}`);
      this.log(report.unenforced.length ? `clauses nothing enforces: ${report.unenforced.join(', ')}` : 'every clause is enforced by a check or a rule');
      if (report.ok) this.log('lint passed');
    }
    if (!report.ok) process.exitCode = 1;
    return report;
  }
}
