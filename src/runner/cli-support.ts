import { Args, Flags } from '@oclif/core';
import type { Progress } from './company';
import { ProgressBar } from './progress-bar';

/** Flags and arguments the operator commands share. */
export const taskArg = Args.string({ required: true, description: 'task slug (a folder of --tasks-dir), or the path of a task pack folder' });
export const tasksDirFlag = Flags.string({ description: 'folder holding task packs (default: tasks/ of this package)' });
export const seedFlag = Flags.integer({ min: 0, default: 0, description: 'scenario seed' });

/** Progress lines go to stderr, so stdout holds only the result. */
export const progress = (line: string) => process.stderr.write(line + '\n');

/**
 * Progress lines and a progress bar for a company being built, on stderr: a line closes the bar
 * first, so the two never share a line.
 */
export function progressWithBar(label: string): { log: (line: string) => void; progress: Progress } {
  const bar = new ProgressBar(label);
  return {
    log: (line) => {
      bar.done();
      progress(line);
    },
    progress: (done, total, note) => bar.update(done, total, note),
  };
}

/**
 * Once armed, the first Ctrl-C or SIGTERM aborts `signal` instead of killing the process, so that a
 * run can end its agents, stop its servers and mark its attempts incomplete; a second aborts
 * `hardStop` (a campaign kills its workers) and exits at once. Until armed (a scenario still being
 * built), they stop the process as usual.
 */
export function interruptOnSignals(notice = 'ending the agent and marking the attempt incomplete'): { signal: AbortSignal; hardStop: AbortSignal; arm(): void; exitCode(): number; dispose(): void } {
  const soft = new AbortController();
  const hard = new AbortController();
  let received: NodeJS.Signals | undefined;
  const on = (sig: NodeJS.Signals) => {
    if (received) {
      hard.abort(sig);
      process.exit(sig === 'SIGINT' ? 130 : 143);
    }
    received = sig;
    progress(`${sig}: ${notice} (again to exit at once)`);
    soft.abort(sig);
  };
  const onInt = () => on('SIGINT');
  const onTerm = () => on('SIGTERM');
  let armed = false;
  return {
    signal: soft.signal,
    hardStop: hard.signal,
    arm: () => {
      if (armed) return;
      armed = true;
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
    },
    exitCode: () => (received === 'SIGTERM' ? 143 : 130),
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
