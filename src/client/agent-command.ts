import { Args, Command, Flags } from '@oclif/core';
import { failure, requestOutcome, writeBody, type CliOutcome } from './agent-cli';
import { normalisePath, parsePairs } from './cli-args';

/** Prints a command's outcome and sets the exit code (non-zero on a refused or failed request). */
export function finish(outcome: CliOutcome): void {
  process.stdout.write(outcome.output);
  if (outcome.exitCode !== 0) process.exitCode = outcome.exitCode;
}

type WriteMethod = 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** What each method's command says of itself: the API changes state with POSTs to named actions (seed 000 §6). */
const HELP: Record<WriteMethod, { summary: string; description: string; examples: string[] }> = {
  POST: {
    summary: 'POST a JSON body to an API path: a named action such as /purchase-orders/PO-000123/send.',
    description: 'Every state change of the bb-erp API is a POST to a named action.',
    examples: [
      '<%= config.bin %> post /purchase-orders/PO-000123/send',
      '<%= config.bin %> post /ap-invoices/APINV-000045/holds reason=price_variance note="5% over PO price" --key hold-45',
      '<%= config.bin %> post /purchase-orders --data @po.json --key po-2026-10-05-1',
    ],
  },
  PATCH: {
    summary: 'PATCH an API path with a JSON body of the fields to change.',
    description: 'The bb-erp API has no generic edit: state changes are POSTs to named actions, so a path answers PATCH with 405 and the methods it allows (its Allow header). For an API that takes PATCH.',
    examples: ['<%= config.bin %> patch /vendors/V-0142 email=ar@midstate.example'],
  },
  PUT: {
    summary: 'PUT a JSON body to an API path, replacing what it names.',
    description: 'The bb-erp API replaces nothing with PUT: state changes are POSTs to named actions, so a path answers PUT with 405 and the methods it allows (its Allow header). For an API that takes PUT.',
    examples: ['<%= config.bin %> put /vendors/V-0142 --data @vendor.json'],
  },
  DELETE: {
    summary: 'DELETE what an API path names.',
    description: 'The bb-erp API deletes nothing: documents are voided, reversed or cancelled by POSTs to named actions (erp post /leaves/LV-000001/cancel), so a path answers DELETE with 405 and the methods it allows. For an API that takes DELETE.',
    examples: ['<%= config.bin %> delete /leaves/LV-000001'],
  },
};

/** `erp post|patch|put|delete PATH [--data JSON|@file] [--key K] k=v…`: one class per method. */
export function writeCommand(method: WriteMethod) {
  const help = HELP[method];
  return class WriteCommand extends Command {
    static override summary = help.summary;
    static override description = `${help.description} Values of k=v pairs are parsed as JSON when they parse (qty=5 is a number, lines='[...]' an array), else taken as text; they override fields of --data. Send --key with a unique value so that a retry cannot apply the action twice.`;
    static override examples = help.examples;
    static override enableJsonFlag = true;
    static override strict = false;
    static override args = { path: Args.string({ required: true, description: 'API path; the k=v pairs after it are fields of the body' }) };
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
