import type { TurnRecord } from '../grader/result';

/**
 * The turns a scripted policy did not finish (a non-zero exit, a signal, the budget), each as
 * "turn N exited 1". A reference or a strategy that stopped part-way proves nothing about the
 * checks, whatever its verdict says, so every runner of scripted policies reports these first.
 */
export function unfinishedTurns(turns: readonly TurnRecord[]): { index: number; text: string }[] {
  return turns
    .filter((t) => t.timed_out || t.exit_code !== 0)
    .map((t) => ({ index: t.index, text: `turn ${t.index} ${t.timed_out ? 'timed out' : `exited ${t.exit_code ?? t.signal}`}` }));
}
