import { Args, Command, Flags } from '@oclif/core';
import { message } from '../../runner/cli-support';
import { campaignMetrics, collectResults, flaggedAttempts, metricsTable, type GroupMetrics } from '../../runner/metrics';

export default class BenchReport extends Command {
  static override summary = 'Campaign metrics per cell (agent and condition) and task: pass@1, pass^k, check rate, breach rate, probe rate, write volume and self-reversals, turn time median and p90.';
  static override description = 'Reads every result.json under the given labels (folders of runs/) or folders. --json prints the same figures as JSON. Turn-time p90 is the zero-based sorted index floor(0.9·n), capped at n−1. Tampered attempts (files that disagree with the runner\'s tamper evidence) count as attempts and never as passes; incomplete ones (interrupted runs) are left out of every rate; both are listed under the table. Unsandboxed runs are cells of their own (+unsandboxed), never pooled with sandboxed ones.';
  static override examples = ['<%= config.bin %> bench report oracle my-harness-v1', '<%= config.bin %> bench report runs/oracle --json'];
  static override strict = false;
  static override args = { targets: Args.string({ required: true, description: 'labels or folders (several allowed)' }) };
  static override flags = { 'runs-dir': Flags.string({ description: 'folder of labels (default: runs/)' }) };
  static override enableJsonFlag = true;

  async run(): Promise<{ attempts: number; groups: GroupMetrics[]; flagged: string[] }> {
    const { argv, flags } = await this.parse(BenchReport);
    let groups: GroupMetrics[];
    let attempts: number;
    let flagged: string[];
    try {
      const results = collectResults(argv as string[], flags['runs-dir']);
      attempts = results.length;
      groups = campaignMetrics(results);
      flagged = flaggedAttempts(results);
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) this.log(attempts === 0 ? 'no attempts found' : metricsTable(groups) + flagged.map((l) => l + '\n').join(''));
    return { attempts, groups, flagged };
  }
}
