import { benchApi } from './api';
import { benchEvents } from './events';
import { benchGen } from './gen';
import { benchSandbox } from './sandbox';
import { benchTask } from './task';
import { printFigures, wantsJson, type Figure } from './figures';

/**
 * Every benchmark in one run, one table: `npm run bench` (or `npm run bench -- --json` for one
 * JSON object of figure name → value and unit). See bench/README.md.
 */
async function main(): Promise<void> {
  const json = wantsJson();
  const figures: Figure[] = [];
  const sections: [string, () => Figure[] | Promise<Figure[]>][] = [
    ['events', benchEvents],
    ['api', benchApi],
    ['gen', benchGen],
    ['task', benchTask],
    ['sandbox', benchSandbox],
  ];
  for (const [name, run] of sections) {
    if (!json) process.stderr.write(`running ${name}…\n`);
    figures.push(...(await run()));
  }
  printFigures('bb-erp benchmarks', figures, json);
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err) + '\n');
  process.exitCode = 1;
});
