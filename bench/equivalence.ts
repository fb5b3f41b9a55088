import { COMPANIES } from '../src/sim/companies';
import { compareInProcessPaths } from '../src/runner/equivalence';

/**
 * `npm run check:equivalence`: every company, seeds 0-4 (BENCH_EQUIVALENCE_SEEDS), built by the
 * fast in-process path and by the request-per-commit path of HTTP; exits 1 unless every pair has
 * the same canonical hash.
 */
function main(): void {
  const seeds = (process.env.BENCH_EQUIVALENCE_SEEDS ?? '0,1,2,3,4').split(',').map(Number);
  let failed = 0;
  for (const company of Object.keys(COMPANIES)) {
    for (const seed of seeds) {
      const r = compareInProcessPaths(company, seed);
      if (!r.equal) failed += 1;
      process.stdout.write(`${r.equal ? 'same' : 'DIFFERENT'}  ${company} seed ${seed}: ${r.batched.events} events, ${r.batched.hash}${r.equal ? '' : ` (per request: ${r.perRequest.events} events, ${r.perRequest.hash})`}\n`);
    }
  }
  if (failed > 0) {
    process.stderr.write(`${failed} companies differ between the two paths.\n`);
    process.exitCode = 1;
  }
}

main();
