import { Args, Command, Flags } from '@oclif/core';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { message, progress, progressWithBar, seedFlag, tasksDirFlag } from '../../runner/cli-support';
import { generateCompany, type CompanyScenario } from '../../runner/company';
import { ProgressBar } from '../../runner/progress-bar';
import { generateScenario, type Scenario } from '../../runner/scenario';
import { COMPANIES } from '../../sim/companies';
import { defaultTasksDir, loadPack } from '../../task-pack/load';

export default class ScenarioGen extends Command {
  static override summary = "Generate a task's scenario (start state, world, turns, handbook, truth, the oracle's reference), or a company alone.";
  static override description = [
    'For a task: scenario.db, world.json, turns.yaml, handbook/, truth.json, and reference/ from the oracle played through the runner; cached by task, seed, the pack\'s files and the code version, so a second gen with nothing changed returns at once and says it used the cache.',
    `For a company (${Object.keys(COMPANIES).join(', ')}): scenario.db, whose events are its whole history, world.json and company.json.`,
    'A progress bar (a line per tenth when stderr is not a terminal) and other progress go to stderr; stdout gets one JSON line.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> scenario gen payment-run --seed 0',
    '<%= config.bin %> scenario gen northgate --seed 1 --out /tmp/northgate-1',
    '<%= config.bin %> scenario gen leave-cover --tasks-dir test/fixtures/tasks --seed 1 --out /tmp/s1',
  ];
  static override args = { target: Args.string({ required: true, description: 'task slug (a folder of --tasks-dir), the path of a task pack folder, or a company name' }) };
  static override flags = {
    'tasks-dir': tasksDirFlag,
    seed: seedFlag,
    out: Flags.string({ description: 'scenario folder (default: scenarios/<task or company>/seed-<N>)' }),
    force: Flags.boolean({ description: 'generate again even when the cache matches' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<Scenario | CompanyScenario> {
    const { args, flags } = await this.parse(ScenarioGen);
    try {
      if (isCompany(args.target, flags['tasks-dir'])) return this.company(args.target, flags);
      const out = await generateScenario(loadPack(args.target, flags['tasks-dir']), { seed: flags.seed, out: flags.out, force: flags.force, ...progressWithBar(`${args.target} seed ${flags.seed}: building the company`) });
      if (!this.jsonEnabled()) this.log(JSON.stringify({ dir: out.dir, cached: out.cached, oracle: out.manifest.oracle.verdict }));
      return out;
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
  }

  private company(company: string, flags: { seed: number; out?: string; force?: boolean }): CompanyScenario {
    const bar = new ProgressBar(`${company} seed ${flags.seed}`);
    const out = generateCompany(company, { seed: flags.seed, out: flags.out, force: flags.force, log: progress, progress: (d, t, n) => bar.update(d, t, n) });
    bar.done(`${out.manifest.events.toLocaleString('en-US')} events, business date ${out.manifest.business_date}`);
    if (!this.jsonEnabled()) this.log(JSON.stringify({ dir: out.dir, cached: out.cached, company, events: out.manifest.events, business_date: out.manifest.business_date }));
    return out;
  }
}

/** A company name that is not also a task: tasks win, so a pack may never be shadowed. */
function isCompany(target: string, tasksDir: string | undefined): boolean {
  if (!(target in COMPANIES) || target.includes('/')) return false;
  return !existsSync(join(resolve(tasksDir ?? defaultTasksDir()), target, 'task.yaml'));
}
