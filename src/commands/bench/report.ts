import { Args, Command, Flags } from '@oclif/core';
import { message } from '../../runner/cli-support';
import { reportFrom, reportText, writeCsv, writeMarkdown, type Report } from '../../runner/report/build';
import { writeHtml } from '../../runner/report/html';

export default class BenchReport extends Command {
  static override summary = 'Campaign metrics per cell (agent, model, interface, condition) and task, and pass^k per seed: pass@1 with its 95% Wilson interval, check, breach and probe rates, writes and self-reversals, fault handling, usage, turn times.';
  static override description = [
    'Reads every result.json under the given campaigns, labels (folders of runs/) or folders, and each trial of an exported task in a Harbor job folder as an attempt (docs/harbor.md). Rows are keyed by agent name, model, interface, condition and label; --pool-labels merges the same agent and condition across labels. A scenario\'s (task and seed\'s) pass^k is whether it passed in all k of its attempts; a row\'s pass^k is the share of its scenarios that did.',
    'Errored and tampered attempts count as attempts that did not pass; incomplete ones (interrupted runs) are shown and left out of every rate; tampered and incomplete ones are listed under the tables. Unsandboxed runs are cells of their own (+unsandboxed), never pooled with sandboxed ones. Turn-time p90 is the zero-based sorted index floor(0.9·n), capped at n−1.',
    '--html FILE writes one self-contained page (Observable Plot inlined, no network when viewed): pass rate and breach rate per task and agent with intervals, cost against pass rate, turn time distributions and the per-seed pass^k heat map, above the tables. --markdown FILE and --csv DIR write the same tables; --json prints the figures.',
  ].join('\n\n');
  static override examples = ['<%= config.bin %> bench report runs/pilot --html pilot.html', '<%= config.bin %> bench report oracle~http my-harness-v1 --markdown report.md --csv report-csv'];
  static override strict = false;
  static override args = { targets: Args.string({ required: true, description: 'campaigns, labels or folders (several allowed)' }) };
  static override flags = {
    'runs-dir': Flags.string({ description: 'folder of labels (default: runs/)' }),
    'pool-labels': Flags.boolean({ description: 'merge rows of the same agent and condition from different labels' }),
    html: Flags.string({ description: 'write the report with its plots as one self-contained HTML page to this file' }),
    markdown: Flags.string({ description: 'write the tables as Markdown to this file' }),
    csv: Flags.string({ description: 'write one CSV file per table into this folder' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<Omit<Report, 'tables'>> {
    const { argv, flags } = await this.parse(BenchReport);
    let report: Report;
    try {
      const read = reportFrom(argv as string[], flags['runs-dir'], { poolLabels: flags['pool-labels'] });
      report = read.report;
      if (flags.html) writeHtml(report, read.results, flags.html, read.folderOf);
      if (flags.markdown) writeMarkdown(report, flags.markdown);
      if (flags.csv) writeCsv(report, flags.csv);
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) this.log(reportText(report).trimEnd());
    const { tables: _tables, ...figures } = report;
    return figures;
  }
}
