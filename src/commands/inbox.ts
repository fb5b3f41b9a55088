import { Command, Flags } from '@oclif/core';
import { requestOutcome } from '../client/agent-cli';
import { finish } from '../client/agent-command';

export default class Inbox extends Command {
  static override summary = 'List messages in your boxes, newest first (erp whoami shows which boxes you can read).';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> inbox --box ap --unread', '<%= config.bin %> inbox --since 2026-10-05', '<%= config.bin %> inbox --box personal --sort sent_date'];
  static override flags = {
    box: Flags.string({ char: 'b', description: 'a box, e.g. ap, purchasing, personal' }),
    unread: Flags.boolean({ description: 'only messages you have not read' }),
    since: Flags.string({ description: 'only mail sent on or after this date (YYYY-MM-DD)' }),
    sort: Flags.string({ description: 'order, e.g. sent_date for the oldest first (default: newest first)' }),
    offset: Flags.integer({ min: 0, description: 'skip this many messages (default 0)' }),
    limit: Flags.integer({ min: 1, max: 1000, description: 'at most this many messages (default 200)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Inbox);
    finish(await requestOutcome('GET', '/inbox', { query: { box: flags.box, unread: flags.unread ? 'true' : undefined, since: flags.since, sort: flags.sort, offset: flags.offset, limit: flags.limit } }));
  }
}
