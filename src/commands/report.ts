import { Args, Command } from '@oclif/core';
import { getCommandRun } from '../client/agent-command';

export default class Report extends Command {
  static override summary = 'Run a report (erp get /reports lists them); k=v pairs are its parameters.';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> report trial-balance as_of=2026-10-09', '<%= config.bin %> report grni as_of=2026-10-09'];
  static override strict = false;
  static override args = { id: Args.string({ required: true, description: 'report id, e.g. trial-balance' }) };

  async run(): Promise<void> {
    const { args, argv } = await this.parse(Report);
    await getCommandRun(`/reports/${encodeURIComponent(args.id)}`, (argv as string[]).slice(1));
  }
}
