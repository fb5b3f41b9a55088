import { gradeAttempt, ungradedResult, writeResult } from '../grader/grade';
import type { AttemptRecord } from '../grader/attempt-record';
import type { AttemptResult } from '../grader/result';
import type { TaskPack } from '../task-pack/load';
import { playAttempt, type AttemptOptions, type AttemptOutcome } from './attempt-play';

export type { AttemptOptions, AttemptOutcome } from './attempt-play';

/** One attempt (seed 000 §5): played (attempt-play.ts), then graded unless `grade` is false or it was interrupted. */
export async function runAttempt(o: AttemptOptions): Promise<AttemptOutcome> {
  const played = await playAttempt(o);
  if (played.result || o.grade === false) return played;
  return { ...played, result: gradeOrError(played.dir, o.pack, played.record) };
}

/** Grades the attempt; a grade that cannot be made is recorded as an error verdict, never as a pass. */
export function gradeOrError(dir: string, pack: TaskPack, record: AttemptRecord): AttemptResult {
  try {
    return gradeAttempt(dir, { pack });
  } catch (err) {
    const result = ungradedResult(record, pack.spec, 'error', (err as Error).message);
    writeResult(dir, result);
    return result;
  }
}
