import { Args, Command } from '@oclif/core';
import { readMessageOutcome } from '../client/agent-cli';
import { finish } from '../client/agent-command';

export default class Read extends Command {
  static override summary = 'Show a message (headers, body, attachment list, links) and mark it read.';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> read MSG-000231'];
  static override args = { id: Args.string({ required: true, description: 'message id' }) };

  async run(): Promise<void> {
    const { args } = await this.parse(Read);
    finish(await readMessageOutcome(args.id));
  }
}
