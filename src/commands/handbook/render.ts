import { Command } from '@oclif/core';
import { renderPackHandbook } from '../../handbook';
import { message, taskArg, tasksDirFlag } from '../../runner/cli-support';
import { loadPack } from '../../task-pack/load';

export default class HandbookRender extends Command {
  static override summary = "Write a task's handbook/ from its policies.yaml: one Markdown file per policy file, clauses numbered, parameters filled.";
  static override examples = ['<%= config.bin %> handbook render payment-run', '<%= config.bin %> handbook render leave-cover --tasks-dir test/fixtures/tasks'];
  static override args = { task: taskArg };
  static override flags = { 'tasks-dir': tasksDirFlag };
  static override enableJsonFlag = true;

  async run(): Promise<{ dir: string; files: string[] }> {
    const { args, flags } = await this.parse(HandbookRender);
    try {
      const out = renderPackHandbook(loadPack(args.task, flags['tasks-dir']));
      this.log(`wrote ${out.files.join(', ')} in ${out.dir}`);
      return out;
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
  }
}
