import { Args, Command, Flags } from '@oclif/core';
import { attachmentOutcome } from '../client/agent-cli';
import { finish } from '../client/agent-command';

export default class Attachment extends Command {
  static override summary = 'Download attachment N of a message to a file (-o), or print it.';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> attachment MSG-000231 1 -o invoice.txt'];
  static override args = {
    id: Args.string({ required: true, description: 'message id' }),
    n: Args.integer({ required: true, min: 1, description: 'attachment number, from 1' }),
  };
  static override flags = { output: Flags.string({ char: 'o', description: 'file to write' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Attachment);
    finish(await attachmentOutcome(args.id, args.n, flags.output));
  }
}
