import { Args, Command, Flags } from '@oclif/core';
import { runCampaign, type CampaignRunResult } from '../../runner/campaign/run';
import { parseCampaignFile, specFromFlags, type CampaignSpec } from '../../runner/campaign/spec';
import { interruptOnSignals, message, progressWithBar, tasksDirFlag } from '../../runner/cli-support';
import { llmFlagDefinitions, llmFlagsFrom, toolBudgetFlag } from '../../runner/llm-flags';

const list = (text: string | undefined) => text?.split(',').map((s) => s.trim()).filter(Boolean);

export default class BenchCampaign extends Command {
  static override summary = 'Run a campaign: every task × seed × rep played by every agent under every condition, several attempts at once, resumable.';
  static override description = [
    'A campaign is a YAML file (name, tasks, tasks_dir, seeds, reps, agents: [{agent, name, model, interface, tool_budget, sandbox, pass_env, agent_files, llm: {api, base_url, key_env, max_steps, max_retries, price_in, price_out, price_cached_in}}], conditions, timeout) or the same in flags. It writes runs/<name>/: campaign.json (the manifest: code version, each task\'s pack fingerprint and turn budgets, seeds, reps, agents with name, model and interface, conditions, the budget override, and each session), campaign.log, and one folder per cell (<cell>/<task>/seed-<s>/rep-<r>).',
    'Run again with the same file or flags, it resumes: finished attempts are skipped, incomplete ones and folders an abrupt stop left are run again (--retry-errored: errored ones too); what is run again is kept under .superseded/. A campaign whose code, tasks or declaration changed is refused.',
    'Ctrl-C or SIGTERM ends every running agent and marks its attempt incomplete (a second one exits at once); an attempt is written under .staging/ and moved into place only once it has its result. Exit status: 1 when an attempt errored (not when one failed), 130 or 143 when interrupted.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> bench campaign pilot.yaml --jobs 2',
    '<%= config.bin %> bench campaign --name smoke --task leave-cover --tasks-dir test/fixtures/tasks --seeds 0,1 --reps 2 --agent oracle --agent neg:no-note --jobs 2',
    '<%= config.bin %> bench campaign pilot.yaml --retry-errored',
  ];
  static override args = { file: Args.string({ required: false, description: 'campaign file (YAML); without it, the flags declare the campaign' }) };
  static override flags = {
    name: Flags.string({ description: 'the campaign (its folder under runs/), without a file' }),
    task: Flags.string({ multiple: true, description: 'task slug (repeatable, or comma-separated)' }),
    'tasks-dir': tasksDirFlag,
    seeds: Flags.string({ description: 'comma-separated seeds (default 0)' }),
    reps: Flags.integer({ min: 1, description: 'repetitions of each task and seed (default 1)' }),
    agent: Flags.string({ multiple: true, description: "oracle, null, neg:<name>, cmd:'<command>' or llm:<model> (repeatable; default oracle)" }),
    'agent-name': Flags.string({ multiple: true, description: 'the name of each cmd: agent, in order (repeatable)' }),
    model: Flags.string({ multiple: true, description: 'the model of each cmd: agent, in order (repeatable)' }),
    interface: Flags.string({ multiple: true, description: 'the interface of each cmd: agent, in order: cli, http or mcp (repeatable)' }),
    'tool-budget': toolBudgetFlag,
    condition: Flags.string({ multiple: true, description: "clean, or a fault profile every task declares (repeatable; default clean)" }),
    timeout: Flags.integer({ min: 1, description: "seconds per turn, overriding the tasks' budgets (recorded in the manifest)" }),
    ...llmFlagDefinitions,
    jobs: Flags.integer({ min: 1, default: 1, description: 'attempts at once, each in its own worker process' }),
    'retry-errored': Flags.boolean({ description: 'run errored attempts again' }),
    'runs-dir': Flags.string({ description: 'folder of campaigns and labels (default: runs/)' }),
    'scenarios-dir': Flags.string({ description: 'where scenarios are generated or found (default: scenarios/)' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<CampaignRunResult> {
    const { args, flags } = await this.parse(BenchCampaign);
    let spec: CampaignSpec;
    let out: CampaignRunResult;
    const interrupt = interruptOnSignals('ending every running agent and marking its attempt incomplete');
    try {
      const declared = [flags.name, flags.task, flags.seeds, flags.reps, flags.agent, flags.condition, flags.timeout, flags['tasks-dir'], flags['tool-budget']].some((v) => v !== undefined);
      if (args.file && declared) throw new Error('Give the campaign as a file or as flags (--name, --task, --seeds, --reps, --agent, --condition, --timeout, --tasks-dir, --tool-budget), not both.');
      const seeds = list(flags.seeds)?.map(Number);
      spec = args.file
        ? parseCampaignFile(args.file)
        : specFromFlags({ name: flags.name, tasks: flags.task?.flatMap((t) => list(t) ?? []), tasksDir: flags['tasks-dir'], seeds, reps: flags.reps, agents: flags.agent, agentNames: flags['agent-name'], models: flags.model, interfaces: flags.interface, toolBudget: flags['tool-budget'], conditions: flags.condition, timeout: flags.timeout, llm: llmFlagsFrom(flags) });
      out = await runCampaign({
        spec, runsDir: flags['runs-dir'], scenariosDir: flags['scenarios-dir'], jobs: flags.jobs, retryErrored: flags['retry-errored'],
        signal: interrupt.signal, hardStop: interrupt.hardStop, onAttemptsStart: interrupt.arm, ...progressWithBar('building the company'),
      });
    } catch (err) {
      this.error(message(err), { exit: 1 });
    } finally {
      interrupt.dispose();
    }
    const c = out.counts;
    if (!this.jsonEnabled()) {
      this.log(`${out.name}: ${c.passing} passing, ${c.failing} failing, ${c.errored} errored, ${c.total - c.passing - c.failing - c.errored} not finished, of ${c.total} attempts (${out.ran} run now, ${out.superseded} set aside to run again)`);
      this.log(`results in ${out.dir}; erp bench report ${out.dir}`);
    }
    if (c.errored > 0) process.exitCode = 1;
    if (out.interrupted) process.exitCode = interrupt.exitCode();
    return out;
  }
}
