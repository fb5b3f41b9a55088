import { Args, Command } from '@oclif/core';
import { docsOutcome } from '../client/agent-cli';
import { finish } from '../client/agent-command';

export default class Docs extends Command {
  static override summary = 'The API reference (every endpoint, its fields and permission) and, with a handbook/ folder here, the handbook.';
  static override description = 'Without ERP_URL, the reference is built from this erp\'s own route registry, no server needed. Text by default; with --json, the same selection as data: endpoints (method, path, summary, permission, and for a word their parameters and body schema) and handbook files or paragraphs.';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> docs', '<%= config.bin %> docs purchase-orders', '<%= config.bin %> docs hold', '<%= config.bin %> docs purchase-orders --json'];
  static override args = { word: Args.string({ required: false, description: 'show endpoints and handbook paragraphs that mention this word' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Docs);
    finish(await docsOutcome(args.word, flags.json, () => (require('../api/offline-docs') as typeof import('../api/offline-docs')).offlineOpenApi()));
  }
}
