import { Command, Flags } from '@oclif/core';
import { benchRun, type BenchRunResult } from '../../runner/bench-run';
import { interruptOnSignals, message, progressWithBar, seedFlag, taskArg, tasksDirFlag } from '../../runner/cli-support';
import { llmFlagDefinitions, llmFlagsFrom, toolBudgetFlag } from '../../runner/llm-flags';
import { verdictTable } from '../../runner/verdict-table';

export default class BenchRun extends Command {
  static override summary = 'Run attempts at a task: serve a copy of the scenario, play each turn with the agent, settle to the grading date, grade.';
  static override description = "Each attempt folder holds final.db (its events through start_seq in attempt.json are the start the agent was given), workspace/, turns/<n>/ (prompt, stdout, stderr, exit status, duration), projections/ (agent CSV beside reference CSV), condition.json and result.json. A cmd: agent is a shell command run in a bubblewrap sandbox (install bubblewrap; --no-sandbox runs it bare, recorded as unsandboxed): its workspace at /workspace is the only place it may write that lasts, with a fresh HOME per turn, a read-only minimal system, erp (the self-contained agent client) on PATH, an environment of PATH, HOME, LANG, TERM, BENCH_*, ERP_URL, ERP_TOKEN and the --pass-env variables, the prompt file's path as its last argument and the prompt on stdin. At the turn's budget every process it started ends. Ctrl-C or SIGTERM ends the agent and leaves the attempt marked incomplete.";
  static override examples = [
    '<%= config.bin %> bench run payment-run --agent oracle',
    "<%= config.bin %> bench run payment-run --agent cmd:'my-harness --model x' --agent-name my-harness-1.0 --model x --reps 5",
    '<%= config.bin %> bench run leave-cover --tasks-dir test/fixtures/tasks --agent neg:no-note',
  ];
  static override args = { task: taskArg };
  static override flags = {
    'tasks-dir': tasksDirFlag,
    seed: seedFlag,
    agent: Flags.string({ default: 'oracle', description: "oracle, null, neg:<name>, cmd:'<command>' or llm:<model> (the reference LLM agent)" }),
    'agent-name': Flags.string({ description: 'the name results and reports give the agent, free text (required for a cmd: agent), e.g. claude-code-2.1' }),
    model: Flags.string({ description: 'the model behind the agent, free text, recorded with each result and in the cell' }),
    interface: Flags.string({ options: ['cli', 'http', 'mcp'], description: 'how the agent reaches the ERP, part of its cell: the erp command (default for cmd:), the HTTP API, or erp mcp' }),
    'tool-budget': toolBudgetFlag,
    timeout: Flags.integer({ min: 1, description: "seconds per turn, overriding the task's budgets (declare it when publishing)" }),
    reps: Flags.integer({ min: 1, default: 1, description: 'attempts to run' }),
    label: Flags.string({ description: 'campaign label: runs/<label>/ holds one cell (agent and condition); default the cell' }),
    'runs-dir': Flags.string({ description: 'folder of labels (default: runs/)' }),
    faults: Flags.string({ description: "a transport-fault condition: one of the task's fault_profiles, flaky-writes:seed=S,rate=R, or rules like 'lost_response:POST /payment-runs@1'" }),
    scenario: Flags.string({ description: 'scenario folder (default: scenarios/<task>/seed-<N>, generated when missing or stale)' }),
    sandbox: Flags.boolean({ default: true, allowNo: true, description: 'run a cmd: agent in the bubblewrap sandbox; --no-sandbox runs it bare, recorded as unsandboxed and never pooled with sandboxed runs' }),
    'pass-env': Flags.string({ multiple: true, description: 'a runner variable the cmd: agent also gets, such as its model API key (repeatable)' }),
    ...llmFlagDefinitions,
    'agent-files': Flags.string({ multiple: true, description: "a file or folder of the cmd: agent's harness, visible read-only at the same path in the sandbox (repeatable)" }),
    limit: Flags.string({ multiple: true, description: 'a sandboxed turn\'s limit, KEY=VALUE: workspace, output or memory in bytes (256M, 4G), processes, cpu in seconds (repeatable; recorded in condition.json)' }),
    'net-allow': Flags.string({ multiple: true, description: 'a HOST:PORT the sandboxed cmd: agent may reach through its egress proxy (HTTPS_PROXY), such as its model provider (repeatable); it reaches nothing else but the agent port' }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<BenchRunResult> {
    const { args, flags } = await this.parse(BenchRun);
    let out: BenchRunResult;
    const interrupt = interruptOnSignals();
    try {
      out = await benchRun({
        task: args.task, tasksDir: flags['tasks-dir'], seed: flags.seed, agent: flags.agent, agentName: flags['agent-name'], model: flags.model, interface: flags.interface, toolBudget: flags['tool-budget'], timeout: flags.timeout, reps: flags.reps, label: flags.label, runsDir: flags['runs-dir'], scenarioDir: flags.scenario, faults: flags.faults,
        sandbox: flags.sandbox, passEnv: flags['pass-env'], agentFiles: flags['agent-files'], limits: flags.limit, netAllow: flags['net-allow'],
        llm: llmFlagsFrom(flags), signal: interrupt.signal, onAttemptsStart: interrupt.arm, ...progressWithBar(`${args.task} seed ${flags.seed}: building the company`),
      });
    } catch (err) {
      this.error(message(err), { exit: 1 });
    } finally {
      interrupt.dispose();
    }
    if (!this.jsonEnabled()) for (const a of out.attempts) this.log(verdictTable(a.result, a.dir));
    if (out.attempts.some((a) => a.result.verdict === 'error' || a.result.verdict === 'tampered')) process.exitCode = 1;
    if (interrupt.signal.aborted) process.exitCode = interrupt.exitCode();
    return out;
  }
}
