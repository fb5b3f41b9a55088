import { Args, Command, Flags } from '@oclif/core';
import { failure, requestOutcome, writeBody, type CliOutcome } from './agent-cli';
import { normalisePath, parsePairs } from './cli-args';

/** Prints a command's outcome and sets the exit code (non-zero on a refused or failed request). */
export function finish(outcome: CliOutcome): void {
  process.stdout.write(outcome.output);
  if (outcome.exitCode !== 0) process.exitCode = outcome.exitCode;
}

/** `erp post|patch|put|delete PATH [--data JSON|@file] [--key K] k=v…`: one class per method. */
export function writeCommand(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE') {
  const verb = method.toLowerCase();
  return class WriteCommand extends Command {
    static override summary = `${method} a JSON body to an API path (a named action such as /purchase-orders/PO-000123/send).`;
    static override description = 'Values of k=v pairs are parsed as JSON when they parse (qty=5 is a number, lines=\'[...]\' an array), else taken as text; they override fields of --data. Send --key with a unique value so that a retry cannot apply the action twice.';
    static override examples = [
      `<%= config.bin %> ${verb} /purchase-orders/PO-000123/send`,
      `<%= config.bin %> ${verb} /ap-invoices/APINV-000045/holds reason=price_variance note="5% over PO price" --key hold-45`,
      `<%= config.bin %> ${verb} /purchase-orders --data @po.json --key po-2026-10-05-1`,
    ];
    static override strict = false;
    static override args = { path: Args.string({ required: true, description: 'API path, e.g. /purchase-orders/PO-000123/send' }) };
    static override flags = {
      data: Flags.string({ char: 'd', description: 'JSON body, or @file.json' }),
      key: Flags.string({ char: 'k', description: 'Idempotency-Key: a retry with the same key has no second effect' }),
    };

    async run(): Promise<void> {
      const { args, argv, flags } = await this.parse(WriteCommand);
      try {
        const pairs = parsePairs((argv as string[]).slice(1), true);
        finish(await requestOutcome(method, normalisePath(args.path), { body: writeBody(flags.data, pairs), idempotencyKey: flags.key }));
      } catch (err) {
        finish(failure(err));
      }
    }
  };
}

/** `erp get PATH k=v…`: pairs become the query string. */
export async function getCommandRun(path: string, pairs: readonly string[]): Promise<void> {
  try {
    finish(await requestOutcome('GET', normalisePath(path), { query: parsePairs(pairs, false) as Record<string, string> }));
  } catch (err) {
    finish(failure(err));
  }
}
