import { Args, Command } from '@oclif/core';
import { verifyChain, type ChainVerdict } from '../../events/chain-verify';
import { openExistingDatabase } from '../../events/database';

export default class LogVerify extends Command {
  static override summary = 'Recompute the hash chain of the event log and report the first broken link.';
  static override description = 'Each event row carries a hash chained to the row before it. An edit made to the file outside bb-erp (with the triggers dropped, say) breaks the chain at the first changed row. Exits 1 when the chain is broken.';
  static override examples = ['<%= config.bin %> log verify runs/oracle/payment-run/seed-0/rep-1/final.db', '<%= config.bin %> log verify final.db --json'];
  static override args = { db: Args.string({ required: true, description: 'SQLite file' }) };
  static override enableJsonFlag = true;

  async run(): Promise<ChainVerdict> {
    const { args } = await this.parse(LogVerify);
    const db = openExistingDatabase(args.db);
    let verdict: ChainVerdict;
    try {
      verdict = verifyChain(db);
    } finally {
      db.close();
    }
    if (!this.jsonEnabled()) this.log(JSON.stringify(verdict));
    if (!verdict.ok) process.exitCode = 1;
    return verdict;
  }
}
