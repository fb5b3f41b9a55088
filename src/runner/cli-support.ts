import { Args, Flags } from '@oclif/core';

/** Flags and arguments the operator commands share. */
export const taskArg = Args.string({ required: true, description: 'task slug (a folder of --tasks-dir), or the path of a task pack folder' });
export const tasksDirFlag = Flags.string({ description: 'folder holding task packs (default: tasks/ of this package)' });
export const seedFlag = Flags.integer({ min: 0, default: 0, description: 'scenario seed' });

/** Progress lines go to stderr, so stdout holds only the result. */
export const progress = (line: string) => process.stderr.write(line + '\n');

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
