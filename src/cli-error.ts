import { Errors, settings } from '@oclif/core';

/**
 * What the `erp` command prints for an error its command did not expect: one sentence (the first
 * line of the message) and exit 1, never a stack, unless DEBUG (or ERP_DEBUG) is set. Errors a
 * command raised on purpose (this.error, usage errors, exits) keep their own message and code.
 */
export function operatorError(err: unknown): Error {
  if (process.env.DEBUG || process.env.ERP_DEBUG) {
    settings.debug = true;
    return err instanceof Error ? err : new Error(String(err));
  }
  if (err instanceof Error && 'oclif' in err) return err;
  const message = err instanceof Error ? err.message : String(err);
  const sentence = message.split('\n').map((l) => l.trim()).find(Boolean) ?? 'The command failed.';
  return new Errors.CLIError(sentence, { exit: 1 });
}
