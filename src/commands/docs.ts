import { Args, Command } from '@oclif/core';
import { docsOutcome } from '../client/agent-cli';
import { finish } from '../client/agent-command';

export default class Docs extends Command {
  static override summary = 'The API reference (every endpoint, its fields and permission) and, with a handbook/ folder here, the handbook.';
  static override examples = ['<%= config.bin %> docs', '<%= config.bin %> docs purchase-orders', '<%= config.bin %> docs hold'];
  static override args = { word: Args.string({ required: false, description: 'show endpoints and handbook paragraphs that mention this word' }) };

  async run(): Promise<void> {
    const { args } = await this.parse(Docs);
    finish(await docsOutcome(args.word));
  }
}
