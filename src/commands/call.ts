import { Args, Command, Flags } from '@oclif/core';
import { toolCallOutcome } from '../client/agent-cli';
import { finish } from '../client/agent-command';

export default class Call extends Command {
  static override summary = 'Call one tool of the tool manifest (/tools.json) with name=value arguments; without a tool, list the tools.';
  static override enableJsonFlag = true;
  static override description = "Each tool is bound to one API route: its arguments are typed by the tool's JSON Schema (text stays text, so a routing number keeps its leading zero) and placed in the path, query or body as the binding says. Lists take JSON (invoice_ids='[\"APINV-000001\"]') or commas (invoice_ids=APINV-000001,APINV-000002). Send --key so that a retry cannot act twice.";
  static override examples = [
    '<%= config.bin %> call',
    '<%= config.bin %> call list_queue',
    '<%= config.bin %> call place_hold invoice_id=APINV-000045 reason=duplicate note="Repeats APINV-000012" --key hold-45',
    "<%= config.bin %> call create_debit_memo invoice_id=APINV-000045 reason=short_shipment --data '{\"lines\":[{\"po_line\":1,\"qty\":4}]}'",
  ];
  static override strict = false;
  static override args = { tool: Args.string({ required: false, description: 'tool name, e.g. place_hold' }) };
  static override flags = {
    data: Flags.string({ char: 'd', description: 'arguments as a JSON object, or @file.json; name=value pairs win' }),
    key: Flags.string({ char: 'k', description: 'Idempotency-Key: a retry with the same key has no second effect' }),
  };

  async run(): Promise<void> {
    const { args, argv, flags } = await this.parse(Call);
    finish(await toolCallOutcome(args.tool, (argv as string[]).slice(args.tool ? 1 : 0), { data: flags.data, key: flags.key }));
  }
}
