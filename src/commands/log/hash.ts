import { Args, Command, Flags } from '@oclif/core';
import { canonicalHash, tableHashes } from '../../events/canonical-hash';
import { openExistingDatabase } from '../../events/database';

export default class LogHash extends Command {
  static override summary = 'Print the canonical hash of a database: rows sorted, wall-clock columns left out.';
  static override description = 'Two files with the same hash hold the same events and read models, whenever they were written. Use --tables to see the hash of each table, to find where two files differ.';
  static override examples = ['<%= config.bin %> log hash runs/attempt/final.db', '<%= config.bin %> log hash final.db --tables'];
  static override args = { db: Args.string({ required: true, description: 'SQLite file of a scenario or attempt' }) };
  static override flags = { tables: Flags.boolean({ description: 'also print the hash of every table' }) };
  static override enableJsonFlag = true;

  async run(): Promise<{ hash: string; tables?: Record<string, string> }> {
    const { args, flags } = await this.parse(LogHash);
    const db = openExistingDatabase(args.db);
    try {
      const result = { hash: canonicalHash(db), ...(flags.tables ? { tables: tableHashes(db) } : {}) };
      if (!this.jsonEnabled()) this.log(flags.tables ? JSON.stringify(result, null, 2) : result.hash);
      return result;
    } finally {
      db.close();
    }
  }
}
