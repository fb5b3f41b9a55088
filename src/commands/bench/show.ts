import { Args, Command, Flags } from '@oclif/core';
import { attemptDatabase } from '../../runner/db-file';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { message, tasksDirFlag } from '../../runner/cli-support';
import { harborTrial, trialAttemptFolder } from '../../runner/report/harbor-trials';
import { attemptView, type AttemptView } from '../../runner/viewer/attempt-view';
import { writeAttemptHtml } from '../../runner/viewer/html';
import { tableAsOf } from '../../runner/viewer/time-travel';

export default class BenchShow extends Command {
  static override summary = 'Show an attempt: its turns, its API calls in order, each check with agent rows beside reference rows, time travel, and its writes against the oracle\'s.';
  static override description = [
    '--html FILE writes the attempt viewer, one self-contained page: the turns (prompt, agent output, duration; the reference llm agent\'s as a conversation, its system message and each tool call folded), a plot and a table of every API call in order with its outcome (the agent\'s refused requests marked as probes), each check with the agent\'s rows beside the reference\'s and, for each differing row, links to the events behind it; the task\'s projections as they stood after any event (a slider); and the attempt\'s writes against the oracle\'s, matched by business key (action, outcome and payload without the ids the system assigned).',
    '--table T --until EVENT prints any read-model table as it stood after that event (a replay of final.db up to it), as JSON.',
  ].join('\n\n');
  static override examples = ['<%= config.bin %> bench show runs/pilot/oracle~http/payment-run/seed-0/rep-1 --html attempt.html', '<%= config.bin %> bench show runs/pilot/oracle~http/payment-run/seed-0/rep-1 --table ap_invoices --until 5120'];
  static override args = { dir: Args.string({ required: true, description: 'attempt folder, or a Harbor trial folder of an exported task' }) };
  static override flags = {
    'tasks-dir': tasksDirFlag,
    html: Flags.string({ description: 'write the attempt viewer to this file' }),
    table: Flags.string({ description: 'a read-model table to show as of --until' }),
    until: Flags.integer({ min: 0, description: 'the event after which to show --table (default: the last)' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(BenchShow);
    try {
      if (flags.table) {
        const until = flags.until ?? Number.MAX_SAFE_INTEGER;
        const out = { table: flags.table, until: flags.until ?? null, ...tableAsOf(attemptDatabase(args.dir), flags.table, until) };
        if (!this.jsonEnabled()) this.log(JSON.stringify(out, null, 2));
        return out;
      }
      if (!flags.html) throw new Error('Say what to show: --html FILE for the attempt viewer, or --table T [--until EVENT].');
      // A Harbor trial of an exported task is opened as the attempt it played (docs/harbor.md).
      const scratch = harborTrial(args.dir) ? mkdtempSync(join(tmpdir(), 'bb-erp-trial-')) : undefined;
      let view: AttemptView;
      try {
        view = attemptView(scratch ? trialAttemptFolder(args.dir, scratch, { tasksDir: flags['tasks-dir'] }) : args.dir);
      } finally {
        if (scratch) rmSync(scratch, { recursive: true, force: true });
      }
      writeAttemptHtml(view, flags.html);
      const out = { html: flags.html, turns: view.turns.length, calls: view.calls.length, probes: view.calls.filter((c) => c.probe).length, checks: view.checks.length, states: view.states.length, start_seq: view.record.start_seq };
      if (!this.jsonEnabled()) this.log(`wrote ${flags.html}: ${out.turns} turns, ${out.calls} API calls (${out.probes} probes), ${out.checks} checks, ${out.states} states of the task's projections`);
      return out;
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
  }
}
