import { Args, Command } from '@oclif/core';
import { getCommandRun } from '../client/agent-command';

export default class Get extends Command {
  static override summary = 'GET an API path; k=v pairs are query parameters (filters, offset, limit).';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> get /purchase-orders status=sent vendor=V-0142', '<%= config.bin %> get /ap-invoices/APINV-000045'];
  static override strict = false;
  static override args = { path: Args.string({ required: true, description: 'API path, e.g. /purchase-orders' }) };

  async run(): Promise<void> {
    const { args, argv } = await this.parse(Get);
    await getCommandRun(args.path, (argv as string[]).slice(1));
  }
}
