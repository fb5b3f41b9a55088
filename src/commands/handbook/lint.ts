import { Command, Flags } from '@oclif/core';
import { lintPack, type LintReport } from '../../handbook';
import { formatCoverage, type CoverageTable } from '../../handbook/coverage';
import { message, progressWithBar, taskArg, tasksDirFlag } from '../../runner/cli-support';
import { coverageReport } from '../../runner/coverage';
import { loadPack } from '../../task-pack/load';

export type LintResult = LintReport & { coverage?: CoverageTable };

export default class HandbookLint extends Command {
  static override summary = 'Check that every check cites clauses the handbook has and every audit check runs a rule its clauses bind; list the clauses nothing enforces; with --coverage, the clause-coverage table.';
  static override description = 'Exits 1 when a check cites a clause that does not exist (or is in no handbook file), an audit_forbidden/audit_required check runs a rule none of its cited clauses binds, or a negative control breaks a clause (or part) that does not exist. Clauses no check cites and that bind no rule are listed, not failed. --coverage adds the table of every clause: the checks enforcing it, the negative controls that break it (each part alone), and the seeds whose planted cases exercise it, generating the scenarios of --seeds when they are missing or stale; it exits 1 when a clause is not covered.';
  static override examples = ['<%= config.bin %> handbook lint payment-run', '<%= config.bin %> handbook lint payment-run --coverage --seeds 0,1,2,3,4'];
  static override args = { task: taskArg };
  static override flags = {
    'tasks-dir': tasksDirFlag,
    coverage: Flags.boolean({ description: 'print the clause-coverage table (clause → checks → negative controls → seeds exercising it)' }),
    seeds: Flags.string({ default: '0,1,2,3,4', description: 'with --coverage: the seeds whose scenarios are read' }),
    'scenarios-dir': Flags.string({ description: 'with --coverage: where scenarios are generated or found (default: scenarios/)' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<LintResult> {
    const { args, flags } = await this.parse(HandbookLint);
    const seeds = flags.seeds.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
    if (seeds.some((s) => !Number.isInteger(s) || s < 0)) this.error('--seeds takes comma-separated whole numbers, e.g. 0,1,2.', { exit: 2 });
    let report: LintResult;
    try {
      report = lintPack(loadPack(args.task, flags['tasks-dir']));
      if (flags.coverage) report.coverage = await coverageReport({ task: args.task, tasksDir: flags['tasks-dir'], seeds, scenariosDir: flags['scenarios-dir'], ...progressWithBar(`${args.task}: building the company`) });
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) {
      for (const e of report.errors) this.log(`error: ${e}`);
      for (const w of report.warnings) this.log(`warning: ${w}`);
      this.log(report.unenforced.length ? `clauses nothing enforces: ${report.unenforced.join(', ')}` : 'every clause is enforced by a check or a rule');
      if (report.coverage) this.log(formatCoverage(report.coverage));
      if (report.ok) this.log('lint passed');
    }
    if (!report.ok || (report.coverage && !report.coverage.ok)) process.exitCode = 1;
    return report;
  }
}
