import { Args, Command, Flags } from '@oclif/core';
import { createAppRegistry } from '../../projections';
import { replayFile, type ReplayResult } from '../../projections/replay';

export default class LogReplay extends Command {
  static override summary = 'Rebuild every read model from the events alone into a fresh database.';
  static override description = 'Copies the events (up to --until) verbatim and folds them through the read models. The result has the same canonical hash as the source when the source is consistent; with --until it is the state as of that event.';
  static override examples = ['<%= config.bin %> log replay final.db --out replayed.db', '<%= config.bin %> log replay final.db --until 1200 --out as-of-1200.db'];
  static override args = { db: Args.string({ required: true, description: 'source SQLite file' }) };
  static override flags = {
    out: Flags.string({ required: true, description: 'file to write' }),
    until: Flags.integer({ min: 1, description: 'last event id to include' }),
    force: Flags.boolean({ description: 'overwrite --out if it exists' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<ReplayResult & { out: string }> {
    const { args, flags } = await this.parse(LogReplay);
    try {
      const result = { ...replayFile(args.db, flags.out, createAppRegistry(), { untilSeq: flags.until, force: flags.force }), out: flags.out };
      if (!this.jsonEnabled()) this.log(JSON.stringify(result));
      return result;
    } catch (err) {
      this.error(err instanceof Error ? err.message : String(err), { exit: 1 });
    }
  }
}
