import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Api } from '../src/api/pipeline';
import { allRoutes } from '../src/api/routes';
import { createAppRegistry } from '../src/projections';
import { BUILD_STORAGE, ErpDb } from '../src/projections/erp-db';
import { buildCompany } from '../src/runner/company';
import { ANCHOR_FIGURES_ISSUE_25 } from './anchor';
import { bestOf, measureErp } from './child-usage';
import { printFigures, REPEAT, timeIt, wantsJson, type Figure } from './figures';

const SEEDS = (process.env.BENCH_GEN_SEEDS ?? '0,1,2').split(',').map(Number);

/**
 * The Northgate generator from nothing to the end of its twelve months of history. Per seed in
 * this process, in memory (CPU and events per CPU second, to compare with events.append_rate, the
 * log's own ceiling); and as an operator runs it, `erp scenario gen northgate` in a child process
 * with an empty company cache, written to a file: the figure compared with the seed's ERP.
 */
export async function benchGen(): Promise<Figure[]> {
  const figures: Figure[] = [];
  let cpu = 0;
  let events = 0;
  for (const seed of SEEDS) {
    const erp = ErpDb.open(':memory:', createAppRegistry(), BUILD_STORAGE);
    const api = new Api(erp, allRoutes());
    const run = timeIt(() => buildCompany('northgate', seed, api));
    const written = erp.store.lastSeq();
    erp.close();
    cpu += run.cpuSeconds;
    events += written;
    figures.push(
      { name: `gen.northgate.seed_${seed}.cpu`, value: run.cpuSeconds, unit: 's', note: `in memory, in this process; ${Math.round(run.seconds * 1000) / 1000} s wall` },
      { name: `gen.northgate.seed_${seed}.events`, value: written, unit: 'events' },
    );
  }
  figures.push({ name: 'gen.northgate.events_per_cpu_s', value: events / cpu, unit: 'events/s', note: 'every row of the log, reads included' });

  const dir = mkdtempSync(join(tmpdir(), 'bb-erp-bench-gen-'));
  try {
    const company = await bestOf(REPEAT, (i) => measureErp(['scenario', 'gen', 'northgate', '--seed', '0', '--out', join(dir, `northgate-${i}`), '--force'], { BB_ERP_CACHE_DIR: join(dir, `cache-${i}`) }));
    const anchor = ANCHOR_FIGURES_ISSUE_25.northgateCpu;
    figures.push({
      name: 'gen.northgate.company_from_nothing.cpu', value: company.cpuSeconds, unit: 's', note: `erp scenario gen northgate --seed 0, empty cache, best of ${REPEAT}`,
      target: { value: anchor / 2, from: `0.5x the anchor in issue 25 (${anchor})` },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

if (require.main === module) {
  benchGen().then((f) => printFigures(`Northgate generation (seeds ${SEEDS.join(', ')})`, f, wantsJson()), (err) => {
    process.stderr.write(String(err?.stack ?? err) + '\n');
    process.exitCode = 1;
  });
}
