import { Command, Flags } from '@oclif/core';
import { message, progress, tasksDirFlag } from '../../runner/cli-support';
import { exportHarbor, type HarborExport } from '../../export/harbor/export';
import { DEFAULT_BASE_IMAGE } from '../../export/harbor/task-files';

export default class ExportHarbor extends Command {
  static override summary = 'Write a task as Harbor multi-step tasks, one per seed, in a dataset folder: the agent in main, the ERP as a compose service, a separate verifier.';
  static override description = [
    'Each task folder follows Harbor 0.22.0\'s task.toml schema (version 1.4): one step per turn with the turn\'s prompt; after each step a collect hook in the ERP service closes the business day (the clock advances, the counterparties act) and after the last settles to the grading date and leaves the attempt as an artifact; the verifier, in a container of its own, grades it and writes reward.json. `main` holds the erp client, the handbook and the agent\'s own token, nothing else of the scenario; the control API listens on the ERP service\'s loopback only. steps/<turn>/solution plays the oracle through the API with the agent\'s token.',
    'The scenario is generated when it is not cached (as `erp scenario gen`). dataset.toml lists every task folder under --out with its content digest. Needs a built package and esbuild (a dev dependency): the containers\' programs are bundled at export. docs/harbor.md says how to run the tasks.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> export harbor --task payment-run --seeds 0,1,2,3,4 --out harbor/bb-erp',
    '<%= config.bin %> export harbor --task payment-run --seeds 0 --faults flaky-writes --out harbor/faults --base-image local/node:20',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    task: Flags.string({ required: true, description: 'task slug (a folder of --tasks-dir), or the path of a task pack folder' }),
    seeds: Flags.string({ default: '0', description: 'comma-separated scenario seeds, one Harbor task each' }),
    faults: Flags.string({ description: 'a fault profile of the task, or a fault SPEC: the ERP service injects it and the tasks are named for the condition' }),
    out: Flags.string({ required: true, description: 'the dataset folder (created when missing; other tasks in it are kept and listed in its dataset.toml)' }),
    'base-image': Flags.string({ default: DEFAULT_BASE_IMAGE, description: 'base image of the three images (Node 20 with bash): a public one for a cloud backend, a local one where no registry is reachable' }),
    org: Flags.string({ default: 'bb-erp', description: 'the org part of the tasks\' and dataset\'s Harbor names (org/name)' }),
    force: Flags.boolean({ default: false, description: 'replace task folders that exist already' }),
    'tasks-dir': tasksDirFlag,
    'scenarios-dir': Flags.string({ description: 'where scenarios are generated or found (default: scenarios/)' }),
  };

  async run(): Promise<HarborExport> {
    const { flags } = await this.parse(ExportHarbor);
    const seeds = flags.seeds.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
    if (seeds.length === 0 || seeds.some((s) => !Number.isInteger(s) || s < 0)) this.error('--seeds takes comma-separated whole numbers, e.g. 0,1,2.', { exit: 2 });
    let report: HarborExport;
    try {
      report = await exportHarbor({
        task: flags.task, tasksDir: flags['tasks-dir'], seeds, faults: flags.faults, out: flags.out, baseImage: flags['base-image'],
        org: flags.org, force: flags.force, scenariosDir: flags['scenarios-dir'], log: progress,
      });
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) this.log(`wrote ${report.tasks.length} Harbor task(s) to ${report.out}; run them with: harbor run -p ${report.out} -a oracle`);
    return report;
  }
}
