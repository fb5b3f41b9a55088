import type { TurnExit, TurnLauncher, TurnSpec } from './launcher';

export interface ProcessTurn {
  launcher: TurnLauncher;
  turn: TurnSpec;
  budgetMs: number;
  /** Time between SIGTERM and the end of every process at the budget. */
  graceMs?: number;
  /** Aborted when the runner is interrupted: the turn ends at once. */
  signal?: AbortSignal;
}

export interface ProcessOutcome extends TurnExit {
  timed_out: boolean;
  duration_s: number;
}

/**
 * Runs one turn of a command agent through its launcher, with the prompt file's path as its last
 * argument and the prompt on stdin. At the budget the agent gets SIGTERM, and after the grace every
 * process of the turn ends; an interrupted runner ends them at once.
 */
export async function runProcessTurn(t: ProcessTurn): Promise<ProcessOutcome> {
  const started = process.hrtime.bigint();
  const launched = t.launcher.launch(t.turn);
  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  timers.push(setTimeout(() => {
    timedOut = true;
    launched.terminate();
    timers.push(setTimeout(() => launched.kill(), t.graceMs ?? 2000));
  }, t.budgetMs));
  const onAbort = () => launched.kill();
  if (t.signal?.aborted) onAbort();
  t.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const exit = await launched.exited;
    return { ...exit, timed_out: timedOut, duration_s: Number(process.hrtime.bigint() - started) / 1e9 };
  } finally {
    timers.forEach(clearTimeout);
    t.signal?.removeEventListener('abort', onAbort);
  }
}
