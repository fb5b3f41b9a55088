import { Args, Command } from '@oclif/core';
import { gradeAttempt } from '../../grader/grade';
import { readAttemptRecord } from '../../grader/attempt-record';
import type { AttemptResult } from '../../grader/result';
import { attemptDatabase } from '../../runner/db-file';
import { message } from '../../runner/cli-support';
import { verdictTable } from '../../runner/verdict-table';

export default class BenchGrade extends Command {
  static override summary = 'Grade an attempt folder again: replay final.db, run the projections beside the reference, evaluate every check, write result.json.';
  static override description = "Refuses (exit 1) a final.db whose read-model tables differ from a replay of its own events: the grade is of the stream. An attempt whose files disagree with the runner's tamper evidence (heads.jsonl: chain heads and the reference's hash at every turn boundary) is not graded: verdict tampered, naming what differs; an interrupted one stays incomplete; both exit 1. result.json lists each check with its verdict, the differing keys and the events behind each differing row.";
  static override examples = ['<%= config.bin %> bench grade runs/oracle~http/payment-run/seed-0/rep-1'];
  static override args = { dir: Args.string({ required: true, description: 'attempt folder' }) };
  static override enableJsonFlag = true;

  async run(): Promise<AttemptResult> {
    const { args } = await this.parse(BenchGrade);
    let result: AttemptResult;
    try {
      readAttemptRecord(args.dir);
      attemptDatabase(args.dir);
      result = gradeAttempt(args.dir);
    } catch (err) {
      this.error(message(err), { exit: 1 });
    }
    if (!this.jsonEnabled()) this.log(verdictTable(result, args.dir));
    // Not graded: say so in the exit status too.
    if (result.status !== 'graded') process.exitCode = 1;
    return result;
  }
}
