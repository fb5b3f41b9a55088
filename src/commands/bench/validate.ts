import { Command, Flags } from '@oclif/core';
import { message, progress, tasksDirFlag } from '../../runner/cli-support';
import { formatCoverage } from '../../handbook/coverage';
import { formatTable } from '../../runner/table';
import { validate, type ValidateReport } from '../../runner/validate';

const list = (text: string | undefined) => text?.split(',').map((s) => s.trim()).filter(Boolean);

export default class BenchValidate extends Command {
  static override summary = "Validate tasks (seed 000 §11): the oracle passes, twice with the same final state; the null agent fails; each negative control fails its checks; each positive control passes; handbook check and lint pass.";
  static override description = 'Runs each task and seed in its own worker process, as many at once as the machine has cores (or --jobs). Every positive control (those of the pack and the oracle played through the erp command, erp mcp, with idempotency keys and with extra reads) must pass. --strict also requires the oracle to pass optional checks, each pack to ship at least three positive controls of its own, each mutation task.yaml declares to fail a check of the clause it breaks when applied to the oracle (unless it changes nothing), and every handbook clause to be covered: enforced by a check, broken alone (each of its parts) by a negative control that fails exactly the checks it names on every seed, and exercised by a planted case of some seed validated. The clause-coverage table of each task is printed after the controls (and is in --json). Exits 1 when any control fails.';
  static override examples = ['<%= config.bin %> bench validate --seeds 0,1,2,3,4 --strict', '<%= config.bin %> bench validate --task leave-cover --tasks-dir test/fixtures/tasks'];
  static override flags = {
    task: Flags.string({ description: 'comma-separated task slugs (default: every task)' }),
    'tasks-dir': tasksDirFlag,
    seeds: Flags.string({ default: '0', description: 'comma-separated seeds' }),
    strict: Flags.boolean({ description: 'optional checks count, three positive controls per pack, mutations must fail their clause, and every clause must be enforced, broken alone and exercised' }),
    faults: Flags.string({ description: "validate under a fault profile every task declares: its own negative controls, and the fault plan must hit the oracle" }),
    jobs: Flags.integer({ min: 1, description: 'worker processes (default: the number of cores)' }),
    'runs-dir': Flags.string({ description: 'where the validation attempts go (default: runs/validate)' }),
    'scenarios-dir': Flags.string({ description: 'where scenarios are generated or found (default: scenarios/)' }),
    'keep-databases': Flags.boolean({ description: "keep every attempt's final.db; by default only those of attempts whose control failed are kept" }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<ValidateReport> {
    const { flags } = await this.parse(BenchValidate);
    const seeds = list(flags.seeds)!.map(Number);
    if (seeds.some((s) => !Number.isInteger(s) || s < 0)) this.error('--seeds takes comma-separated whole numbers, e.g. 0,1,2.', { exit: 2 });
    let report: ValidateReport;
    try {
      report = await validate({ tasks: list(flags.task), tasksDir: flags['tasks-dir'], seeds, strict: flags.strict, jobs: flags.jobs, runsDir: flags['runs-dir'], scenariosDir: flags['scenarios-dir'], faults: flags.faults, keepDatabases: flags['keep-databases'], log: progress });
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) {
      this.log(formatTable(['task', 'seed', 'control', 'expected', 'got', 'ok'], report.rows.map((r) => [r.task, r.seed === null ? '-' : String(r.seed), r.control, r.expected, r.got, r.ok ? 'ok' : 'FAIL'])));
      for (const table of report.coverage) this.log(formatCoverage(table));
      this.log(report.ok ? 'every control holds' : `${report.rows.filter((r) => !r.ok).length} control(s) failed`);
    }
    if (!report.ok) process.exitCode = 1;
    return report;
  }
}
