import { Api } from '../src/api/pipeline';
import { allRoutes } from '../src/api/routes';
import { createAppRegistry } from '../src/projections';
import { ErpDb } from '../src/projections/erp-db';
import { buildCompany } from '../src/runner/company';
import { printFigures, timeIt, wantsJson, type Figure } from './figures';

const SEEDS = (process.env.BENCH_GEN_SEEDS ?? '0,1,2').split(',').map(Number);

/**
 * The Northgate generator from nothing to the end of its twelve months of history, per seed, in an
 * in-memory database with the generator's own settings (no company cache). Events written are every
 * row of the log, reads included, so events per second compares with events.append_rate.
 */
export function benchGen(): Figure[] {
  const figures: Figure[] = [];
  let total = 0;
  let events = 0;
  for (const seed of SEEDS) {
    const erp = ErpDb.open(':memory:', createAppRegistry(), { fast: true });
    const api = new Api(erp, allRoutes());
    const run = timeIt(() => buildCompany('northgate', seed, api));
    const written = erp.store.lastSeq();
    erp.close();
    total += run.seconds;
    events += written;
    figures.push(
      { name: `gen.northgate.seed_${seed}.seconds`, value: run.seconds, unit: 's', note: 'target 0.5 s' },
      { name: `gen.northgate.seed_${seed}.events`, value: written, unit: 'events' },
      { name: `gen.northgate.seed_${seed}.events_per_s`, value: written / run.seconds, unit: 'events/s' },
    );
  }
  figures.push({ name: 'gen.northgate.mean_seconds', value: total / SEEDS.length, unit: 's' }, { name: 'gen.northgate.events_per_s', value: events / total, unit: 'events/s' });
  return figures;
}

if (require.main === module) printFigures(`Northgate generation (seeds ${SEEDS.join(', ')})`, benchGen(), wantsJson());
