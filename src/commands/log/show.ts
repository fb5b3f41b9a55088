import { Args, Command, Flags } from '@oclif/core';
import { openDatabase } from '../../events/database';
import { queryLog } from '../../events/log-query';

export default class LogShow extends Command {
  static override summary = 'Print events as JSON lines, filtered.';
  static override examples = ['<%= config.bin %> log show final.db --actor maya.chen --limit 20', '<%= config.bin %> log show final.db --object PO-000123', '<%= config.bin %> log show final.db --outcome refused'];
  static override args = { db: Args.string({ required: true, description: 'SQLite file' }) };
  static override flags = {
    actor: Flags.string({ description: 'only this user\'s requests' }),
    object: Flags.string({ description: 'only events on this document id' }),
    action: Flags.string({ description: 'only this action code, e.g. purchase_order.send' }),
    type: Flags.string({ description: 'only this domain event type, e.g. PurchaseOrderSent' }),
    outcome: Flags.string({ options: ['ok', 'refused'], description: 'only accepted or refused requests' }),
    kind: Flags.string({ options: ['write', 'read'], description: 'only writes or reads' }),
    from: Flags.integer({ min: 0, description: 'first event id' }),
    until: Flags.integer({ min: 0, description: 'last event id' }),
    limit: Flags.integer({ min: 1, description: 'at most this many events' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(LogShow);
    const db = openDatabase(args.db, { readonly: true });
    try {
      for (const e of queryLog(db, {
        actor: flags.actor, object: flags.object, action: flags.action, type: flags.type,
        outcome: flags.outcome as 'ok' | 'refused' | undefined, kind: flags.kind as 'write' | 'read' | undefined,
        fromSeq: flags.from, untilSeq: flags.until, limit: flags.limit,
      })) process.stdout.write(JSON.stringify(e) + '\n');
    } finally {
      db.close();
    }
  }
}
