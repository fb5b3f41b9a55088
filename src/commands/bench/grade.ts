import { Args, Command } from '@oclif/core';
import { gradeAttempt } from '../../grader/grade';
import type { AttemptResult } from '../../grader/result';
import { message } from '../../runner/cli-support';
import { verdictTable } from '../../runner/verdict-table';

export default class BenchGrade extends Command {
  static override summary = 'Grade an attempt folder again: replay final.db, run the projections beside the reference, evaluate every check, write result.json.';
  static override description = "Refuses (exit 1) a final.db whose read-model tables differ from a replay of its own events: the grade is of the stream. result.json lists each check with its verdict, the differing keys and the events behind each differing row.";
  static override examples = ['<%= config.bin %> bench grade runs/oracle/payment-run/seed-0/rep-1'];
  static override args = { dir: Args.string({ required: true, description: 'attempt folder' }) };
  static override enableJsonFlag = true;

  async run(): Promise<AttemptResult> {
    const { args } = await this.parse(BenchGrade);
    let result: AttemptResult;
    try {
      result = gradeAttempt(args.dir);
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) this.log(verdictTable(result, args.dir));
    return result;
  }
}
