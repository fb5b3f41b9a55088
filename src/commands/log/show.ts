import { Args, Command, Flags } from '@oclif/core';
import { openExistingDatabase } from '../../events/database';
import type { EventRow } from '../../events/event-row';
import { queryLog } from '../../events/log-query';

export default class LogShow extends Command {
  static override summary = 'Print events as JSON lines, filtered.';
  static override description = 'One event per line; with --json, one JSON document: {"events": [...]}.';
  static override enableJsonFlag = true;
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

  async run(): Promise<{ events: EventRow[] } | undefined> {
    const { args, flags } = await this.parse(LogShow);
    const db = openExistingDatabase(args.db);
    try {
      const rows = queryLog(db, {
        actor: flags.actor, object: flags.object, action: flags.action, type: flags.type,
        outcome: flags.outcome as 'ok' | 'refused' | undefined, kind: flags.kind as 'write' | 'read' | undefined,
        fromSeq: flags.from, untilSeq: flags.until, limit: flags.limit,
      });
      if (this.jsonEnabled()) return { events: [...rows] };
      for (const e of rows) process.stdout.write(JSON.stringify(e) + '\n');
      return undefined;
    } finally {
      db.close();
    }
  }
}
