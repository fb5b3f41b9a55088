import { Command } from '@oclif/core';
import { checkPackHandbook } from '../../handbook';
import type { HandbookDiff } from '../../handbook/render';
import { message, taskArg, tasksDirFlag } from '../../runner/cli-support';
import { loadPack } from '../../task-pack/load';

export default class HandbookCheck extends Command {
  static override summary = "Confirm a task's committed handbook/ is byte-identical to the one policies.yaml renders; exits 1 when it is not.";
  static override examples = ['<%= config.bin %> handbook check payment-run'];
  static override args = { task: taskArg };
  static override flags = { 'tasks-dir': tasksDirFlag };
  static override enableJsonFlag = true;

  async run(): Promise<HandbookDiff & { dir: string }> {
    const { args, flags } = await this.parse(HandbookCheck);
    let diff: HandbookDiff & { dir: string };
    try {
      diff = checkPackHandbook(loadPack(args.task, flags['tasks-dir']));
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) {
      if (diff.ok) this.log(`${diff.dir} matches policies.yaml`);
      for (const f of diff.missing) this.log(`missing: ${f}`);
      for (const f of diff.extra) this.log(`not rendered from policies.yaml: ${f}`);
      for (const f of diff.differing) this.log(`differs from the rendering: ${f}`);
      if (!diff.ok) this.log(`run: erp handbook render ${args.task}${flags['tasks-dir'] ? ` --tasks-dir ${flags['tasks-dir']}` : ''}`);
    }
    if (!diff.ok) process.exitCode = 1;
    return diff;
  }
}
