import { validateUnit, type UnitOptions } from './validate-unit';

/**
 * A validator worker process: runs one unit given as JSON in argv[2] and prints its rows as one
 * JSON line on stdout; progress goes to stderr with the unit's name in front.
 */
export async function main(argv: readonly string[]): Promise<void> {
  const options = JSON.parse(argv[2]!) as Omit<UnitOptions, 'log'>;
  const prefix = `[${options.task} seed ${options.seed}] `;
  const rows = await validateUnit({ ...options, log: (line) => process.stderr.write(prefix + line + '\n') });
  process.stdout.write(JSON.stringify(rows) + '\n');
}

if (require.main === module) {
  main(process.argv).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
