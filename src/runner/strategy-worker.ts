import { runStrategyUnit, type StrategyUnitOptions } from './strategy-unit';

/**
 * A strategy-matrix worker process: runs one family and seed given as JSON in argv[2] and prints its
 * cells as one JSON line on stdout; progress goes to stderr with the unit's name in front.
 */
export async function main(argv: readonly string[]): Promise<void> {
  const options = JSON.parse(argv[2]!) as Omit<StrategyUnitOptions, 'log'>;
  const prefix = `[${options.task} seed ${options.seed}] `;
  const cells = await runStrategyUnit({ ...options, log: (line) => process.stderr.write(prefix + line + '\n') });
  process.stdout.write(JSON.stringify(cells) + '\n');
}

if (require.main === module) {
  main(process.argv).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
